import { codeKey } from '../../src/text/normalise.js';
import type { PageLayout } from '../layout/types.js';
import type { ChunkRecord } from '../types.js';
import { codeFamily } from './code-pattern.js';

/** A code token inside a title line: "E0 (EEPROM ...)", "9.2.8 P1(over voltage ...)". */
const TOKEN = /(?<![A-Za-z0-9])([A-Z](?:[A-Z]{0,2}|[a-z])[ -]?\d{1,4}(?:-\d{1,3})?)(?![0-9])/g;
/** A code opening a cell or a title: "[A01]", "E1: ...", "E5(Open circuit ...)", "E9 — Water flow", "9.2.1 E0 ...". */
const LEAD =
  /^[[(<]?(?:\d+(?:\.\d+)+\.?\s+)?([A-Z](?:[A-Z]{0,2}|[a-z])[ -]?\d{1,4}(?:-\d{1,3})?)([\])>]|\s*[:(]|\s+[–—-]\s|$|\s+(?=\p{L}))/u;
/** Table-of-contents lines: dot leaders or a trailing page number after a wide gap. */
const CONTENTS = /(?:\.{4,}|…{2,}|\s\d{1,3}$)/;
/** A detailed procedure rarely runs over more pages than this. */
const MAX_PAGES = 5;

/**
 * A code's procedure and where its text stands: from `startLine` on `pageStart` up to, not including,
 * `endLine` on `pageEnd` (undefined: to the end of that page).
 */
export interface ProcedureSpan {
  chunkId: string;
  pageStart: number;
  pageEnd: number;
  startLine: number;
  endLine: number | undefined;
}

interface Start {
  page: number;
  chunkId: string;
  /** Whether body text stands above the start on its page (a procedure ending there runs onto it). */
  midPage: boolean;
  line: number;
}

/**
 * Finds each code's detailed procedure: a section whose heading names the code ("9.2.1 E0 (EEPROM
 * parameter error) diagnosis"), or a page that introduces it in a code cell of its own ("[A01]", "E1:
 * sensor fault"), away from the pages where the code tables stand. The procedure runs until the next
 * code's procedure starts or its section ends.
 */
export function findProcedures(
  pages: PageLayout[],
  chunks: ChunkRecord[],
  codes: string[],
  tablePages: Set<number>,
): Map<string, ProcedureSpan> {
  const wanted = new Set(codes.map(codeKey));
  const headingTitles = new Map<number, Set<string>>();
  for (const c of chunks) {
    const title = c.sectionPath.at(-1);
    if (!title) continue;
    const set = headingTitles.get(c.pageStart) ?? new Set();
    set.add(title);
    headingTitles.set(c.pageStart, set);
  }
  const starts = new Map<string, Start & { strength: number }>();
  const allStarts: { page: number; midPage: boolean; line: number }[] = [];
  const titledStarts: { page: number; midPage: boolean; line: number }[] = [];
  for (const page of pages) {
    if (tablePages.has(page.page)) continue;
    const titles = headingTitles.get(page.page) ?? new Set<string>();
    page.lines.forEach((line, lineIndex) => {
      const text = line.text.trim();
      const midPage = lineIndex > 2;
      if (CONTENTS.test(text)) return;
      const found: { code: string; strength: number; titled?: boolean }[] = [];
      if (titles.has(text)) for (const m of text.matchAll(TOKEN)) found.push({ code: m[1]!, strength: 2 });
      line.segments.forEach((seg, i) => {
        const lead = LEAD.exec(seg.text.trim());
        if (!lead || codeFamily(lead[1]!) !== 'alnum') return;
        const marked = /[\])>:(]/.test(lead[2]!) || lead[0].startsWith('[') || lead[0].startsWith('(');
        const afterNumber = i === 1 && /^\d+(?:\.\d+)*\.?$/.test(line.segments[0]!.text.trim());
        if (marked || afterNumber) found.push({ code: lead[1]!, strength: 2 });
        else if (i === 0)
          found.push({ code: lead[1]!, strength: 1, titled: /^\s+[–—-]\s|^$/.test(lead[2]!) });
      });
      for (const { code, strength, titled } of found) {
        const key = codeKey(code);
        if (!wanted.has(key)) continue;
        // A line titled like a procedure ("E9 — Water flow error") ends the procedure above it.
        if (strength === 2) allStarts.push({ page: page.page, midPage, line: lineIndex });
        else if (titled) titledStarts.push({ page: page.page, midPage, line: lineIndex });
        // A titled line outranks a sentence that merely opens with the code ("P1 and the ...").
        const rank = strength + (titled ? 0.5 : 0);
        const held = starts.get(key);
        if (held && held.strength >= rank) continue;
        const chunk = chunks.find(
          (c) => c.pageStart <= page.page && c.pageEnd >= page.page && c.text.includes(line.text),
        );
        if (chunk)
          starts.set(key, { page: page.page, chunkId: chunk.id, midPage, line: lineIndex, strength: rank });
      }
    });
  }
  const byPosition = (a: { page: number; line: number }, b: { page: number; line: number }) =>
    a.page - b.page || a.line - b.line;
  const sortedStarts = [...allStarts].sort(byPosition);
  // Within those pages, any code's procedure start ends the one above it, however weakly it was marked.
  const boundaries = [...allStarts, ...titledStarts, ...starts.values()].sort(byPosition);
  const out = new Map<string, ProcedureSpan>();
  for (const [key, start] of starts) {
    const after = (s: { page: number; line: number }) =>
      s.page > start.page || (s.page === start.page && s.line > start.line);
    const next = sortedStarts.find(after);
    let end: number;
    if (next !== undefined && next.page < start.page + MAX_PAGES) {
      // The next procedure starting below other text on its page leaves that page's top to this one.
      end = next.midPage ? next.page : Math.max(start.page, next.page - 1);
    } else {
      end = sectionEnd(chunks, start);
    }
    let endLine: number | undefined;
    const cut = boundaries.find((s) => after(s) && s.page <= end);
    if (cut) {
      end = cut.midPage || cut.page === start.page ? cut.page : cut.page - 1;
      if (end === cut.page) endLine = cut.line;
    }
    out.set(key, {
      chunkId: start.chunkId,
      pageStart: start.page,
      pageEnd: end,
      startLine: start.line,
      endLine,
    });
  }
  return out;
}

/** The last page, within MAX_PAGES, that the start chunk's section carries on to. */
function sectionEnd(chunks: ChunkRecord[], start: Start): number {
  const chunk = chunks.find((c) => c.id === start.chunkId);
  if (!chunk) return start.page;
  const path = JSON.stringify(chunk.sectionPath);
  let end = start.page;
  for (let p = start.page + 1; p < start.page + MAX_PAGES; p++) {
    const first = chunks.find((c) => c.pageStart === p);
    if (!first || JSON.stringify(first.sectionPath) !== path) break;
    end = p;
  }
  return end;
}
