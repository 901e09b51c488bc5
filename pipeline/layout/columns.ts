import type { Line, Segment } from './types.js';

/**
 * Puts a page's lines in reading order. Where a run of lines is laid out as two text columns (a gutter
 * that no segment crosses, with prose on both sides), the left column is read before the right one.
 * Tables also have gaps at the gutter; they are told apart by their rows, which hold several short cells
 * on a side where prose holds one.
 */
export function readingOrder(lines: Line[], pageWidth: number): Line[] {
  if (lines.length < 6) return lines;
  const gutter = findGutter(lines, pageWidth);
  if (gutter === undefined) return lines;
  const out: Line[] = [];
  let region: Line[] = [];
  const flush = () => {
    if (region.length === 0) return;
    if (isTwoColumnProse(region, gutter)) {
      const left: Line[] = [];
      const right: Line[] = [];
      for (const line of region) {
        const l = line.segments.filter((s) => s.x1 <= gutter);
        const r = line.segments.filter((s) => s.x0 >= gutter);
        if (l.length) left.push(fromSegments(line, l));
        if (r.length) right.push(fromSegments(line, r));
      }
      out.push(...left, ...right);
    } else {
      out.push(...region);
    }
    region = [];
  };
  for (const line of lines) {
    if (crosses(line, gutter)) {
      flush();
      out.push(line);
    } else {
      region.push(line);
    }
  }
  flush();
  return out;
}

function crosses(line: Line, x: number): boolean {
  return line.segments.some((s) => s.x0 < x - 1 && s.x1 > x + 1);
}

function findGutter(lines: Line[], pageWidth: number): number | undefined {
  let best: { x: number; crossing: number } | undefined;
  for (let x = pageWidth * 0.35; x <= pageWidth * 0.65; x += 2) {
    const crossing = lines.filter((l) => crosses(l, x)).length;
    if (!best || crossing < best.crossing) best = { x, crossing };
  }
  if (!best) return undefined;
  const left = lines.filter((l) => l.x1 <= best.x).length;
  const right = lines.filter((l) => l.x0 >= best.x || l.segments.some((s) => s.x0 >= best.x)).length;
  if (left < 3 || right < 3) return undefined;
  return best.x;
}

function isTwoColumnProse(region: Line[], gutter: number): boolean {
  if (region.length < 4) return false;
  let proseRows = 0;
  let tableRows = 0;
  let leftChars = 0;
  let rightChars = 0;
  for (const line of region) {
    const l = line.segments.filter((s) => s.x1 <= gutter);
    const r = line.segments.filter((s) => s.x0 >= gutter);
    leftChars += l.reduce((n, s) => n + s.text.length, 0);
    rightChars += r.reduce((n, s) => n + s.text.length, 0);
    if (l.length > 1 || r.length > 1) tableRows++;
    else proseRows++;
  }
  // Prose on both sides: most rows hold at most one segment per side, and each side carries real text.
  return proseRows >= tableRows * 3 && leftChars > 80 && rightChars > 80;
}

function fromSegments(line: Line, segments: Segment[]): Line {
  return {
    ...line,
    segments,
    text: segments.map((s) => s.text).join(' '),
    x0: segments[0]!.x0,
    x1: segments[segments.length - 1]!.x1,
  };
}
