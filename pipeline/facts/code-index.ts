/**
 * The code index: a second way to find a code, independent of the table reader. Every code-shaped token
 * that opens a table cell, a line or a list item is kept with the row or line around it, verbatim, so
 * that a code the reader could not place in a table (an unruled table, a list, a table cut by a page
 * break) still has its line to show. A code named inside running text is not kept: a line that goes on
 * from the line above (same left edge, close below, the line above not ended by a stop) is prose.
 *
 * The index is shaped by the text alone, in any language; no rule names a manual or a code. It is a
 * fallback: the runtime answers from it only where the reader found nothing, with a low confidence.
 */
import type { Line, PageLayout, Rule } from '../layout/types.js';
import { isNavigationLine } from '../structure/navigation.js';
import { codeRow } from './code-index-rows.js';
import { codeFamily, splitLeadingCode } from './code-pattern.js';

export interface CodeLineRecord {
  /** The code as printed. */
  code: string;
  page: number;
  /** The words printed after the code in its row or line (its meaning cell, or the rest of the line). */
  meaning: string;
  /** The row or line(s) around the code, lines as they stand on the page, joined by line breaks. */
  excerpt: string;
  /**
   * Set where the code's row could not be told apart from its neighbours (a table without rules whose
   * rows are not set apart): kept for the ingest audit, never answered from.
   */
  uncertain?: true;
  /** Set where the table's header names the code's column as parameters, registers or addresses. */
  notFault?: true;
}

/** A list item's marker before the code: a bullet, a dash, "1." or "a)". */
const LIST_MARKER = /^(?:[•·▪►◦‣∙*–—-]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+/u;
/** Lines of a row after its first (a wrapped cell), and lines under a code printed alone. */
const MAX_FOLLOWING_LINES = 3;
/** A cell of one or two words ending in a colon: a label, as a card prints before its value. */
const LABEL_ONLY = /^\p{L}[\p{L}.'’-]*(?:\s\p{L}[\p{L}.'’-]*)?\s?:$/u;
/**
 * A cell that opens with a numbered sub-code ("01: compressor 1 side", "02 : switch setting"): a column of
 * the code's detail codes beside its description, which one of them the display shows; not the meaning.
 */
const SUB_CODE = /^\d{1,3}\s?:\s*\p{L}/u;
/** A meaning needs a word: a code followed only by numbers is a value or a page reference. */
const HAS_WORD = /\p{L}{2,}/u;

