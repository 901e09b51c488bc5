import type { Citation } from '../contract/common.js';
import type {
  ExpectedResponse,
  ManualQuote,
  NextAction,
  ResponseValue,
  Session,
  SessionEquipment,
  SessionHypothesis,
  SessionOutcome,
  SessionSummary,
  StatedReading,
} from '../contract/sessions.js';
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
): Lines {
  const out = new Lines(style);
  out.add(style.bold('Likely causes'));
  const shown = hypotheses.slice(0, options.top ?? SHOWN_HYPOTHESES);
  const cited = (h: SessionHypothesis) => h.citations.slice(0, 2);
  const titles = [...new Set(shown.flatMap((h) => cited(h).map((c) => c.title)))];
  const numbered = titles.length > 1;
  if (numbered) for (const [i, title] of titles.entries()) out.para(style.dim(title), `  [${i + 1}] `);
  else if (titles[0]) out.para(style.dim(`Pages of ${titles[0]}`), '  ');
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
export function expectedText(e: ExpectedResponse): string[] {
  if (e.type === 'boolean') return ['yes or no'];
  if (e.type === 'number') {
    const unit = e.unit ? ` in ${e.unit}` : '';
    const u = e.unit ? ` ${e.unit}` : '';
    const source = e.range_source;
    let range = '';
    if (source?.kind === 'manual' && source.stated && source.citation) {
      const [low, high] = source.stated;
      const stated =
        low !== null && high !== null
          ? `${low} to ${high}${u}`
          : low !== null
            ? `at least ${low}${u}`
            : `at most ${high}${u}`;
      range = ` (normal ${stated}, from the manual: ${citationText(source.citation)})`;
    } else if (e.nominal_range) {
      const general = source?.kind === 'knowledge' ? ', a general figure: the manual states no range' : '';
      range = ` (normal ${e.nominal_range[0]} to ${e.nominal_range[1]}${u}${general})`;
    }
    return [`a number${unit}${range}`];
  }
  if (e.type === 'choice') return (e.choices ?? []).map((c, i) => `${i + 1}  ${c.label}`);
  return ['what you found, in a few words'];
}

/** The pending action: what to do, how long it takes, its safety note, what to answer and its sources. */
export function formatAction(action: NextAction, style: Style, turns: Session['turns']): Lines {
  const out = new Lines(style);
  const minutes = action.minutes > 0 ? ` · ~${action.minutes} min` : '';
  out.add(style.bold(`Step ${turns.used + 1} of at most ${turns.budget} · ${action.kind}${minutes}`));
  out.para(action.prompt, '  ');
  if (action.safety) out.para(style.yellow(`Safety: ${action.safety}`), '  ');
  const expected = expectedText(action.expected);
  if (expected.length === 1) out.para(`Answer: ${expected[0]}`, '  ');
  else {
    out.add('  Answer with the number:');
    for (const line of expected) out.para(line, '    ');
  }
  if (action.part) out.para(partText(action.part), '  ');
  out.add(...formatSources(action.source, action.quotes, action.citations, style).lines);
  return out;
}

/** The part the manual names: name, reference, and the page printing it. */
export function partText(part: NonNullable<NextAction['part']>): string {
  const ref = part.reference ? `, ref. ${part.reference}` : '';
  const page = part.citation ? ` (${citationText(part.citation)})` : '';
  return `Part: ${part.name}${ref}${page}`;
}

function quoted(q: ManualQuote): string {
  const words = q.excerpt.replace(/\s+/g, ' ').trim();
  return `“${words.length > 160 ? `${words.slice(0, 157)}…` : words}”`;
}

/** The manual's own words with their pages; quotes of one manual name its title once. */
function addQuotes(out: Lines, quotes: ManualQuote[], style: Style, indent: string): void {
  const titles = new Set(quotes.map((q) => q.citation.title));
  if (quotes.length > 1 && titles.size === 1) {
    out.para(style.dim(`Manual, ${quotes[0]!.citation.title}:`), indent);
    for (const q of quotes) {
      out.para(style.dim(`${pages(q.citation.page, q.citation.page_end)}: ${quoted(q)}`), `${indent}  `);
    }
  } else {
    for (const q of quotes) out.para(style.dim(`Manual, ${citationText(q.citation)}: ${quoted(q)}`), indent);
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
): Lines {
  const out = new Lines(style);
  if (source === 'knowledge') out.para(style.dim('General advice (not quoted from a manual).'), '  ');
  if (quotes && quotes.length > 0) addQuotes(out, quotes, style, '  ');
  else if (!quotes) {
    for (const c of citations) out.para(style.dim(`Manual: ${citationText(c)}`), '  ');
  }
  return out;
}

export function valueText(value: ResponseValue, action?: Pick<NextAction, 'expected'>): string {
  if (typeof value === 'object') return "can't check";
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
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
): string {
  if ('unknown' in typed) return "can't check";
  const last = session.history[session.history.length - 1];
  if (!last || last.action_id !== actionId) return valueText(typed.value, action);
  return `${valueText(last.value, last)}${last.given ? ` (given as ${last.given})` : ''}`;
}

/** Readings taken from the description, as the session weighs them. */
export function formatStated(list: StatedReading[], style: Style): Lines {
  const out = new Lines(style);
  if (list.length === 0) return out;
  out.add(style.bold('From the description'));
  for (const r of list) {
    const note = r.superseded ? style.dim(' (replaced by a reading on site)') : '';
    out.para(`${r.label}: ${r.outcome_label} · "${r.phrase}"${note}`, '  · ');
  }
  return out;
}

const CONCLUSION_NOTES: Partial<Record<SessionOutcome['reason'], string>> = {
  evidence_settled: 'No check left could change this conclusion.',
  repair_resolved: 'The repair below cleared the fault.',
};

const ESCALATION_NOTES: Partial<Record<SessionOutcome['reason'], string>> = {
  readings_unavailable:
    'The last steps could not be answered: hand the job on with what is known rather than guess further.',
  budget_spent: 'The step budget is used: hand the job on with what is known.',
};

/**
 * A repair that cleared the fault today without reaching its cause (topping up a circuit that leaks):
 * the remedy below it is the cause's own, not the repair that was done.
 */
const MASKED_NOTE =
  'A repair done in this session cleared the fault for now; the remedy below deals with its cause.';

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
export function formatOutcome(outcome: SessionOutcome, style: Style, clearedBy?: string): Lines {
  const out = new Lines(style);
  if (outcome.kind === 'cause_found') {
    out.add(style.green(style.bold('Cause found')));
    if (outcome.cause) out.para(`${outcome.cause.label} (${percent(outcome.cause.probability)})`, '  ');
    const masked =
      outcome.reason === 'repair_resolved' &&
      outcome.action !== null &&
      clearedBy !== undefined &&
      outcome.action.id !== clearedBy;
    const note = masked ? MASKED_NOTE : CONCLUSION_NOTES[outcome.reason];
    if (note) out.para(style.dim(note), '  ');
  } else if (outcome.kind === 'escalation') {
    const to = outcome.escalation ? `: ${outcome.escalation.replaceAll('_', ' ')}` : '';
    out.add(style.yellow(style.bold(`Escalate${to}`)));
    out.para(`Why: ${outcome.reason.replaceAll('_', ' ')}`, '  ');
    const note = ESCALATION_NOTES[outcome.reason];
    if (note) out.para(style.dim(note), '  ');
    if (outcome.cause)
      out.para(`Leading hypothesis: ${outcome.cause.label} (${percent(outcome.cause.probability)})`, '  ');
  } else {
    out.add(style.bold('Closed'));
    if (outcome.cause)
      out.para(`Leading hypothesis: ${outcome.cause.label} (${percent(outcome.cause.probability)})`, '  ');
  }
  if (outcome.action) {
    out.para(`${outcome.action.label}: ${outcome.action.prompt}`, '  → ');
    if (outcome.action.part) out.para(partText(outcome.action.part), '    ');
    if (outcome.action.safety) out.para(style.yellow(`Safety: ${outcome.action.safety}`), '    ');
    if (outcome.action.source === 'knowledge')
      out.para(style.dim('General advice (not quoted from a manual).'), '    ');
  }
  if (outcome.repair_plan.length > 0) {
    out.para('Repairs still to try, most worthwhile first:', '  ');
    outcome.repair_plan.slice(0, 5).forEach((r, i) => {
      // A part is never proposed on a lead alone: whoever takes the job on confirms it first.
      out.para(r.condition ? `${r.label} (${r.condition})` : r.label, `    ${i + 1}. `);
    });
  }
  if (outcome.quotes && outcome.quotes.length > 0) addQuotes(out, outcome.quotes, style, '  ');
  else if (!outcome.quotes) {
    for (const c of outcome.citations) out.para(style.dim(`Manual: ${citationText(c)}`), '  ');
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
  out.add(`${style.bold(s.id)} · ${s.status}`, equipmentLine(s.equipment));
  // Said first, and once: when the session starts.
  if (s.history.length === 0 && s.manual_coverage?.message) out.para(style.yellow(s.manual_coverage.message));
  const stated = formatStated(s.stated_readings, style).lines;
  if (stated.length > 0) out.blank().add(...stated);
  out.blank().add(...formatHypotheses(s.hypotheses, style, options).lines);
  out.blank();
  if (s.next_action) out.add(...formatAction(s.next_action, style, s.turns).lines);
  else if (s.outcome) out.add(...formatOutcome(s.outcome, style, clearingRepair(s.history)).lines);
  return out.toString();
}

/** The report of an intervention: the steps with their answers, the outcome, and every page cited. */
export function formatSummary(s: SessionSummary, style: Style): string {
  const out = new Lines(style);
  out.add(`${style.bold(s.session_id)} · ${s.status}`, equipmentLine(s.equipment));
  if (s.equipment.symptom) out.para(`Complaint: ${s.equipment.symptom}`);
  const stated = formatStated(s.stated_readings, style).lines;
  if (stated.length > 0) out.blank().add(...stated);
  out.blank().add(style.bold(s.path.length > 0 ? 'Steps taken' : 'No step taken'));
  for (const p of s.path) {
    const given = p.given ? ` (given as ${p.given})` : '';
    out.para(`${p.prompt} → ${valueText(p.value, p)}${given}`, `${String(p.turn).padStart(3)}. `);
  }
  if (s.outcome) out.blank().add(...formatOutcome(s.outcome, style, clearingRepair(s.path)).lines);
  const cited = uniqueCitations(s.citations);
  if (cited.length > 0) {
    out.blank().add(style.bold('Sources'));
    out.bullets(cited.map(citationText));
  }
  return out.toString();
}
