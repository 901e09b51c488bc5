/**
 * Measures quality against answer keys: ingests a corpus (without snapshots) into a temporary bundle,
 * then scores, per manual, the answer a client receives through the service layer (state, cited page,
 * meaning, whether the excerpt holds the meaning; negatives; free-text hit@k) beside the extractor's own
 * figures (recall, page, meaning, precision of the stored rows). The CLI (bench/quality.ts) and the
 * real-corpus test share this one function.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ingest } from '../pipeline/ingest/run.js';
import { BundleReader } from '../src/bundle/reader.js';
import type { ErrorCodeRow } from '../src/bundle/schema.js';
import { codeKey, codeVariants } from '../src/text/normalise.js';
import { type AnswerFigures, answerPath, MEANING_OK, measureAnswers } from './quality-answers.js';
import { type ManualGroup, readManualGroups } from './quality-groups.js';
import { type AnswerKey, readAnswerKeys } from './quality-keys.js';
import { meaningOverlap } from './quality-meaning.js';
import { heldOutManuals, heldOutQuestions } from './quality-split.js';
import { measureTranslated, type TranslatedFigures } from './quality-translated.js';

export interface QualityOptions {
  corpus: string;
  answers: string;
  /** Keep the bundle at this path instead of a temporary file (for inspection). */
  bundle?: string;
  /** Measure the bundle already at `bundle` instead of ingesting (search work that changes no index). */
  reuse?: boolean;
  /** Manuals reported apart (default: data/quality/manual-groups.yaml). */
  groups?: ManualGroup[];
  /** Also measure the questions asked in another language than their manual's (this file). */
  translated?: string;
}

export interface CodeMiss {
  code: string;
  /** Why the key did not score: not extracted, wrong page, or a weak meaning. */
  problem: 'missing' | 'page' | 'meaning';
  detail: string;
}

export interface ManualFigures {
  document: string;
  codeKeys: number;
  found: number;
  pageCorrect: number;
  /** Sum of meaning overlaps over found codes. */
  meaningSum: number;
  meaningOk: number;
  extracted: number;
  extractedInKeys: number;
  negatives: number;
  negativesOk: number;
  misses: CodeMiss[];
  /** Extracted codes the keys do not hold (some are codes the keys left out as ambiguous). */
  extras: string[];
  /** Negative keys that were extracted as codes. */
  falseCodes: string[];
  /** The same keys through the answer path. */
  answers: AnswerFigures;
}

export interface Figures {
  /** Percentages, one decimal; null where the manual has nothing to measure. */
  /** Answer path: state `answer`, right page and meaning, of all code keys. */
  answer: number | null;
  /** Answer path: the excerpt holds the key's meaning as one run of words, of all code keys. */
  excerpt: number | null;
  /** Answer path: negatives answered `unknown_code`. */
  negatives: number | null;
  hit1: number | null;
  hit3: number | null;
  /** Free-text hit@k without a brand (every manual's pages compete). */
  openHit1: number | null;
  openHit3: number | null;
  /** Extractor: share of keyed codes with a stored row. */
  recall: number | null;
  pageAccuracy: number | null;
  meaningMean: number | null;
  meaningOk: number | null;
  precision: number | null;
}

export type GroupTotals = Figures & {
  codeKeys: number;
  negativeKeys: number;
  questionKeys: number;
  minRecall: number | null;
};

export interface QualityReport {
  date: string;
  search: 'measured' | 'absent';
  /** `heldOut`: its questions are set aside while search rules are written (bench/quality-split.ts). */
  manuals: (ManualFigures & { figures: Figures; heldOut: boolean })[];
  /** The overall figures of the in-sample and of the held-out manuals apart. */
  split: { inSample: Figures; heldOut: Figures };
  /** The in-sample manuals: every manual measured but those of a group gated apart. */
  overall: GroupTotals;
  /** Each group of data/quality/manual-groups.yaml with a manual in the corpus, its figures apart. */
  groups: (Omit<ManualGroup, 'documents'> & { documents: string[]; overall: GroupTotals })[];
  ingestMs: number;
  /** The questions asked in another language, when measured (options.translated). */
  translated?: TranslatedFigures;
  /** Question ids of the held-out half of the questions (bench/quality-split.ts, `heldOutQuestions`). */
  heldOutQuestions: string[];
}