/** Every code-shaped token opening a cell, line or list item on the given pages, with its row or line. */
export function indexCodeLines(pages: PageLayout[], navigation: ReadonlySet<number>): CodeLineRecord[] {
  const out: CodeLineRecord[] = [];
  const seen = new Set<string>();
  for (const p of pages) {
    if (navigation.has(p.page)) continue;
    p.lines.forEach((line, i) => {
      if (isNavigationLine(line.text)) return;
      for (const found of codesOfLine(p.lines, i, p.rules)) {
        const record = { ...found, page: p.page };
        const key = `${record.code}\u0000${record.page}\u0000${record.excerpt}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(record);
      }
    });
  }
  return out;
}

function codesOfLine(
  lines: Line[],
  i: number,
  rules: readonly Rule[] | undefined,
): Omit<CodeLineRecord, 'page'>[] {
  const line = lines[i]!;
  const out: Omit<CodeLineRecord, 'page'>[] = [];
  line.segments.forEach((segment, k) => {
    const raw = segment.text.trim();
    const text = raw.replace(LIST_MARKER, '');
    const listed = text !== raw;
    // A cell that is the code alone: the row's next cell is its meaning.
    if (codeFamily(text) === 'alnum') {
      // A table row: the cell right of the code's, within the row's band (see code-index-rows.ts).
      const row = codeRow(lines, i, segment, rules);
      if (row) {
        // A label alone ("Code:", "Code :") is what names the code's own cell, never what it means.
        if (HAS_WORD.test(row.meaning) && !LABEL_ONLY.test(row.meaning.trim()))
          out.push({
            code: text,
            meaning: clean(row.meaning),
            excerpt: row.excerpt,
            ...(row.confident && !SUB_CODE.test(row.meaning.trim()) ? {} : { uncertain: true as const }),
            ...(row.notFault ? { notFault: true as const } : {}),
          });
        return;
      }
      // A code alone on its line (first cell only): the lines printed under it say what it is.
      if (k === 0 && line.segments.length === 1) {
        const below = under(lines, i);
        if (below.length > 0 && HAS_WORD.test(below.join(' ')))
          out.push({
            code: text,
            meaning: clean(below.join(' ')),
            excerpt: [line.text, ...below].join('\n'),
          });
      }
      return;
    }
    // A cell or a line that opens with the code and goes on with its description ("E01: sensor fault").
    const split = splitLeadingCode(text);
    if (!split || !HAS_WORD.test(split.rest)) return;
    // Only a line's first cell can go on from the line above; a gap-only separator there may be prose
    // wrapped at a code ("… shows the code\nE01 until reset"): kept only when the line starts afresh.
    if (k === 0 && !listed && split.separator === '' && continuesAbove(lines, i)) return;
    const rest = [split.rest, ...wrapped(lines, i, segment.x0 + 1, segment.x0 + 1, segment.x1)].join(' ');
    out.push({ code: split.code, meaning: clean(rest), excerpt: rowLines(lines, i, segment.x0 + 1) });
  });
  return out;
}

/** Whether line i reads on from the line above it: same left edge, close below, no stop at its end. */
function continuesAbove(lines: Line[], i: number): boolean {
  const above = lines[i - 1];
  const line = lines[i]!;
  if (!above || above.segments.length > 1) return false;
  const gap = line.y - above.y;
  if (gap <= 0 || gap > 1.8 * Math.max(line.size, above.size)) return false;
  if (Math.abs(above.x0 - line.x0) > Math.max(2, line.size * 0.5)) return false;
  return !/[.:;!?)\]]$/u.test(above.text.trim());
}

/** Whether line j is close enough under line j-1 to belong to the same row or item. */
function closeBelow(lines: Line[], j: number): boolean {
  const a = lines[j - 1];
  const b = lines[j];
  if (!a || !b) return false;
  const gap = b.y - a.y;
  return gap > 0 && gap <= 1.6 * Math.max(a.size, b.size);
}

/**
 * The row's following lines (a wrapped cell): close below, with nothing printed left of `from` (the code's
 * column stays empty until the next row), up to a line that opens with a code of its own.
 */
function following(lines: Line[], i: number, from: number): number[] {
  const out: number[] = [];
  for (let j = i + 1; j < lines.length && out.length < MAX_FOLLOWING_LINES; j++) {
    if (!closeBelow(lines, j) || lines[j]!.x0 < from || opensWithCode(lines[j]!)) break;
    out.push(j);
  }
  return out;
}

function opensWithCode(line: Line): boolean {
  const first = (line.segments[0]?.text ?? line.text).trim().replace(LIST_MARKER, '');
  return codeFamily(first) === 'alnum' || splitLeadingCode(first) !== undefined;
}

/** The text of the row's following lines that stands in the cell [x0, x1]. */
function wrapped(lines: Line[], i: number, from: number, x0: number, x1: number): string[] {
  const out: string[] = [];
  for (const j of following(lines, i, from)) {
    for (const s of lines[j]!.segments) if (s.x0 >= x0 - 2 && s.x0 <= x1) out.push(s.text.trim());
  }
  return out;
}

function rowLines(lines: Line[], i: number, from: number): string {
  return [i, ...following(lines, i, from)].map((j) => lines[j]!.text).join('\n');
}

/** The lines printed under a code that stands alone on its line, up to the next code or a gap. */
function under(lines: Line[], i: number): string[] {
  const out: string[] = [];
  for (let j = i + 1; j < lines.length && out.length < MAX_FOLLOWING_LINES; j++) {
    if (!closeBelow(lines, j) || opensWithCode(lines[j]!)) break;
    out.push(lines[j]!.text);
  }
  return out;
}

function clean(text: string): string {
  return text
    .replace(/^[\s:=–—-]+/u, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether an indexed line's meaning reads as a description, for the audit: two words in running letters
 * (two lower-case letters in a row), not opening with another code. A run of connector, terminal or pin
 * names ("X1 X3 X4", "DI 01 CN5", "GND T4") or a value column ("CL/OP", "0~1") is not.
 */
function describes(meaning: string): boolean {
  const first = meaning.trim().split(/\s+/)[0] ?? '';
  if (codeFamily(first) !== undefined) return false;
  return (meaning.match(/\p{L}*\p{Ll}{2}\p{L}*/gu) ?? []).length >= 2;
}

/** Codes of the same letters a page needs, where it does not speak of faults, to count as a list of codes. */
const LIST_RUN = 3;

/**
 * For corpus maintainers: per page, the codes the index holds that the table reader did not read in the
 * document (by normalised code), so that a table the reader missed shows at ingest. A code is listed
 * when the reader read codes of the same letters elsewhere in the manual, or when its letters recur among
 * the page's unread codes (twice on a page that speaks of faults, `faultPage`; three times elsewhere): a
 * lone connector, terminal or model name at a line start (`CN3`) is not a list of codes.
 */
export function unreadIndexedCodes(
  lines: readonly CodeLineRecord[],
  read: readonly string[],
  norm: (code: string) => string,
  faultPage: (page: number) => boolean,
): { page: number; codes: string[] }[] {
  const readKeys = new Set(read.map(norm));
  const prefix = (code: string) => /^\p{L}+/u.exec(norm(code))?.[0] ?? '';
  const readPrefixes = new Set(read.map(prefix));
  const byPage = new Map<number, string[]>();
  for (const l of lines) {
    if (readKeys.has(norm(l.code)) || l.notFault || !describes(l.meaning)) continue;
    const list = byPage.get(l.page) ?? [];
    if (!list.some((c) => norm(c) === norm(l.code))) list.push(l.code);
    byPage.set(l.page, list);
  }
  const out: { page: number; codes: string[] }[] = [];
  for (const [page, codes] of [...byPage].sort(([a], [b]) => a - b)) {
    const kept = codes.filter(
      (c) =>
        readPrefixes.has(prefix(c)) ||
        codes.filter((o) => prefix(o) === prefix(c)).length >= (faultPage(page) ? 2 : LIST_RUN),
    );
    if (kept.length > 0) out.push({ page, codes: kept });
  }
  return out;
}
