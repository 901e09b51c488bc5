import fs from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { projectPath } from '../../src/project-path.js';
import { fold } from '../../src/text/normalise.js';
import type { OutlineEntry } from '../layout/document.js';
import type { Line, PageLayout } from '../layout/types.js';

export interface Heading {
  page: number;
  lineIndex: number;
  title: string;
  /** 1 = chapter; deeper levels from numbering ("4.2" -> 2) or font size. */
  level: number;
}

/** Numbered headings: "4", "4.2", "4.2.1", "9-4.", "A.3", followed by a title that starts with a letter. */
const NUMBERED = /^((?:\d{1,2}|[A-Z])(?:[.-]\d{1,2}){0,3})\.?\s+(\p{Lu}|\p{Ll}).{1,90}$/u;

/** Chapters are rarely numbered past this: a larger single number is a value, a register or a legend. */
const MAX_CHAPTER = 30;

/**
 * Past `MAX_CHAPTER`, single-number titles still open sections when the manual sets them as a series: at
 * least this many lines of one size, clearly larger than the text, whose numbers go up through the
 * document (a controller's parameters "1 CODE-EINGABE" ... "57 LAUFZEITEN", one per section). A value, a
 * register or a callout is not set large with a title beside it, in order, page after page.
 */
const SERIES_MIN = 4;
const SERIES_SIZE = 1.3;
const SERIES_ASCENDING = 0.8;

/** A table of contents entry: a title, a run of leader dots or dashes, a page number. */
const LEADERS = /(?:\.\s?){4,}|[-_·…]{4,}|…{2,}|\s\.{1,3}\s?\d{1,3}$/u;

/**
 * A list item's marker: bullets, arrows, check marks, circled numbers, "a)" / "(3)", and symbol-font
 * glyphs (private-use code points and C1 controls that symbol fonts map their bullets to).
 */
const LIST_MARKER =
  /^(?:[•◆◇■□▪▫●○◦‣⁃►▶▸➢➤✓✔✗☐☑¾*–—\-+]|[\u2460-\u24ff\u2776-\u2793]|[\u0080-\u009f\ue000-\uf8ff]|\(?[a-z0-9]{1,2}\)\s)/u;

/** A line that is wholly inside brackets: "(mm)", "<Information>", "[How to operate]". */
const BRACKETED = /^[([<{【].*[)\]>}】]$/u;

const HeadingWords = z.object({
  admonitions: z.array(z.string().min(1)),
  continuations: z.record(z.string(), z.array(z.string().min(1))),
});

const words = HeadingWords.parse(
  parse(fs.readFileSync(projectPath('data', 'layout', 'headings.yaml'), 'utf8')),
);
const ADMONITIONS = new Set(words.admonitions.map((w) => fold(w)));
/** A note's label opening its text, matched on folded text: "Note 1: …", "NOTE: …", "Remarque : …". */
const NOTE_LABEL = new RegExp(
  `^(?:${[...ADMONITIONS].map((w) => w.replace(/ /g, '\\s+')).join('|')})\\s*(?:\\d+\\s*)?[:：]`,
);
const CONTINUATIONS = new Set(Object.values(words.continuations).flatMap((list) => list.map((w) => fold(w))));

interface Candidate {
  lineIndex: number;
  level: number;
  numbered: boolean;
}

/**
 * Finds section headings from the signals real manuals give: a font larger than the text of paragraphs,
 * a section number, and the PDF outline where one exists. Table rows, list items, table of contents
 * entries, warning labels and paragraphs set in a large font are not headings: a section path made of
 * them tells a reader nothing about where they are.
 */
