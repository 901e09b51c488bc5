import type { Line } from './types.js';

export interface PageLines {
  width: number;
  height: number;
  lines: Line[];
}

/** Fraction of the page height, at the top and at the bottom, where running headers and footers live. */
const BAND = 0.1;
const FOLIO =
  /^(?:page|seite|pagina|página|pag\.?|p\.|blatt)?\s*[-–—]?\s*\d{1,4}\s*(?:(?:\/|of|sur|von|de|van)\s*\d{1,4})?\s*[-–—]?$/i;

/**
 * Finds running headers and footers: lines in the top or bottom band whose text, with digits masked,
 * repeats at about the same height on several pages, plus lone page folios. Returns, per page, the
 * indexes of the lines that are margins.
 */
export function findMargins(pages: PageLines[]): Set<number>[] {
  const counts = new Map<string, number>();
  const keys = pages.map((p) =>
    p.lines.map((line) => {
      const band = bandOf(line, p.height);
      if (!band) return undefined;
      const key = `${band}|${Math.round(line.y / (p.height * 0.02))}|${mask(line.text)}`;
      return key;
    }),
  );
  for (const pageKeys of keys) {
    for (const key of new Set(pageKeys.filter((k): k is string => k !== undefined))) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const minRepeats = pages.length >= 4 ? Math.max(3, Math.ceil(pages.length * 0.2)) : 2;
  return pages.map((p, pi) => {
    const out = new Set<number>();
    p.lines.forEach((line, li) => {
      const key = keys[pi]![li];
      if (key === undefined) return;
      if ((counts.get(key) ?? 0) >= minRepeats && pages.length > 1) out.add(li);
      else if (FOLIO.test(line.text.trim())) out.add(li);
    });
    return out;
  });
}

function bandOf(line: Line, height: number): 'top' | 'bottom' | undefined {
  if (line.y <= height * BAND + line.size) return 'top';
  if (line.y >= height * (1 - BAND)) return 'bottom';
  return undefined;
}

/** Masks what changes from page to page (numbers) so that "Page 3 / 12" and "Page 4 / 12" agree. */
function mask(text: string): string {
  return text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
}
