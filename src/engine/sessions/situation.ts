import type { Distribution } from './inference.js';
import type { ModelAction, Outcome, SessionModel } from './types.js';

/** The quantity whose answer gates part swaps on a unit still under warranty. */
export const WARRANTY_QUANTITY = 'under_warranty';

/** An answer with a value, as the weights it puts on the outcomes of the action that read it. */
export interface Reading {
  action: ModelAction;
  weights: number[];
}

export interface Situation {
  model: SessionModel;
  posterior: Distribution;
  /** Actions answered, with a value or as unknown, and actions covered by initial readings. */
  answered: Set<string>;
  /** Actions answered with a value (the code read from the display and initial readings included). */
  valued: Set<string>;
  /** Quantity -> reliability of the best valued answer it has. */
  quantityReliability: Map<string, number>;
  /** Quantity -> the last answer it was given with a value (read, given at the start or stated). */
  readings: Map<string, Reading>;
  turnsUsed: number;
  /** Answers with a value, initial readings included. */
  answers: number;
  /**
   * Estimated chance that the technician can answer the next check (a reading not to hand on site
   * comes back unknown and teaches nothing): a check's worth is discounted by it, a repair's is not.
   */
  readable: number;
  /** Steps answered "unknown" since the last answer with a value. */
  unansweredStreak: number;
  warranty: boolean | null;
  /** Repairs answered "the fault cleared", in the order they were carried out. */
  resolvedBy: string[];
}

export type Decision =
  | { kind: 'ask'; actionId: string }
  | { kind: 'finish'; status: 'concluded' | 'escalated'; outcome: Outcome };
