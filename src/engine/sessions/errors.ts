/**
 * Typed failures of the session engine. `code` is the stable machine code an adapter puts in its
 * problem document; `status` is the HTTP status it maps to.
 */
export type SessionErrorCode =
  | 'session_closed'
  | 'session_finished'
  | 'action_mismatch'
  | 'invalid_response'
  | 'nothing_to_undo'
  | 'invalid_session';

const STATUS: Record<SessionErrorCode, number> = {
  session_closed: 409,
  session_finished: 409,
  action_mismatch: 409,
  invalid_response: 422,
  nothing_to_undo: 409,
  invalid_session: 422,
};

export class SessionError extends Error {
  readonly code: SessionErrorCode;
  readonly status: number;

  constructor(code: SessionErrorCode, message: string) {
    super(message);
    this.name = 'SessionError';
    this.code = code;
    this.status = STATUS[code];
  }
}

/** The session is closed: it takes no responses and cannot be undone. */
export class SessionClosedError extends SessionError {
  constructor(id: string) {
    super('session_closed', `session ${id} is closed`);
    this.name = 'SessionClosedError';
  }
}

/** The session has concluded or escalated: there is no pending action to answer. */
export class SessionFinishedError extends SessionError {
  constructor(id: string, status: string) {
    super('session_finished', `session ${id} is ${status}: no action is pending`);
    this.name = 'SessionFinishedError';
  }
}

/** The response names another action than the pending one. */
export class ActionMismatchError extends SessionError {
  readonly expected: string;
  readonly received: string;

  constructor(expected: string, received: string) {
    super('action_mismatch', `the pending action is ${expected}, not ${received}`);
    this.name = 'ActionMismatchError';
    this.expected = expected;
    this.received = received;
  }
}

/** The value does not have the type (or lies outside the choices) the action expects. */
export class InvalidResponseError extends SessionError {
  constructor(message: string) {
    super('invalid_response', message);
    this.name = 'InvalidResponseError';
  }
}

export class NothingToUndoError extends SessionError {
  constructor(id: string) {
    super('nothing_to_undo', `session ${id} has no answer to undo`);
    this.name = 'NothingToUndoError';
  }
}

export class KnowledgeError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`troubleshooting knowledge is invalid:\n- ${problems.join('\n- ')}`);
    this.name = 'KnowledgeError';
    this.problems = problems;
  }
}
