import { joinLines } from '../../src/text/excerpt-cells.js';
import type { StepRecord } from '../types.js';
import type { GridSegment } from './page-grid.js';
import { anyOf, readerWords } from './reader-words.js';

export { joinLines };

/** The text lines of a cell, top to bottom, segments on one baseline joined by a space. */
export function cellLines(cell: GridSegment[]): string[] {
  const sorted = [...cell].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const lines: { y: number; parts: string[] }[] = [];
  for (const s of sorted) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last.y - s.y) <= Math.max(1, s.size * 0.35)) last.parts.push(s.text);
    else lines.push({ y: s.y, parts: [s.text] });
  }
  return lines.map((l) => l.parts.join(' ').replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/**
 * A cell's lines grouped into items where nothing but the line break marks them: a line opens an item of
 * its own when it begins with a capital letter and the line above ends without a stop or a joining mark
 * and stops so short of the column's right edge (`right`, the widest line the column prints) that the
 * line's first word would have fit after it, in a cell that ends no line with a stop. WHY: a word
 * processor carries a word to the next line only when it does not fit, so such a break was typed; cause
 * cells list their sub-rows so, unpunctuated ("Sensor unplugged" / "Wire broken"), and sentences alone
 * read them as one cause.
 */
export function shortLineItems(cell: GridSegment[], right: number): string[][] {
  const sorted = [...cell].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const lines: { y: number; x0: number; x1: number; parts: string[] }[] = [];
  for (const s of sorted) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last.y - s.y) <= Math.max(1, s.size * 0.35)) {
      last.parts.push(s.text);
      last.x0 = Math.min(last.x0, s.x0);
      last.x1 = Math.max(last.x1, s.x1);
    } else lines.push({ y: s.y, x0: s.x0, x1: s.x1, parts: [s.text] });
  }
  const texts = lines.map((l) => l.parts.join(' ').replace(/\s+/g, ' ').trim());
  // A cell that ends any line with a stop marks its items with stops, and breaks its lines by hand
  // anywhere ("Readings of high-pressure" / "Pd sensor and …"): its line breaks say nothing.
  if (texts.some((t) => /[.!?]$/.test(t))) return [texts.filter(Boolean)].filter((g) => g.length > 0);
  const groups: string[][] = [];
  let above: { text: string; x0: number; x1: number } | undefined;
  for (const [k, l] of lines.entries()) {
    const text = texts[k]!;
    if (!text) continue;
    const current = groups[groups.length - 1];
    if (current && above && !typedBreak(above, text, right)) current.push(text);
    else groups.push([text]);
    above = { text, x0: l.x0, x1: l.x1 };
  }
  return groups;
}

/** Whether `next` begins an item after the line `above`: see shortLineItems. */
function typedBreak(above: { text: string; x0: number; x1: number }, next: string, right: number): boolean {
  if (!/^\p{Lu}/u.test(next) || /[.,;:!?\-–—/(&+]$/u.test(above.text)) return false;
  // A bracket left open goes on on the next line.
  if ((above.text.match(/\(/g) ?? []).length > (above.text.match(/\)/g) ?? []).length) return false;
  const perChar = (above.x1 - above.x0) / Math.max(1, above.text.length);
  const word = next.split(/\s+/)[0] ?? '';
  return above.x1 + perChar * (word.length + 1) < right;
}

/** Words a parenthetical needs to be a note (a sentence of its own) rather than part of a name. */
const NOTE_WORDS = 5;

/**
 * A description cell whose name is followed, from a line of its own to the cell's end, by a note in
 * brackets that opens as a sentence ("Sensor failure" then "(When the parameter … is set, it will …)"):
 * the name is the lines before the note. A bracket that goes on on the name's line, opens in lower case
 * ("(detected at indoor end)") or holds a few words ("(reserved)") is part of the name.
 */
export function withoutNote(lines: string[]): string[] {
  for (let i = 1; i < lines.length; i++) {
    if (!/^\(\p{Lu}/u.test(lines[i]!)) continue;
    const note = lines.slice(i).join(' ');
    if (!note.endsWith(')') || note.slice(1, -1).includes(')')) return lines;
    if (note.split(/\s+/).length < NOTE_WORDS) return lines;
    return /\p{L}{2}/u.test(lines.slice(0, i).join(' ')) ? lines.slice(0, i) : lines;
  }
  return lines;
}

/** Abbreviations that end with a dot inside a sentence. */
const ABBREVIATION =
  /\b(?:temp|max|min|approx|ca|bzw|z\.b|no|nr|fig|abb|resp|e\.g|i\.e|etc|vs|sek|sec|ggf|evtl|usw)\.$/i;

/** A list item's marker: "1.", "2)", "a)", a bullet or a dash, or a circled number. */
const MARKER = /^(?:(\d{1,2})[.)](?=\s|\p{L}|$)|[a-h][.)]\s|[•·▪●◦■□➢►‣⁃*–-]\s?|([\u2460-\u2473]))\s*/u;

