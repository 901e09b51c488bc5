export {
  ActionMismatchError,
  InvalidResponseError,
  KnowledgeError,
  NothingToUndoError,
  SessionClosedError,
  SessionError,
  type SessionErrorCode,
  SessionFinishedError,
} from './errors.js';
export { defaultKnowledgeDir, loadKnowledge, type RawKnowledge, validateKnowledge } from './knowledge.js';
export type { Knowledge } from './knowledge-schema.js';
export { RESIDUAL_ID } from './model.js';
export {
  actionPrompt,
  type Language,
  type PublicOptions,
  publicAction,
  summary,
  toPublic,
} from './public.js';
export { sessionInitFromRequest } from './request.js';
export { close, createSession, nextAction, respond, undo } from './session.js';
export type {
  Answer,
  AnswerValue,
  InitialReading,
  ManualFact,
  ModelAction,
  Outcome,
  Response,
  SessionContext,
  SessionInit,
  SessionState,
  SessionStatus,
} from './types.js';
