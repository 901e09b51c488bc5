import type { Citation } from '../contract/common.js';
import type {
  ExpectedResponse,
  ManualQuote,
  NextAction,
  ResponseValue,
  Session,
  SessionEquipment,
  SessionHypothesis,
  SessionLanguage,
  SessionOutcome,
  SessionSummary,
  StatedReading,
} from '../contract/sessions.js';
import { say, sayValue } from '../text/session-words.js';
import type { Style } from './style.js';
import { Lines, pages } from './text-layout.js';

/** How many hypotheses the live view shows: enough to see the contenders on a phone-sized terminal. */
export const SHOWN_HYPOTHESES = 5;
const BAR = 10;

export function percent(p: number): string {
  return `${Math.round(p * 100)}%`;
}

export function citationText(c: Citation): string {
  return `${c.title}, ${pages(c.page, c.page_end)}`;
}

function uniqueCitations(list: Citation[]): Citation[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    const key = `${c.document_id}#${c.page}-${c.page_end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function equipmentLine(e: SessionEquipment): string {
  const parts = [`${e.brand} ${e.model}`];
  if (e.error_code) parts.push(`code ${e.error_code}`);
  parts.push(e.equipment === 'air_water' ? 'air/water' : 'air/air');
  return parts.join(' · ');
}

function bar(p: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, p)) * BAR);
  return '█'.repeat(filled) + '·'.repeat(BAR - filled);
}

/** Up or down since the last view, when the change is large enough to notice. */
function trend(now: number, before: number | undefined): string {
  if (before === undefined) return ' ';
  if (now - before >= 0.02) return '↑';
  if (before - now >= 0.02) return '↓';
  return ' ';
}

/**
 * The leading hypotheses with their probabilities as bars, and the manual pages behind each. A manual's
 * title is printed once, under the heading: the causes name only their pages (with the manual's number
 * when several manuals are cited), so that a narrow terminal is not filled with the same title.
 */
export function formatHypotheses(
  hypotheses: SessionHypothesis[],
  style: Style,
  options: { top?: number; previous?: Map<string, number> } = {},
  lang: SessionLanguage = 'en',
): Lines {
  const out = new Lines(style);
  out.add(style.bold(say(lang, 'likely_causes')));
  const shown = hypotheses.slice(0, options.top ?? SHOWN_HYPOTHESES);
  const cited = (h: SessionHypothesis) => h.citations.slice(0, 2);
  const titles = [...new Set(shown.flatMap((h) => cited(h).map((c) => c.title)))];
  const numbered = titles.length > 1;
  if (numbered) for (const [i, title] of titles.entries()) out.para(style.dim(title), `  [${i + 1}] `);
  else if (titles[0]) out.para(style.dim(say(lang, 'pages_of', { title: titles[0] })), '  ');
  for (const h of shown) {
    const head = `${percent(h.probability).padStart(4)} ${trend(h.probability, options.previous?.get(h.id))} ${style.cyan(bar(h.probability))} `;
    out.para(h.label, head);
    const where = cited(h).map((c) =>
      numbered ? `[${titles.indexOf(c.title) + 1}] ${pages(c.page, c.page_end)}` : pages(c.page, c.page_end),
    );
    if (where.length > 0) out.para(style.dim(where.join(', ')), ' '.repeat(18));
  }
  return out;
}

/** What the action expects, as the technician will type it. */
export function expectedText(e: ExpectedResponse, lang: SessionLanguage = 'en'): string[] {
  if (e.type === 'boolean') return [say(lang, 'yes_or_no')];
  if (e.type === 'number') {
    const unit = e.unit ? say(lang, 'in_unit', { unit: e.unit }) : '';
    const u = e.unit ? ` ${e.unit}` : '';
    const source = e.range_source;
    let range = '';
    if (source?.kind === 'manual' && source.stated && source.citation) {
      const [low, high] = source.stated;
      const stated =
        low !== null && high !== null
          ? say(lang, 'range_between', { low, high, unit: u })
          : low !== null
            ? say(lang, 'range_at_least', { low, unit: u })
            : say(lang, 'range_at_most', { high: high ?? '', unit: u });
      range = say(lang, 'range_manual', { range: stated, citation: citationText(source.citation) });
    } else if (e.nominal_range) {
      const [low, high] = e.nominal_range;
      range = say(lang, source?.kind === 'knowledge' ? 'range_general' : 'range_nominal', {
        low,
        high,
        unit: u,
      });
    }
    return [say(lang, 'a_number', { unit, range })];
  }
  if (e.type === 'choice') return (e.choices ?? []).map((c, i) => `${i + 1}  ${c.label}`);
  return [say(lang, 'free_text')];
}

/** The pending action: what to do, how long it takes, its safety note, what to answer and its sources. */
export function formatAction(
  action: NextAction,
  style: Style,
  turns: Session['turns'],
  lang: SessionLanguage = 'en',
): Lines {
  const out = new Lines(style);
  const minutes = action.minutes > 0 ? ` · ~${action.minutes} min` : '';
  const kind = sayValue(lang, 'kind', action.kind);
  out.add(style.bold(say(lang, 'step_heading', { n: turns.used + 1, budget: turns.budget, kind, minutes })));
  out.para(action.prompt, '  ');
  if (action.safety) out.para(style.yellow(say(lang, 'safety', { text: action.safety })), '  ');
  const expected = expectedText(action.expected, lang);
  if (expected.length === 1) out.para(say(lang, 'answer', { text: expected[0]! }), '  ');
  else {
    out.add(`  ${say(lang, 'answer_with_number')}`);
    for (const line of expected) out.para(line, '    ');
  }
  if (action.part) out.para(partText(action.part, lang), '  ');
  out.add(...formatSources(action.source, action.quotes, action.citations, style, lang).lines);
  return out;
}

/** The part the manual names: name, reference, and the page printing it. */
export function partText(part: NonNullable<NextAction['part']>, lang: SessionLanguage = 'en'): string {
  const ref = part.reference ? say(lang, 'part_ref', { ref: part.reference }) : '';
  const page = part.citation ? ` (${citationText(part.citation)})` : '';
  return say(lang, 'part', { name: part.name, ref, page });
}

function quoted(q: ManualQuote): string {
  const words = q.excerpt.replace(/\s+/g, ' ').trim();
  return `“${words.length > 160 ? `${words.slice(0, 157)}…` : words}”`;
}

/** The manual's own words with their pages; quotes of one manual name its title once. */
function addQuotes(
  out: Lines,
  quotes: ManualQuote[],
  style: Style,
  indent: string,
  lang: SessionLanguage,
): void {
  const titles = new Set(quotes.map((q) => q.citation.title));
  if (quotes.length > 1 && titles.size === 1) {
    out.para(style.dim(say(lang, 'manual_title', { title: quotes[0]!.citation.title })), indent);
    for (const q of quotes) {
      out.para(style.dim(`${pages(q.citation.page, q.citation.page_end)}: ${quoted(q)}`), `${indent}  `);
    }
  } else {
    for (const q of quotes) {
      out.para(
        style.dim(say(lang, 'manual_quote', { citation: citationText(q.citation), quote: quoted(q) })),
        indent,
      );
    }
  }
}

/**
 * Where a step comes from. A step in general words says so, and then shows the manual's own words
 * with their page: general advice is never printed under a manual citation as if quoted from it.
 */
function formatSources(
  source: NextAction['source'] | undefined,
  quotes: ManualQuote[] | undefined,
  citations: Citation[],
  style: Style,
  lang: SessionLanguage,
): Lines {
  const out = new Lines(style);
  if (source === 'knowledge') out.para(style.dim(say(lang, 'general_advice')), '  ');
  if (quotes && quotes.length > 0) addQuotes(out, quotes, style, '  ', lang);
  else if (!quotes) {
    for (const c of citations)
      out.para(style.dim(say(lang, 'manual_citation', { citation: citationText(c) })), '  ');
  }
  return out;
}

export function valueText(
  value: ResponseValue,
  action?: Pick<NextAction, 'expected'>,
  lang: SessionLanguage = 'en',
): string {
  if (typeof value === 'object') return say(lang, 'cannot_check');
  if (typeof value === 'boolean') return say(lang, value ? 'yes' : 'no');
  if (typeof value === 'number') return `${value}${action?.expected.unit ? ` ${action.expected.unit}` : ''}`;
  const choice = action?.expected.choices?.find((c) => c.id === value);
  return choice ? choice.label : value;
}

/**
 * What the session recorded for the step just answered, as the technician should read it back: a
 * reading given in another unit shows converted, with what was typed beside it. `typed` is what was
 * sent, shown when the session's last entry is not that step (it cannot be read back).
 */
export function recordedText(
  session: Pick<Session, 'history'>,
  actionId: string,
  typed: { unknown: true } | { value: ResponseValue },
  action?: Pick<NextAction, 'expected'>,
  lang: SessionLanguage = 'en',
): string {
  if ('unknown' in typed) return say(lang, 'cannot_check');
  const last = session.history[session.history.length - 1];
  if (!last || last.action_id !== actionId) return valueText(typed.value, action, lang);
  return `${valueText(last.value, last, lang)}${last.given ? say(lang, 'given_as', { given: last.given }) : ''}`;
}

/** Readings taken from the description, as the session weighs them. */
export function formatStated(list: StatedReading[], style: Style, lang: SessionLanguage = 'en'): Lines {
  const out = new Lines(style);
  if (list.length === 0) return out;
  out.add(style.bold(say(lang, 'from_description')));
  for (const r of list) {
    const note = r.superseded ? style.dim(say(lang, 'replaced_on_site')) : '';
    out.para(`${r.label}: ${r.outcome_label} · "${r.phrase}"${note}`, '  · ');
  }
  return out;
}

/** The reasons a conclusion or an escalation carries a note for (data/cli/session-words.json, `note_*`). */
const CONCLUSION_NOTES: ReadonlySet<SessionOutcome['reason']> = new Set([
  'evidence_settled',
  'repair_resolved',
]);
const ESCALATION_NOTES: ReadonlySet<SessionOutcome['reason']> = new Set([
  'readings_unavailable',
  'budget_spent',
]);

/** The last repair of a session's steps that cleared the fault (answered yes). */
export function clearingRepair(
  steps: { action_id: string; kind: string; value: unknown }[],
): string | undefined {
  return steps.findLast((h) => h.kind === 'repair' && h.value === true)?.action_id;
}

/**
 * The conclusion, escalation or closure, with its remedy and the pages behind it. `clearedBy` is the
 * repair of the session that cleared the fault (`clearingRepair`): it tells whether the remedy shown
 * is that repair or the cause's own.
 */
export function formatOutcome(
  outcome: SessionOutcome,
  style: Style,
  clearedBy?: string,
  lang: SessionLanguage = 'en',
): Lines {
  const out = new Lines(style);
  const leading = (c: NonNullable<SessionOutcome['cause']>) =>
    say(lang, 'leading_hypothesis', { label: c.label, percent: percent(c.probability) });
  if (outcome.kind === 'cause_found') {
    out.add(style.green(style.bold(say(lang, 'cause_found'))));
    if (outcome.cause) out.para(`${outcome.cause.label} (${percent(outcome.cause.probability)})`, '  ');
    const masked =
      outcome.reason === 'repair_resolved' &&
      outcome.action !== null &&
      clearedBy !== undefined &&
      outcome.action.id !== clearedBy;
    // A repair that cleared the fault today without reaching its cause (topping up a circuit that
    // leaks): the remedy below it is the cause's own, not the repair that was done.
    const note = masked
      ? 'note_masked'
      : CONCLUSION_NOTES.has(outcome.reason)
        ? `note_${outcome.reason}`
        : null;
    if (note) out.para(style.dim(say(lang, note)), '  ');
  } else if (outcome.kind === 'escalation') {
    const to = outcome.escalation ? `: ${sayValue(lang, 'to', outcome.escalation)}` : '';
    out.add(style.yellow(style.bold(say(lang, 'escalate', { to }))));
    out.para(say(lang, 'why', { reason: sayValue(lang, 'reason', outcome.reason) }), '  ');
    if (ESCALATION_NOTES.has(outcome.reason)) out.para(style.dim(say(lang, `note_${outcome.reason}`)), '  ');
    if (outcome.cause) out.para(leading(outcome.cause), '  ');
  } else {
    out.add(style.bold(say(lang, 'closed')));
    if (outcome.cause) out.para(leading(outcome.cause), '  ');
  }
  if (outcome.action) {
    out.para(`${outcome.action.label}: ${outcome.action.prompt}`, '  → ');
    if (outcome.action.part) out.para(partText(outcome.action.part, lang), '    ');
    if (outcome.action.safety)
      out.para(style.yellow(say(lang, 'safety', { text: outcome.action.safety })), '    ');
    if (outcome.action.source === 'knowledge') out.para(style.dim(say(lang, 'general_advice')), '    ');
  }
  if (outcome.repair_plan.length > 0) {
    out.para(say(lang, 'repairs_left'), '  ');
    outcome.repair_plan.slice(0, 5).forEach((r, i) => {
      // A part is never proposed on a lead alone: whoever takes the job on confirms it first.
      out.para(r.condition ? `${r.label} (${r.condition})` : r.label, `    ${i + 1}. `);
    });
  }
  if (outcome.quotes && outcome.quotes.length > 0) addQuotes(out, outcome.quotes, style, '  ', lang);
  else if (!outcome.quotes) {
    for (const c of outcome.citations) {
      out.para(style.dim(say(lang, 'manual_citation', { citation: citationText(c) })), '  ');
    }
  }
  return out;
}

/** A session as `session start|show|respond` print it. */
export function formatSession(
  s: Session,
  style: Style,
  options: { previous?: Map<string, number> } = {},
): string {
  const out = new Lines(style);
  const lang = s.language ?? 'en';
  out.add(`${style.bold(s.id)} · ${sayValue(lang, 'status', s.status)}`, equipmentLine(s.equipment));
  // Said first, and once: when the session starts.
  if (s.history.length === 0 && s.manual_coverage?.message) out.para(style.yellow(s.manual_coverage.message));
  const stated = formatStated(s.stated_readings, style, lang).lines;
  if (stated.length > 0) out.blank().add(...stated);
  out.blank().add(...formatHypotheses(s.hypotheses, style, options, lang).lines);
  out.blank();
  if (s.next_action) out.add(...formatAction(s.next_action, style, s.turns, lang).lines);
  else if (s.outcome) out.add(...formatOutcome(s.outcome, style, clearingRepair(s.history), lang).lines);
  return out.toString();
}

/** The report of an intervention: the steps with their answers, the outcome, and every page cited. */
export function formatSummary(s: SessionSummary, style: Style): string {
  const out = new Lines(style);
  const lang = s.language ?? 'en';
  out.add(`${style.bold(s.session_id)} · ${sayValue(lang, 'status', s.status)}`, equipmentLine(s.equipment));
  if (s.equipment.symptom) out.para(say(lang, 'complaint', { text: s.equipment.symptom }));
  const stated = formatStated(s.stated_readings, style, lang).lines;
  if (stated.length > 0) out.blank().add(...stated);
  out.blank().add(style.bold(say(lang, s.path.length > 0 ? 'steps_taken' : 'no_step_taken')));
  for (const p of s.path) {
    const given = p.given ? say(lang, 'given_as', { given: p.given }) : '';
    out.para(`${p.prompt} → ${valueText(p.value, p, lang)}${given}`, `${String(p.turn).padStart(3)}. `);
  }
  if (s.outcome) out.blank().add(...formatOutcome(s.outcome, style, clearingRepair(s.path), lang).lines);
  const cited = uniqueCitations(s.citations);
  if (cited.length > 0) {
    out.blank().add(style.bold(say(lang, 'sources')));
    out.bullets(cited.map(citationText));
  }
  return out.toString();
}
