/**
 * Scores the answer a client receives: each code key is sent to `Services.invoke('diagnose')` (the
 * service layer REST and MCP both call) with the key's brand and model and the manual's language, each
 * negative likewise, and each question to `Services.invoke('search')` twice: with the manual's brand, and
 * without any filter, as a technician typing into a search box sends it ("open" figures).
 */
import crypto from 'node:crypto';
import type { BundleReader } from '../src/bundle/reader.js';
import type { DiagnosticResponse } from '../src/contract/diagnostic.js';
import type { SearchResponse } from '../src/contract/search.js';
import type { ServiceContext } from '../src/engine/context.js';
import { Services } from '../src/engine/services.js';
import { localAccount } from '../src/state/local-key.js';
import { SqliteStateStore } from '../src/state/sqlite-store.js';
import type { AnswerKey } from './quality-keys.js';
import { holdsAsRun, meaningOverlap } from './quality-meaning.js';

/** A meaning scores as matched from this token overlap on. */
export const MEANING_OK = 0.5;

export interface AnswerMiss {
  code: string;
  /** What the client got instead of the keyed answer. */
  problem: 'state' | 'page' | 'meaning' | 'excerpt';
  detail: string;
}

export interface AnswerFigures {
  codeKeys: number;
  /** State `answer`, cited page among the key's pages, title matching the key's meaning. */
  answerOk: number;
  /** Of those keys answered: the excerpt holds the key's meaning as one run of words. */
  excerptOk: number;
  states: Record<string, number>;
  negatives: number;
  negativesOk: number;
  questions: number;
  hit1: number;
  hit3: number;
  /** The same questions without a brand: the expected page among all manuals' pages. */
  openHit1: number;
  openHit3: number;
  misses: AnswerMiss[];
  questionMisses: QuestionMiss[];
  openMisses: QuestionMiss[];
  /** Without a brand: the page among the first three, but not first. */
  openNotFirst: QuestionMiss[];
  /** Every question's outcome by its key id, with and without the brand (for the question halves). */
  outcomes: QuestionOutcome[];
}

export interface QuestionOutcome {
  id: string;
  branded: { at1: boolean; at3: boolean };
  /** `rank`: where the key's page first stands without a brand, 1-based, or null past RANK_DEPTH. */
  open: { at1: boolean; at3: boolean; rank: number | null };
}

/**
 * How deep the brand-less results are read for a question's rank: a miss at rank 4 and a page nowhere in
 * the first fifty call for different work (ranking against vocabulary or extraction), and the held-out
 * half may be described by such counts without reading its questions.
 */
export const RANK_DEPTH = 50;

export interface QuestionMiss {
  /** The question's key id. */
  id: string;
  query: string;
  pages: number[];
  got: string[];
}

export function emptyAnswerFigures(): AnswerFigures {
  return {
    codeKeys: 0,
    answerOk: 0,
    excerptOk: 0,
    states: {},
    negatives: 0,
    negativesOk: 0,
    questions: 0,
    hit1: 0,
    hit3: 0,
    openHit1: 0,
    openHit3: 0,
    misses: [],
    questionMisses: [],
    openMisses: [],
    openNotFirst: [],
    outcomes: [],
  };
}

/** The service layer over a bundle, as the local account with an in-memory state: nothing is kept. */
export async function answerPath(reader: BundleReader) {
  const state = new SqliteStateStore(':memory:');
  const account = await localAccount(state);
  const services = new Services(reader, state);
  const ctx = (): ServiceContext => ({
    account,
    key: null,
    requestId: crypto.randomUUID(),
    idempotencyKey: null,
  });
  return {
    diagnose: async (input: Record<string, unknown>) =>
      (await services.invoke(ctx(), 'diagnose', input)).body as DiagnosticResponse,
    search: async (input: Record<string, unknown>) =>
      (await services.invoke(ctx(), 'search', input)).body as SearchResponse,
    close: () => state.close(),
  };
}

type AnswerPath = Awaited<ReturnType<typeof answerPath>>;

