import type { Line, PageLayout } from '../layout/types.js';
import type { ChunkRecord, ErrorCodeRecord } from '../types.js';
import { isDistinctiveCode, looksLikeCode } from './code-pattern.js';

interface Row {
  page: number;
  code: string;
  lines: Line[];
}

/**
 * Reads error-code tables: rows whose first cell is a code, with the cells to their right as description,
 * causes and checks, and the following lines without a code as continuations of the row. A page counts as
 * a code table page when it holds several such rows, which keeps numbered lists and part numbers out.
 */
export function extractErrorCodes(pages: PageLayout[], chunks: ChunkRecord[]): ErrorCodeRecord[] {
  const rows: Row[] = [];
  for (const page of pages) {
    const starts = page.lines
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => line.segments.length >= 2 && looksLikeCode(line.segments[0]!.text));
    if (starts.length < 3) continue;
    const codeX = median(starts.map((s) => s.line.segments[0]!.x0));
    const inColumn = starts.filter((s) => Math.abs(s.line.segments[0]!.x0 - codeX) < 12);
    if (inColumn.length < 3) continue;
    inColumn.forEach((start, k) => {
      const end = inColumn[k + 1]?.i ?? page.lines.length;
      const lines = page.lines.slice(start.i, Math.min(end, start.i + 8));
      rows.push({ page: page.page, code: start.line.segments[0]!.text.trim(), lines });
    });
  }
  const seen = new Set<string>();
  const out: ErrorCodeRecord[] = [];
  for (const row of rows) {
    const key = row.code.toUpperCase().replace(/[\s-]/g, '');
    if (seen.has(key)) continue;
    seen.add(key);
    const first = row.lines[0]!;
    const cells = first.segments.slice(1).map((s) => s.text);
    const title = cells[0] ?? '';
    if (!/\p{L}{2}/u.test(title)) continue;
    const rest = row.lines.slice(1).map((l) => l.text);
    const causes = cells.slice(1, 2).concat(rest.filter(Boolean)).filter((t) => t.length > 2);
    const remedy = cells.slice(2).filter((t) => t.length > 2);
    out.push({
      code: row.code,
      title,
      causes,
      steps: remedy.map((text, i) => ({ order: i + 1, text, safety: null })),
      part: null,
      excerpt: row.lines.map((l) => l.text).join('\n'),
      page: row.page,
      pages: [row.page],
      chunkId: chunkFor(chunks, row.page, first.text),
      procedure: findProcedure(chunks, row.code, row.page),
    });
  }
  return out;
}

function chunkFor(chunks: ChunkRecord[], page: number, text: string): string | null {
  return chunks.find((c) => c.pageStart <= page && c.pageEnd >= page && c.text.includes(text))?.id ?? null;
}

/** A later chunk whose section title names the code is the code's detailed procedure. */
function findProcedure(chunks: ChunkRecord[], code: string, tablePage: number): ErrorCodeRecord['procedure'] {
  if (!isDistinctiveCode(code)) return null;
  const pattern = new RegExp(`(^|[^A-Za-z0-9])${code.replace(/[-\s]/g, '[-\\s]?')}([^A-Za-z0-9]|$)`);
  const match = chunks.find(
    (c) => c.pageStart !== tablePage && c.sectionPath.length > 0 && pattern.test(c.sectionPath.at(-1)!),
  );
  if (!match) return null;
  const sameSection = chunks.filter((c) => c.sectionPath.at(-1) === match.sectionPath.at(-1));
  return {
    chunkId: match.id,
    pageStart: match.pageStart,
    pageEnd: Math.max(...sameSection.map((c) => c.pageEnd)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