export function findHeadings(pages: PageLayout[], outline: OutlineEntry[]): Heading[] {
  const body = bodySize(pages);
  const prose = proseSize(pages) ?? body;
  const outlineTitles = new Map<string, OutlineEntry>();
  for (const entry of outline) outlineTitles.set(key(entry.title), entry);
  const paragraphSizes = sizesOfParagraphs(pages);
  const series = numberedSeriesSizes(pages, body, prose);
  const lowerCaseTitles = titlesInLowerCase(pages, body, prose);
  const headings: Heading[] = [];
  for (const page of pages) {
    const candidates: Candidate[] = [];
    page.lines.forEach((line, lineIndex) => {
      const fromOutline = outlineTitles.get(key(line.text));
      if (fromOutline && plausibleTitle(line.text)) {
        candidates.push({ lineIndex, level: fromOutline.depth + 1, numbered: true });
        return;
      }
      const c = candidate(line, body, prose, series);
      if (!c || crowded(page.lines, lineIndex)) return;
      // Titles follow the manual's own style: a lower-case start where its titles start in upper case
      // ("8 years and older …") is text, and so is a longer line in a size it sets paragraphs in.
      if (!lowerCaseTitles && /^\p{Ll}/u.test(titleText(line.text))) return;
      if (!c.numbered && paragraphSizes.has(line.size) && line.text.trim().split(/\s+/).length >= 4) return;
      candidates.push({ lineIndex, ...c });
    });
    for (const c of candidates) {
      const line = page.lines[c.lineIndex]!;
      if (c.numbered && isListItem(page.lines, c.lineIndex, line.size >= Math.max(body, prose) * 1.1))
        continue;
      if (c.numbered) {
        let title = clean(line.text);
        const next = page.lines[c.lineIndex + 1];
        if (!balanced(title)) {
          // "1.5.1.2 Water tank (for use with the indoor" + "unit)": a title wrapped inside its brackets.
          const joined = next && continues(line, next) ? joinWrapped([title, clean(next.text)]) : '';
          if (!joined || !balanced(joined) || joined.length > 120) continue;
          title = joined;
        } else if (next && continues(line, next) && /^\p{Ll}/u.test(next.text.trim())) {
          continue; // a numbered sentence or list item running on
        }
        headings.push({ page: page.page, lineIndex: c.lineIndex, title, level: c.level });
        continue;
      }
      const block = blockOf(page.lines, c.lineIndex);
      // A title set large may wrap over two or three lines; more, or a sentence among them, is a paragraph.
      if (block.end - block.start + 1 > 3) continue;
      const lines = page.lines.slice(block.start, block.end + 1);
      if (lines.some((l) => isSentence(l.text))) continue;
      if (c.lineIndex !== block.start) continue; // the title's first line carries the whole title
      if (lines.some((l, i) => i > 0 && NUMBERED.test(l.text.trim()))) {
        headings.push({ page: page.page, lineIndex: c.lineIndex, title: clean(line.text), level: c.level });
        continue;
      }
      const title = joinWrapped(lines.map((l) => clean(l.text)));
      if (endsOpen(title)) continue;
      headings.push({ page: page.page, lineIndex: c.lineIndex, title, level: c.level });
    }
  }
  return withoutRepeats(headings);
}

/**
 * A title printed on page after page ("2. Attachment" in every box of a drawing series) labels a
 * figure, not a section: a section is opened once (and may be repeated once, as in a running title).
 */
function withoutRepeats(headings: Heading[]): Heading[] {
  const counts = new Map<string, number>();
  for (const h of headings) counts.set(key(h.title), (counts.get(key(h.title)) ?? 0) + 1);
  return headings.filter((h) => (counts.get(key(h.title)) ?? 0) <= 2);
}

