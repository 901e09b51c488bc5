import type { GridLine, GridSegment } from './page-grid.js';

/** Small geometry and number helpers the table reader's modules share. */

/** The lines strictly between two heights, keeping only the segments `keep` accepts. */
export function clip(
  grid: GridLine[],
  top: number,
  bottom: number,
  keep: (s: GridSegment) => boolean,
): GridLine[] {
  const out: GridLine[] = [];
  for (const line of grid) {
    if (line.y <= top || line.y >= bottom) continue;
    const segments = line.segments.filter(keep);
    if (segments.length) out.push({ ...line, segments });
  }
  return out;
}

/** The last value of an ascending list that stands above y (smaller, by more than half a point). */
export function lastBelow(sorted: number[], y: number): number | undefined {
  let out: number | undefined;
  for (const v of sorted) if (v < y - 0.5) out = v;
  return out;
}

/** The first value of an ascending list that stands below y (larger, by more than half a point). */
export function firstAbove(sorted: number[], y: number): number | undefined {
  return sorted.find((v) => v > y + 0.5);
}

/** An ascending list with each run of values that `same` joins kept as its first value. */
export function dedupeBy(sorted: number[], same: (a: number, b: number) => boolean): number[] {
  const out: number[] = [];
  for (const v of sorted) if (out.length === 0 || !same(out[out.length - 1]!, v)) out.push(v);
  return out;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The integers strictly between a and b. */
export function between(a: number, b: number): number[] {
  const out: number[] = [];
  for (let k = Math.min(a, b) + 1; k < Math.max(a, b); k++) out.push(k);
  return out;
}

/** Lower case without accents, for matching header words. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}
