import type { ModelRow } from '../bundle/reader.js';
import type {
  Alternative,
  Confidence,
  DiagnosticRequest,
  DiagnosticResponse,
  DiagnosticState,
  FollowUpQuestion,
} from '../contract/diagnostic.js';
import type { ModelMatch } from '../contract/documents.js';
import type {
  StrictDiagnosticRequest,
  StrictDiagnosticResponse,
  StrictModelMatch,
} from '../contract/models.js';
import { codeKey } from '../text/normalise.js';
import { contentWords, sameReading } from '../text/readings.js';
import { findIn, findSourced } from './code-sources.js';
import type { CodeEntry, CorpusView } from './corpus.js';
import { type Resolution, resolveModel } from './models.js';

/** At most this many options in a follow-up question and alternatives in a response. */
const MAX_OPTIONS = 20;

/** Base confidence of an answer by how the model matched; a code found only in its other padding, or a
 * manual not approved as an exact-model source, lowers it. */
const ANSWER_SCORE = { exact: 0.95, alias: 0.9, fuzzy: 0.6 } as const;
/** An answer without a model: every manual that documents the code says the same thing. */
const SHARED_ENTRY_SCORE = 0.75;
const VARIANT_PENALTY = 0.1;
/** An answer from the code index (a code's row or line, not read as a table row): at most a low band. */
const CODE_INDEX_SCORE = 0.45;
const UNAPPROVED_PENALTY = 0.1;

export function band(score: number): Confidence['band'] {
  return score >= 0.8 ? 'high' : score >= 0.5 ? 'medium' : 'low';
}

function confidence(score: number): Confidence {
  const s = Math.round(Math.min(1, Math.max(0, score)) * 100) / 100;
  return { band: band(s), score: s };
}

/** A code's entries among some documents: the printed form first, the other zero padding only if absent. */
export function findEntries(
  view: CorpusView,
  brand: string,
  code: string,
  documents?: ReadonlySet<string>,
): { entries: CodeEntry[]; variant: boolean } {
  return findIn((norm) => view.codeEntries(brand, norm), code, documents);
}

