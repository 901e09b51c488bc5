import { type CodeFamily, codeFamily, splitLeadingCode } from './code-pattern.js';
import type { GridLine, GridSegment } from './page-grid.js';

export interface Candidate {
  seg: GridSegment;
  family: CodeFamily;
}

/** Code cells of one column start within this distance (points) of each other, or share a centre. */
const ALIGN = 6;

/**
 * The code cells of a page. Besides cells that are a code on their own, two layouts hide codes inside
 * text: a list whose lines open with the code ("E01: Sensor fault", "P 12 – Low pressure"), where at
 * least three aligned lines do so, and a code broken over two lines of a narrow cell ("A5-" / "00").
 * List lines are split into a code cell and a description cell, so that they read like a table.
 */
export function pageCandidates(grid: GridLine[]): { grid: GridLine[]; candidates: Candidate[] } {
  const lines = splitListLines(grid);
  const candidates: Candidate[] = [];
  lines.forEach((line, li) => {
    for (const seg of line.segments) {
      const family = codeFamily(seg.text);
      if (family) {
        candidates.push({ seg, family });
        continue;
      }
      if (seg.text.length > 6) continue;
      const below = lines[li + 1]?.segments.find((s) => Math.abs(s.x0 - seg.x0) <= 3);
      if (!below || below.y - seg.y > seg.size * 1.6) continue;
      if (codeFamily(joinBroken(seg.text, below.text)) === 'alnum') candidates.push({ seg, family: 'alnum' });
    }
  });
  return { grid: lines, candidates };
}

/** A code broken at a line end, read as one token: "A5-" + "00" -> "A5-00", "Er" + "07" -> "Er 07". */
export function joinBroken(first: string, second: string): string {
  return /-$/.test(first) ? `${first}${second}` : `${first} ${second}`;
}

export function clusterByX(candidates: Candidate[]): Candidate[][] {
  const clusters: { x0: number; cx: number; members: Candidate[] }[] = [];
  for (const c of candidates) {
    const cx = (c.seg.x0 + c.seg.x1) / 2;
    const hit = clusters.find((k) => Math.abs(k.x0 - c.seg.x0) <= ALIGN || Math.abs(k.cx - cx) <= ALIGN / 2);
    if (hit) hit.members.push(c);
    else clusters.push({ x0: c.seg.x0, cx, members: [c] });
  }
  return clusters.map((k) => k.members.sort((a, b) => a.seg.y - b.seg.y));
}

function splitListLines(grid: GridLine[]): GridLine[] {
  const leads: { seg: GridSegment; code: string; rest: string }[] = [];
  for (const line of grid) {
    for (const seg of line.segments) {
      if (codeFamily(seg.text)) continue;
      const lead = splitLeadingCode(seg.text);
      if (lead) leads.push({ seg, code: lead.code, rest: lead.rest });
    }
  }
  if (leads.length < 3) return grid;
  const clusters = clusterByX(leads.map((l) => ({ seg: l.seg, family: 'alnum' as const }))).filter(
    (c) => c.length >= 3,
  );
  if (clusters.length === 0) return grid;
  const replace = new Map<GridSegment, GridSegment[]>();
  for (const cluster of clusters) {
    const all = cluster.map((c) => leads.find((l) => l.seg === c.seg)!);
    // Letter-only codes lead a list line only in a list of letter-and-digit codes of the same letter.
    const letters = new Set(all.filter((m) => codeFamily(m.code) === 'alnum').map((m) => m.code[0]));
    const members = all.filter((m) => codeFamily(m.code) === 'alnum' || letters.has(m.code[0]));
    if (members.filter((m) => codeFamily(m.code) === 'alnum').length < 3) continue;
    const charWidth = (m: (typeof members)[number]) => (m.seg.x1 - m.seg.x0) / Math.max(1, m.seg.text.length);
    const codeWidth = Math.max(...members.map((m) => charWidth(m) * m.code.length));
    const x0 = Math.min(...members.map((m) => m.seg.x0));
    const restX0 = x0 + codeWidth + Math.max(...members.map((m) => m.seg.size)) * 0.8;
    for (const m of members) {
      replace.set(m.seg, [
        { ...m.seg, text: m.code, x1: m.seg.x0 + charWidth(m) * m.code.length, listCode: true },
        { ...m.seg, text: m.rest, x0: restX0 },
      ]);
    }
  }
  return grid.map((line) => ({ ...line, segments: line.segments.flatMap((s) => replace.get(s) ?? [s]) }));
}