function candidate(
  line: Line,
  body: number,
  prose: number,
  series: ReadonlySet<number> = new Set(),
): Omit<Candidate, 'lineIndex'> | undefined {
  const text = clean(line.text);
  if (line.segments.length > 2) return undefined; // a table row, not a title
  // "Dimensions      11": a title and its page number, or a chapter tab beside a line of text.
  if (line.segments.length === 2 && /^[\divxlcIVXLC]{1,4}$/.test(line.segments[1]!.text.trim()))
    return undefined;
  if (!plausibleTitle(text)) return undefined;
  const numbered = NUMBERED.exec(text);
  const sentence = isSentence(text);
  if (numbered && !sentence && line.size >= body * 0.98) {
    const number = numbered[1]!;
    const parts = number.split(/[.-]/);
    if (parts.length === 1 && /^\d+$/.test(number) && Number(number) > MAX_CHAPTER && !series.has(line.size))
      return undefined;
    // Chapters stand out from the text; a single number in body size is a step, a legend or a cell.
    if (parts.length === 1 && line.size < Math.max(body, prose) * 1.05) return undefined;
    if (endsOpen(text)) return undefined;
    return { level: Math.min(parts.length, 4), numbered: true };
  }
  if (numbered) return undefined;
  // Unnumbered titles open with a word: "5, 7 Press …", "} In case of …" are callouts of a drawing.
  if (!/^[\p{L}"“'‘«]/u.test(text)) return undefined;
  if (!balanced(text)) return undefined;
  const larger = line.size >= prose * 1.1 && line.size >= body * 1.1;
  if (larger && !sentence)
    return { level: line.size >= Math.max(body, prose) * 1.6 ? 1 : 2, numbered: false };
  return undefined;
}

/**
 * Sizes at which single-number titles run as a series through the document (`SERIES_MIN` lines or more,
 * set at least `SERIES_SIZE` times the text, their numbers going up from one to the next at least
 * `SERIES_ASCENDING` of the time, one of them past `MAX_CHAPTER`).
 */
function numberedSeriesSizes(pages: PageLayout[], body: number, prose: number): Set<number> {
  const bySize = new Map<number, number[]>();
  const text = Math.max(body, prose);
  for (const page of pages) {
    for (const line of page.lines) {
      if (line.size < text * SERIES_SIZE) continue;
      const title = clean(line.text);
      const numbered = NUMBERED.exec(title);
      if (!numbered || !/^\d+$/.test(numbered[1]!) || isSentence(title) || !plausibleTitle(title)) continue;
      const list = bySize.get(line.size) ?? [];
      list.push(Number(numbered[1]));
      bySize.set(line.size, list);
    }
  }
  const sizes = new Set<number>();
  for (const [size, numbers] of bySize) {
    if (numbers.length < SERIES_MIN || !numbers.some((n) => n > MAX_CHAPTER)) continue;
    let up = 0;
    for (let i = 1; i < numbers.length; i++) if (numbers[i]! > numbers[i - 1]!) up++;
    if (up >= (numbers.length - 1) * SERIES_ASCENDING) sizes.add(size);
  }
  return sizes;
}

/** What any heading's text needs: real words, no leaders, no list marker, not only a label. */
function plausibleTitle(raw: string): boolean {
  const text = clean(raw);
  if (text.length < 3 || text.length > 100) return false;
  if (!/\p{L}{4}/u.test(text) && !/^\p{Lu}{2,}\d*$/u.test(text)) return false;
  if (LEADERS.test(text) || LIST_MARKER.test(text) || BRACKETED.test(text)) return false;
  // "1 Precautions" is a chapter; "PRECAUTIONS" alone above a paragraph is the paragraph's label.
  if (!NUMBERED.test(text) && (isAdmonition(text) || NOTE_LABEL.test(fold(text)))) return false;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const visible = text.replace(/\s/g, '').length;
  if (letters < visible * 0.5) return false;
  // "AbCdEFHJLP": a legend of display glyphs, not a word.
  if (text.split(/\s+/).some((w) => w.length >= 6 && (w.match(/\p{Ll}\p{Lu}/gu) ?? []).length >= 2))
    return false;
  return true;
}

function isAdmonition(text: string): boolean {
  const folded = fold(text)
    .replace(/[^a-z ]+/g, ' ')
    .trim();
  if (!folded) return false;
  if (ADMONITIONS.has(folded)) return true;
  // "CAUTIONCAUTION", "WARNING CAUTION": labels printed side by side (a symbol's text, two languages).
  let rest = folded;
  for (const word of [...ADMONITIONS].sort((a, b) => b.length - a.length)) {
    rest = rest.replace(new RegExp(word.replace(/ /g, '\\s*'), 'g'), ' ');
  }
  return rest.trim() === '';
}

function isSentence(text: string): boolean {
  const t = text.trim();
  return /[.;:,]$/.test(t) || t.split(/\s+/).length > 12;
}

/** A line that does not finish its thought: a trailing hyphen or comma, or a closing function word. */
function endsOpen(text: string): boolean {
  const t = text.trim();
  if (/[-‐,(/&+]$/.test(t)) return true;
  const last = /(\p{L}+)\P{L}*$/u.exec(t)?.[1];
  if (!last) return false;
  const upperLine = t === t.toUpperCase();
  const lowerWord = last === last.toLowerCase();
  return (lowerWord || (upperLine && last.length > 1)) && CONTINUATIONS.has(fold(last));
}

/** Whether `next` carries on the text of `line`: the same size, the next line down, no wider gap. */
function continues(line: Line, next: Line): boolean {
  if (Math.abs(next.size - line.size) > 0.3) return false;
  const gap = next.y - line.y;
  return gap > 0 && gap <= line.size * 1.8;
}

/**
 * Whether a line stands closer to its neighbours than its size allows: a paragraph's line that a symbol
 * or a stray glyph made look large. A title set large has room above and below it.
 */
function crowded(lines: Line[], index: number): boolean {
  const line = lines[index]!;
  const overlaps = (other: Line) => other.x0 < line.x1 && other.x1 > line.x0;
  const prev = lines[index - 1];
  if (
    prev &&
    overlaps(prev) &&
    prev.y < line.y &&
    line.y - prev.y < (0.25 * prev.size + 0.75 * line.size) * 0.9
  ) {
    return true;
  }
  const next = lines[index + 1];
  return (
    !!next &&
    overlaps(next) &&
    next.y > line.y &&
    next.y - line.y < (0.25 * line.size + 0.75 * next.size) * 0.9
  );
}

/** Brackets closed as often as opened: a fragment cut out of a sentence rarely is. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * A numbered line with a sibling close by, in the same style and indent ("2." below "1.", "B" below
 * "A"), is an item of a list (steps, a legend of a drawing), not a section of its own. Chapters set large
 * may follow each other on one page with a line of text between them: set large, only a sibling on the
 * very next line makes a list.
 */
function isListItem(lines: Line[], index: number, large: boolean): boolean {
  const line = lines[index]!;
  const mine = marker(line.text);
  if (!mine || mine.depth > 1) return false;
  const reach = large ? 1 : 8;
  for (let j = Math.max(0, index - reach); j <= Math.min(lines.length - 1, index + reach); j++) {
    if (j === index) continue;
    const other = lines[j]!;
    const theirs = marker(other.text);
    if (theirs?.depth !== 1 || theirs.style !== mine.style) continue;
    if (Math.abs(other.x0 - line.x0) > 4 || Math.abs(other.size - line.size) > 0.3) continue;
    if (Math.abs(theirs.value - mine.value) <= 2) return true;
  }
  return false;
}

function marker(text: string): { value: number; depth: number; style: string } | undefined {
  const m = /^(\d{1,2}|[A-Z])((?:[.-]\d{1,2})*)(\.?)\s/.exec(text.trim());
  if (!m) return undefined;
  const head = m[1]!;
  const digits = /^\d/.test(head);
  return {
    value: digits ? Number(head) : head.charCodeAt(0) - 64,
    depth: 1 + (m[2] ? m[2].split(/[.-]/).length - 1 : 0),
    style: `${digits ? 'n' : 'A'}${m[3]}`,
  };
}

/** The run of lines around `index` set in the same size with no more than a line's gap between them. */
function blockOf(lines: Line[], index: number): { start: number; end: number } {
  const close = (a: Line, b: Line) =>
    Math.abs(a.size - b.size) <= 0.3 && b.y > a.y && b.y - a.y <= Math.max(a.size, b.size) * 1.8;
  let start = index;
  while (start > 0 && close(lines[start - 1]!, lines[start]!)) start--;
  let end = index;
  while (end < lines.length - 1 && close(lines[end]!, lines[end + 1]!)) end++;
  return { start, end };
}

function joinWrapped(parts: string[]): string {
  let out = '';
  for (const part of parts) {
    if (!out) out = part;
    else if (/\p{Ll}-$/u.test(out) && /^\p{Ll}/u.test(part)) out = out.slice(0, -1) + part;
    else out = `${out} ${part}`;
  }
  return out;
}

/** Control characters that symbol fonts leave in the text layer say nothing to a reader. */
function clean(text: string): string {
  return text
    .replace(/[\u0000-\u001f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Sizes at which lines without a section number mostly run in paragraphs (three lines or more, set
 * close, of five words or more): a manual that sets some of its text larger than the body. A title is a
 * line or two on its own, however many words it has.
 */
function sizesOfParagraphs(pages: PageLayout[]): Set<number> {
  const all = new Map<number, number>();
  const prose = new Map<number, number>();
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const text = line.text.trim();
      if (NUMBERED.test(text)) return;
      all.set(line.size, (all.get(line.size) ?? 0) + text.length);
      const block = blockOf(page.lines, index);
      if (block.end - block.start >= 2 && text.split(/\s+/).length >= 5) {
        prose.set(line.size, (prose.get(line.size) ?? 0) + text.length);
      }
    });
  }
  return new Set(
    [...all].filter(([size, chars]) => (prose.get(size) ?? 0) >= chars * 0.4).map(([size]) => size),
  );
}

/** A title without its section number. */
function titleText(text: string): string {
  const t = text.trim();
  const numbered = NUMBERED.exec(t);
  return numbered ? t.slice(numbered[1]!.length).replace(/^\.?\s+/, '') : t;
}

/** Whether the manual sets its unnumbered titles in lower case ("modo de enfriamiento"). */
function titlesInLowerCase(pages: PageLayout[], body: number, prose: number): boolean {
  let lower = 0;
  let all = 0;
  for (const page of pages) {
    for (const line of page.lines) {
      const c = candidate(line, body, prose);
      if (!c || c.numbered) continue;
      all++;
      if (/^\p{Ll}/u.test(line.text.trim())) lower++;
    }
  }
  return all > 0 && lower >= all / 2;
}

/** The size most of the body text is set in, weighted by characters. */
export function bodySize(pages: PageLayout[]): number {
  return heaviestSize(pages, () => true) ?? 10;
}

/**
 * The size paragraphs are set in: the heaviest size among lines that read as prose (one column, six
 * words or more). Manuals whose tables are set smaller than their text would otherwise call every
 * paragraph a heading.
 */
function proseSize(pages: PageLayout[]): number | undefined {
  return heaviestSize(pages, (l) => l.segments.length === 1 && l.text.trim().split(/\s+/).length >= 6);
}

function heaviestSize(pages: PageLayout[], keep: (line: Line) => boolean): number | undefined {
  const weights = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      if (keep(line)) weights.set(line.size, (weights.get(line.size) ?? 0) + line.text.length);
    }
  }
  let best: number | undefined;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight) {
      best = size;
      bestWeight = weight;
    }
  }
  return best;
}

function key(text: string): string {
  return fold(text).replace(/[^a-z0-9]+/g, '');
}