/** Orders entries by the manual a technician would rather read: language asked, approved, then bundle order. */
function rank(view: CorpusView, entries: CodeEntry[], language: string | undefined): CodeEntry[] {
  const score = (e: CodeEntry) => {
    const d = view.document(e.row.document_id);
    return (language && d?.language === language ? 2 : 0) + (d?.approved ? 1 : 0);
  };
  return entries
    .map((e, i) => ({ e, i, s: score(e) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.e);
}

function alternative(view: CorpusView, e: CodeEntry): Alternative | null {
  const citation = view.entryCitation(e);
  if (!citation) return null;
  return {
    brand: e.row.brand,
    models: view.modelsOfDocument(e.row.document_id).map((m) => m.name),
    error_code: e.row.code,
    title: e.row.title,
    document_id: e.row.document_id,
    citation,
  };
}

function alternatives(view: CorpusView, entries: CodeEntry[]): Alternative[] {
  const out: Alternative[] = [];
  for (const e of entries) {
    const a = alternative(view, e);
    if (a) out.push(a);
    if (out.length >= MAX_OPTIONS) break;
  }
  return out;
}

function modelMatch(view: CorpusView, r: Extract<Resolution, { kind: 'model' }>): ModelMatch {
  return { ...view.modelSummary(r.model), match: r.match, query: r.query };
}

function askModel(
  options: string[],
  question = 'Which exact model is printed on the nameplate?',
): FollowUpQuestion {
  return { field: 'model', question, options: [...new Set(options)].slice(0, MAX_OPTIONS) };
}

function empty(
  state: DiagnosticState,
  score: number,
  { error_code, ...parts }: Partial<DiagnosticResponse> & { error_code: string },
): DiagnosticResponse {
  return {
    state,
    confidence: confidence(score),
    brand: null,
    model: null,
    error_code,
    title: null,
    excerpt: null,
    origin: null,
    causes: [],
    steps: [],
    part: null,
    citation: null,
    procedure: null,
    alternatives: [],
    follow_up_questions: [],
    billable: false,
    ...parts,
  };
}

/**
 * Whether entries are one reading: every two of them say the same thing (the same words once case,
 * punctuation and the manual's function words are set aside, or one's words all in the other), as a
 * reprint of a code list or several models sharing one entry do.
 */
export function oneReading(view: CorpusView, entries: CodeEntry[]): boolean {
  for (let i = 0; i < entries.length; i++) {
    const a = entries[i]!;
    const language = view.document(a.row.document_id)?.language;
    for (let j = i + 1; j < entries.length; j++) {
      if (!sameReading(a.row.title, entries[j]!.row.title, language)) return false;
    }
  }
  return true;
}

/** The entry whose reading says least: the words every printing of one reading shares. */
function core(view: CorpusView, entries: CodeEntry[]): CodeEntry {
  const language = view.document(entries[0]!.row.document_id)?.language;
  let best = entries[0]!;
  let size = contentWords(best.row.title, language).size;
  for (const e of entries.slice(1)) {
    const n = contentWords(e.row.title, language).size;
    if (n < size) {
      best = e;
      size = n;
    }
  }
  return best;
}

/**
 * The entries in one language of a manual printed in several (its pages in one language, then the same
 * pages in another): when each language's entries are one reading, they are translations of each other,
 * not meanings to choose from, and the language asked (else the manual's own) answers. Null when the
 * entries stand on pages of one language, or of a language that could not be told, or when a language
 * prints readings that differ.
 */
function oneLanguage(view: CorpusView, entries: CodeEntry[], asked: string | undefined): CodeEntry[] | null {
  const byLanguage = new Map<string, CodeEntry[]>();
  for (const e of entries) {
    if (e.language === 'mul') return null;
    byLanguage.set(e.language, [...(byLanguage.get(e.language) ?? []), e]);
  }
  if (byLanguage.size < 2) return null;
  for (const group of byLanguage.values()) if (!oneReading(view, group)) return null;
  const own = view.document(entries[0]!.row.document_id)?.language;
  const wanted = [asked, own].find((l) => l !== undefined && byLanguage.has(l));
  return wanted ? byLanguage.get(wanted)! : null;
}

/** Distinct readings among entries, each once (a reading printed twice is offered once). */
function distinctReadings(view: CorpusView, entries: CodeEntry[]): string[] {
  const out: CodeEntry[] = [];
  for (const e of entries) if (!out.some((o) => oneReading(view, [o, e]))) out.push(e);
  return out.map((e) => e.row.title);
}

/**
 * The answer from a model's own entries for a code (or, without a model, from entries every manual
 * shares), or an ambiguous response when the chosen manual prints the code with readings that really
 * differ. A reading printed on several pages is one answer; the other pages are cited among the
 * alternatives. The excerpt was verified on its page when the entry was loaded.
 */
function answerFrom(
  view: CorpusView,
  ranked: CodeEntry[],
  brand: string,
  model: ModelMatch | null,
  variant: boolean,
  language: string | undefined,
): DiagnosticResponse {
  const first = ranked[0]!;
  const inDocument = ranked.filter((e) => e.row.document_id === first.row.document_id);
  const sameDocument = oneReading(view, inDocument)
    ? inDocument
    : (oneLanguage(view, inDocument, language) ?? inDocument);
  if (!oneReading(view, sameDocument)) {
    return empty('ambiguous', 0.5, {
      brand,
      model,
      error_code: first.row.code,
      alternatives: alternatives(view, sameDocument),
      follow_up_questions: [
        {
          field: 'error_code',
          question:
            'The manual prints this code with several meanings: which of these texts does the display or the fault list show?',
          options: distinctReadings(view, sameDocument),
        },
      ],
    });
  }
  // One reading printed several times, once with details of its own (a switching point of one unit
  // type): the answer states what every printing says.
  const chosen = core(view, sameDocument);
  const citation = view.entryCitation(chosen);
  const doc = view.document(chosen.row.document_id);
  if (!citation || !doc) {
    // Unreachable with a consistent bundle: an entry is verified on a page of its document.
    return empty('unknown_code', 0.5, { brand, model, error_code: chosen.row.code });
  }
  let score = model ? ANSWER_SCORE[model.match] : SHARED_ENTRY_SCORE;
  if (variant) score -= VARIANT_PENALTY;
  if (!doc.approved) score -= UNAPPROVED_PENALTY;
  if (chosen.origin === 'code_index') score = Math.min(score, CODE_INDEX_SCORE);
  return {
    state: 'answer',
    confidence: confidence(score),
    brand,
    model,
    error_code: chosen.row.code,
    title: chosen.row.title,
    excerpt: { text: chosen.row.excerpt, document_id: chosen.row.document_id, page: chosen.row.page },
    origin: chosen.origin,
    causes: chosen.causes,
    steps: chosen.steps,
    part: chosen.part,
    citation,
    procedure:
      view.procedureCitation(chosen) ??
      sameDocument.map((e) => view.procedureCitation(e)).find((c) => c !== null) ??
      null,
    alternatives: alternatives(
      view,
      ranked.filter((e) => e !== chosen),
    ),
    follow_up_questions: [],
    billable: true,
  };
}

/** Ambiguous when manuals of other models document the code, else unknown. */
function elsewhere(
  view: CorpusView,
  brand: string,
  code: string,
  language: string | undefined,
  parts: { model: ModelMatch | null; candidates: ModelRow[] | null; score: number; question?: string },
): DiagnosticResponse {
  const { entries, variant } = findSourced(view, brand, code);
  if (entries.length === 0) {
    return empty('unknown_code', parts.model ? 0.7 : 0.6, {
      brand,
      model: parts.model,
      error_code: codeKey(code),
      follow_up_questions: [
        {
          field: 'error_code',
          question: 'Is the code read exactly as the display shows it (letters, digits, dashes)?',
          options: [],
        },
      ],
    });
  }
  const ranked = rank(view, entries, language);
  // Several models sharing one entry (or one manual covering them all): the answer does not depend on
  // the model, so there is no question to ask.
  if (!parts.model && oneReading(view, ranked)) {
    const answer = answerFrom(view, ranked, brand, null, variant, language);
    const models = ranked.flatMap((e) => view.modelsOfDocument(e.row.document_id).map((m) => m.name));
    // The technician can still confirm that the answer's manual is theirs.
    answer.follow_up_questions = [
      askModel(models, 'This answer is from the manual of these models: is one of them on the nameplate?'),
    ];
    return answer;
  }
  // Manuals of the same models that read the code differently (one manual in two languages, or two
  // editions): the model on the nameplate would not choose between them, so asking for it is a question
  // that cannot help. The manual in the asked (or most common) language answers; the others are cited.
  if (!parts.model && sameModels(view, ranked)) {
    const answer = answerFrom(view, ranked, brand, null, variant, language);
    if (answer.state === 'answer') return answer;
  }
  const candidateIds = parts.candidates ? new Set(parts.candidates.map((m) => m.id)) : null;
  const documenting = ranked.flatMap((e) => view.modelsOfDocument(e.row.document_id));
  const preferred = candidateIds ? documenting.filter((m) => candidateIds.has(m.id)) : [];
  const options = (preferred.length > 0 ? preferred : documenting).map((m) => m.name);
  return empty('ambiguous', parts.score, {
    brand,
    model: parts.model,
    error_code: ranked[0]!.row.code,
    alternatives: alternatives(view, ranked),
    follow_up_questions: [askModel(options, parts.question)],
  });
}

/** Whether every manual among the entries covers the same models. */
function sameModels(view: CorpusView, entries: CodeEntry[]): boolean {
  const key = (documentId: string) =>
    view
      .modelsOfDocument(documentId)
      .map((m) => m.id)
      .sort()
      .join('\u0000');
  const first = key(entries[0]!.row.document_id);
  return first !== '' && entries.every((e) => key(e.row.document_id) === first);
}

/** v1 lookup: brand, model and code as a technician typed them, answered only from a verbatim excerpt. */
export function diagnose(view: CorpusView, input: DiagnosticRequest): DiagnosticResponse {
  const r = resolveModel(view, input.brand, input.model, { fuzzy: true });
  switch (r.kind) {
    case 'unknown_brand':
      return empty('out_of_coverage', 0.95, {
        error_code: codeKey(input.error_code),
        follow_up_questions: [
          {
            field: 'brand',
            question: 'The corpus has no manual of this brand. Which brand is it?',
            options: view.brands,
          },
        ],
      });
    case 'unknown_model': {
      const { entries } = findEntries(view, r.brand, input.error_code);
      const options = [
        ...r.suggestions.map((m) => m.name),
        ...entries.flatMap((e) => view.modelsOfDocument(e.row.document_id).map((m) => m.name)),
      ];
      return empty('out_of_coverage', 0.9, {
        brand: r.brand,
        error_code: entries[0]?.row.code ?? codeKey(input.error_code),
        alternatives: alternatives(view, rank(view, entries, input.language)),
        follow_up_questions: [
          askModel(options, 'The corpus has no manual of this model. Which model is on the nameplate?'),
        ],
      });
    }
    case 'no_model':
      return elsewhere(view, r.brand, input.error_code, input.language, {
        model: null,
        candidates: null,
        score: 0.6,
      });
    case 'range':
      return elsewhere(view, r.brand, input.error_code, input.language, {
        model: null,
        candidates: r.models,
        score: 0.6,
        question: `"${r.range.name}" is a range: which of its models is on the nameplate?`,
      });
    case 'candidates':
      return elsewhere(view, r.brand, input.error_code, input.language, {
        model: null,
        candidates: r.models,
        score: 0.55,
      });
    case 'model': {
      const match = modelMatch(view, r);
      const docs = new Set(view.documentsOfModel(r.model.id));
      const own = findSourced(view, r.brand, input.error_code, docs);
      if (own.entries.length > 0) {
        return answerFrom(
          view,
          rank(view, own.entries, input.language),
          r.brand,
          match,
          own.variant,
          input.language,
        );
      }
      const other = elsewhere(view, r.brand, input.error_code, input.language, {
        model: match,
        candidates: null,
        score: 0.6,
        question: `The manuals of ${r.model.name} do not document this code; manuals of other models do. Is the model right?`,
      });
      // The nameplate's model was found as printed (or by its alias) and its own manuals do not print
      // the code: for that unit the code is unknown. Other models' readings stay as alternatives, with
      // the question whether the model is right, but none of them is offered as this unit's meaning.
      if (r.match !== 'fuzzy' && other.state === 'ambiguous') {
        return { ...other, state: 'unknown_code', confidence: confidence(0.7) };
      }
      return other;
    }
  }
}

/** v2 lookup: only approved manuals that list the exact model (or its alias) answer. */
export function diagnoseStrict(view: CorpusView, input: StrictDiagnosticRequest): StrictDiagnosticResponse {
  const r = resolveModel(view, input.brand, input.model, { fuzzy: false });
  const none = (reason: StrictDiagnosticResponse['reason']): StrictDiagnosticResponse => ({
    status: 'no_exact_source',
    reason,
    model: null,
    sources: [],
    diagnostic: null,
    billable: false,
  });
  if (r.kind === 'unknown_brand') return none('unknown_brand');
  if (r.kind === 'range') return none('range_name');
  if (r.kind !== 'model' || r.match === 'fuzzy') return none('unknown_model');
  const model: StrictModelMatch = { ...view.modelSummary(r.model), match: r.match };
  const sources = view
    .documentsOfModel(r.model.id)
    .map((id) => view.documentSummary(id)!)
    .filter((d) => d.approved);
  if (sources.length === 0) return { ...none(null), model };
  // Strict answers: the manuals' tables and the maintainer's corrections, never the code index.
  const own = findSourced(view, r.brand, input.error_code, new Set(sources.map((d) => d.document_id)), [
    'maintainer',
    'reader',
  ]);
  if (own.entries.length === 0) {
    return { status: 'code_not_in_source', reason: null, model, sources, diagnostic: null, billable: false };
  }
  const diagnostic = answerFrom(
    view,
    rank(view, own.entries, input.language),
    r.brand,
    { ...model, query: input.model },
    own.variant,
    input.language,
  );
  return {
    status: 'exact_source',
    reason: null,
    model,
    sources,
    diagnostic,
    billable: diagnostic.state === 'answer',
  };
}