export async function measureQuality(options: QualityOptions): Promise<QualityReport> {
  const keys = readAnswerKeys(options.answers);
  const tempDir = options.bundle ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-quality-'));
  const bundle = options.bundle ?? path.join(tempDir!, 'quality.bundle');
  try {
    const t0 = performance.now();
    if (!(options.reuse && fs.existsSync(bundle))) {
      const result = await ingest({
        paths: [options.corpus],
        bundle,
        jobs: 1,
        snapshots: false,
        strict: false,
      });
      if (!result.written) throw new Error(`ingest wrote no bundle: ${result.reason}`);
    }
    const ingestMs = Math.round(performance.now() - t0);
    const reader = new BundleReader(bundle);
    const client = await answerPath(reader);
    try {
      const manuals: QualityReport['manuals'] = [];
      const byDocument = groupByDocument(keys);
      const heldOut = heldOutManuals([...byDocument.keys()].map(documentName));
      for (const [file, list] of byDocument) {
        const figures = await measureManual(reader, client, file, list);
        manuals.push({ ...figures, figures: percentages([figures]), heldOut: heldOut.has(figures.document) });
      }
      const split = {
        inSample: percentages(manuals.filter((m) => !m.heldOut)),
        heldOut: percentages(manuals.filter((m) => m.heldOut)),
      };
      const questionHalf = heldOutQuestions(keys.filter((k) => k.kind === 'question').map((k) => k.id));
      const translated = options.translated
        ? await measureTranslated(
            client.search,
            reader.documents(),
            keys,
            heldOut,
            options.translated,
            questionHalf,
          )
        : undefined;
      const groups = options.groups ?? readManualGroups();
      const apart = new Set(groups.filter((g) => g.gate === 'own').flatMap((g) => g.documents));
      return {
        date: new Date().toISOString().slice(0, 10),
        search: 'measured',
        manuals,
        split,
        overall: totals(manuals.filter((m) => !apart.has(m.document))),
        groups: groups.flatMap((g) => {
          const members = manuals.filter((m) => g.documents.includes(m.document));
          if (members.length === 0) return [];
          return [{ ...g, documents: members.map((m) => m.document), overall: totals(members) }];
        }),
        ingestMs,
        ...(translated ? { translated } : {}),
        heldOutQuestions: [...questionHalf].sort(),
      };
    } finally {
      await client.close();
      reader.close();
    }
  } finally {
    if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  }
}