/**
 * Splits a cell into items: at list markers where the cell has them, otherwise into sentences. Markers
 * are dropped, the wording is kept as printed (values and units included).
 */
export function cellItems(cellLines: string[]): string[] {
  const lines = splitRunOnItems(cellLines);
  const marked = lines.filter((l) => MARKER.test(l)).length;
  const items: string[][] = [];
  if (marked > 0) {
    for (const line of lines) {
      if (MARKER.test(line) || items.length === 0) items.push([line.replace(MARKER, '').trim()]);
      else items[items.length - 1]!.push(line);
    }
  } else {
    // Without markers, each sentence is an item.
    return sentences(joinLines(lines)).filter((t) => t.length > 1 && !/^[-–—/]+$/.test(t));
  }
  return items.map((item) => joinLines(item)).filter((t) => t.length > 1 && !/^[-–—/]+$/.test(t));
}

/** Splits text into sentences: at ".", "!" or "?" before a capital, abbreviations aside. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/(?<=[.!?])\s+(?=\p{Lu})/u)) {
    const last = out[out.length - 1];
    if (last !== undefined && ABBREVIATION.test(last)) out[out.length - 1] = `${last} ${piece}`;
    else out.push(piece);
  }
  return out.map((s) => s.trim()).filter(Boolean);
}

/**
 * "1. Check the charge. 2. Replace the switch." on one line: numbered items that run on within a line
 * are put on lines of their own, in their sequence (the next number only, so values like "2.5" stay).
 */
function splitRunOnItems(lines: string[]): string[] {
  const out: string[] = [];
  let expected: number | undefined;
  for (const line of lines) {
    const lead = /^(\d{1,2})[.)]\s/.exec(line);
    if (lead) expected = Number(lead[1]) + 1;
    let rest = line;
    while (expected !== undefined) {
      const at = rest.search(new RegExp(`(?<=[.;:!?)]\\s)${expected}[.)]\\s`));
      if (at <= 0) break;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at);
      expected++;
    }
    out.push(rest);
  }
  return out;
}

/**
 * Warnings and power-isolation instructions in the corpus languages (data/layout/reader-words.yaml, safety):
 * a step that holds one carries it as its safety note.
 */
const SAFETY = new RegExp(
  String.raw`\b(?:${anyOf(readerWords.safety.labels)})\b|${anyOf(readerWords.safety.phrases)}`,
  'i',
);

export function safetyNote(text: string): string | null {
  if (!SAFETY.test(text)) return null;
  return sentences(text).find((s) => SAFETY.test(s)) ?? text;
}

export function toSteps(items: string[]): StepRecord[] {
  return items.map((text, i) => ({ order: i + 1, text, safety: safetyNote(text) }));
}

/**
 * A cell that opens with a title on lines of its own and goes on with running text ("Inverter board
 * overcurrent" then "Compressor winding fault or ..."): the title ends at a line that breaks early, where
 * the next line's first word would have fitted before the cell's right edge. Greedy wrapping never
 * breaks there, so such a break is the writer's. Returns the title lines and the rest, or undefined
 * when the cell has no such break within its first two lines.
 */
export function leadLines(
  cell: GridSegment[],
  right: number,
): { title: string[]; rest: string[] } | undefined {
  const sorted = [...cell].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const lines: { y: number; x1: number; size: number; parts: GridSegment[] }[] = [];
  for (const s of sorted) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last.y - s.y) <= Math.max(1, s.size * 0.35)) {
      last.parts.push(s);
      last.x1 = Math.max(last.x1, s.x1);
    } else lines.push({ y: s.y, x1: s.x1, size: s.size, parts: [s] });
  }
  if (lines.length < 2) return undefined;
  const text = (l: (typeof lines)[number]) =>
    l.parts
      .map((p) => p.text)
      .join(' ')
      .trim();
  for (let i = 0; i < Math.min(2, lines.length - 1); i++) {
    const next = lines[i + 1]!.parts[0]!;
    const perChar = (next.x1 - next.x0) / Math.max(1, next.text.length);
    const word = next.text.split(/\s+/)[0] ?? '';
    const fits = lines[i]!.x1 + perChar * (word.length + 1) < right - perChar;
    if (!fits) continue;
    // A title is short; a break after a sentence's end is a paragraph's, not a title's.
    if (/[.;:,]$/.test(text(lines[i]!))) return undefined;
    return { title: lines.slice(0, i + 1).map(text), rest: lines.slice(i + 1).map(text) };
  }
  return undefined;
}
