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

/**
 * Finds section headings from the signals real manuals give: a font larger than the body text, a section
 * number, and the PDF outline where one exists. A numbered line in body size counts only when it is
 * short and not a sentence (tables and step lists are numbered too).
 */
export function findHeadings(pages: PageLayout[], outline: OutlineEntry[]): Heading[] {
  const body = bodySize(pages);
  const outlineTitles = new Map<string, OutlineEntry>();
  for (const entry of outline) outlineTitles.set(key(entry.title), entry);
  const headings: Heading[] = [];
  for (const page of pages) {
    page.lines.forEach((line, lineIndex) => {
      const level = headingLevel(line, body, outlineTitles);
      if (level !== undefined) headings.push({ page: page.page, lineIndex, title: line.text.trim(), level });
    });
  }
  return headings;
}

function headingLevel(line: Line, body: number, outline: Map<string, OutlineEntry>): number | undefined {
  const text = line.text.trim();
  if (text.length < 3 || text.length > 100 || !/\p{L}{2}/u.test(text)) return undefined;
  if (line.segments.length > 2) return undefined; // a table row, not a title
  const fromOutline = outline.get(key(text));
  if (fromOutline) return fromOutline.depth + 1;
  const numbered = NUMBERED.exec(text);
  const larger = line.size >= body * 1.15;
  const sentence = /[.;:,]$/.test(text) || text.split(/\s+/).length > 12;
  if (numbered && !sentence && line.size >= body * 0.98) {
    const depth = numbered[1]!.split(/[.-]/).length;
    return Math.min(depth, 4);
  }
  if (larger && !sentence) return line.size >= body * 1.6 ? 1 : 2;
  return undefined;
}

/** The size most of the body text is set in, weighted by characters. */
export function bodySize(pages: PageLayout[]): number {
  const weights = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) weights.set(line.size, (weights.get(line.size) ?? 0) + line.text.length);
  }
  let best = 10;
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