async function measureManual(
  reader: BundleReader,
  client: Awaited<ReturnType<typeof answerPath>>,
  file: string,
  keys: AnswerKey[],
): Promise<ManualFigures> {
  const doc = reader.documents().find((d) => d.file_name === file);
  const rows = doc
    ? (reader.db
        .prepare('SELECT * FROM error_codes WHERE document_id = ? ORDER BY id')
        .all(doc.id) as ErrorCodeRow[])
    : [];
  const byNorm = new Map<string, ErrorCodeRow[]>();
  for (const row of rows) {
    const k = codeKey(row.code);
    byNorm.set(k, [...(byNorm.get(k) ?? []), row]);
  }
  const find = (code: string): ErrorCodeRow | undefined => {
    for (const v of codeVariants(code)) {
      const hit = byNorm.get(v)?.[0];
      if (hit) return hit;
    }
    return undefined;
  };
  const out: ManualFigures = {
    document: documentName(file),
    codeKeys: 0,
    found: 0,
    pageCorrect: 0,
    meaningSum: 0,
    meaningOk: 0,
    extracted: 0,
    extractedInKeys: 0,
    negatives: 0,
    negativesOk: 0,
    misses: [],
    extras: [],
    falseCodes: [],
    answers: await measureAnswers(client, doc, keys, true),
  };
  const keyed = new Set<string>();
  for (const key of keys) {
    if (key.kind === 'code') {
      out.codeKeys++;
      for (const v of codeVariants(key.code)) keyed.add(v);
      const row = find(key.code);
      if (!row) {
        out.misses.push({ code: key.code, problem: 'missing', detail: key.meaning });
        continue;
      }
      out.found++;
      if (key.pages.includes(row.page)) out.pageCorrect++;
      else
        out.misses.push({
          code: key.code,
          problem: 'page',
          detail: `page ${row.page}, key ${key.pages.join(',')}`,
        });
      const overlap = meaningOverlap(row.title, key.meaning);
      out.meaningSum += overlap;
      if (overlap >= MEANING_OK) out.meaningOk++;
      else
        out.misses.push({ code: key.code, problem: 'meaning', detail: `"${row.title}" vs "${key.meaning}"` });
    } else if (key.kind === 'negative') {
      out.negatives++;
      if (find(key.code)) out.falseCodes.push(key.code);
      else out.negativesOk++;
    }
  }
  if (out.codeKeys > 0) {
    const distinct = new Map<string, string>();
    for (const row of rows) distinct.set(codeKey(row.code), row.code);
    out.extracted = distinct.size;
    for (const [norm, code] of distinct) {
      if (keyed.has(norm)) out.extractedInKeys++;
      else out.extras.push(code);
    }
  }
  return out;
}

function totals(manuals: (ManualFigures & { figures: Figures })[]): GroupTotals {
  const recalls = manuals.map((m) => m.figures.recall).filter((r): r is number => r !== null);
  return {
    ...percentages(manuals),
    codeKeys: sum(manuals, (m) => m.codeKeys),
    negativeKeys: sum(manuals, (m) => m.negatives),
    questionKeys: sum(manuals, (m) => m.answers.questions),
    minRecall: recalls.length ? Math.min(...recalls) : null,
  };
}

function percentages(list: ManualFigures[]): Figures {
  const pct = (num: number, den: number) => (den > 0 ? Math.round((1000 * num) / den) / 10 : null);
  const found = sum(list, (m) => m.found);
  const codeKeys = sum(list, (m) => m.codeKeys);
  const answers = (f: (a: AnswerFigures) => number) => sum(list, (m) => f(m.answers));
  return {
    answer: pct(
      answers((a) => a.answerOk),
      codeKeys,
    ),
    excerpt: pct(
      answers((a) => a.excerptOk),
      codeKeys,
    ),
    negatives: pct(
      answers((a) => a.negativesOk),
      answers((a) => a.negatives),
    ),
    hit1: pct(
      answers((a) => a.hit1),
      answers((a) => a.questions),
    ),
    hit3: pct(
      answers((a) => a.hit3),
      answers((a) => a.questions),
    ),
    openHit1: pct(
      answers((a) => a.openHit1),
      answers((a) => a.questions),
    ),
    openHit3: pct(
      answers((a) => a.openHit3),
      answers((a) => a.questions),
    ),
    recall: pct(
      found,
      sum(list, (m) => m.codeKeys),
    ),
    pageAccuracy: pct(
      sum(list, (m) => m.pageCorrect),
      found,
    ),
    meaningMean: found > 0 ? Math.round((100 * sum(list, (m) => m.meaningSum)) / found) / 100 : null,
    meaningOk: pct(
      sum(list, (m) => m.meaningOk),
      found,
    ),
    precision: pct(
      sum(list, (m) => m.extractedInKeys),
      sum(list, (m) => m.extracted),
    ),
  };
}

function documentName(file: string): string {
  return file.replace(/\.pdf$/i, '');
}

function groupByDocument(keys: AnswerKey[]): Map<string, AnswerKey[]> {
  const out = new Map<string, AnswerKey[]>();
  for (const key of keys) out.set(key.document, [...(out.get(key.document) ?? []), key]);
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

function sum<T>(list: T[], f: (item: T) => number): number {
  return list.reduce((n, item) => n + f(item), 0);
}