/** Sends one manual's keys through the answer path and scores what comes back. */
export async function measureAnswers(
  path: AnswerPath,
  doc: { id: string; brand: string; language: string } | undefined,
  keys: AnswerKey[],
  withSearch: boolean,
): Promise<AnswerFigures> {
  const out = emptyAnswerFigures();
  for (const key of keys) {
    if (key.kind === 'code') {
      out.codeKeys++;
      const body = await path.diagnose(request(key, doc));
      out.states[body.state] = (out.states[body.state] ?? 0) + 1;
      if (body.state !== 'answer') {
        const options = body.alternatives.map((a) => `p${a.citation.page} "${a.title}"`).join(' | ');
        out.misses.push({ code: key.code, problem: 'state', detail: `${body.state}: ${options}` });
        continue;
      }
      const page = body.citation?.page ?? 0;
      if (!key.pages.includes(page)) {
        out.misses.push({
          code: key.code,
          problem: 'page',
          detail: `page ${page}, key ${key.pages.join(',')}`,
        });
        continue;
      }
      if (meaningOverlap(body.title ?? '', key.meaning) < MEANING_OK) {
        out.misses.push({
          code: key.code,
          problem: 'meaning',
          detail: `"${body.title}" vs "${key.meaning}"`,
        });
        continue;
      }
      out.answerOk++;
      if (holdsAsRun(body.excerpt?.text ?? '', key.meaning)) out.excerptOk++;
      else
        out.misses.push({
          code: key.code,
          problem: 'excerpt',
          detail: `"${oneLine(body.excerpt?.text ?? '')}" lacks "${key.meaning}"`,
        });
    } else if (key.kind === 'negative') {
      out.negatives++;
      const body = await path.diagnose(request(key, doc));
      if (body.state === 'unknown_code') out.negativesOk++;
      else out.misses.push({ code: key.code, problem: 'state', detail: `negative answered ${body.state}` });
    } else if (withSearch && doc) {
      out.questions++;
      const branded = scoreQuestion(
        await path.search({ q: key.query, brand: doc.brand, limit: 3 }),
        doc,
        key,
      );
      if (branded.at1) out.hit1++;
      if (branded.miss) out.questionMisses.push(branded.miss);
      else out.hit3++;
      const open = scoreQuestion(await path.search({ q: key.query, limit: 3 }), doc, key);
      const deep = (await path.search({ q: key.query, limit: RANK_DEPTH })).results;
      const at = deep.findIndex((r) => r.document_id === doc.id && key.pages.includes(r.page));
      if (open.at1) out.openHit1++;
      if (open.miss) out.openMisses.push(open.miss);
      else out.openHit3++;
      if (!open.miss && !open.at1) out.openNotFirst.push(open.top);
      out.outcomes.push({
        id: key.id,
        branded: { at1: branded.at1, at3: !branded.miss },
        open: { at1: open.at1, at3: !open.miss, rank: at >= 0 ? at + 1 : null },
      });
    }
  }
  return out;
}

/** Whether the first result, or any of the first three, is the key's document on one of its pages. */
function scoreQuestion(
  body: SearchResponse,
  doc: { id: string },
  key: Extract<AnswerKey, { kind: 'question' }>,
): { at1: boolean; miss: QuestionMiss | null; top: QuestionMiss } {
  const results = body.results.slice(0, 3);
  const hits = results.map((r) => r.document_id === doc.id && key.pages.includes(r.page));
  const got = results.map((r) => (r.document_id === doc.id ? `p${r.page}` : `${r.document_id} p${r.page}`));
  const top = { id: key.id, query: key.query, pages: key.pages, got };
  return { at1: hits[0] === true, miss: hits.some(Boolean) ? null : top, top };
}

function request(
  key: Extract<AnswerKey, { kind: 'code' | 'negative' }>,
  doc: { brand: string; language: string } | undefined,
): Record<string, unknown> {
  const input: Record<string, unknown> = { brand: key.brand ?? doc?.brand, error_code: key.code };
  if (key.model) input.model = key.model;
  if (key.language) input.language = key.language;
  else if (doc && /^[a-z]{2}$/.test(doc.language)) input.language = doc.language;
  return input;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}
