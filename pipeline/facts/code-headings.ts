import { codeKey } from '../../src/text/normalise.js';
import type { PageLayout } from '../layout/types.js';
import type { ChunkRecord, ErrorCodeRecord } from '../types.js';
import { cellItems, toSteps } from './cell-text.js';
import { codeFamily } from './code-pattern.js';
import { mentionsFaults } from './header-words.js';
import { partOf } from './parts.js';
import { anyOf, readerWords } from './reader-words.js';

/**
 * A section title that opens with a code: "Error E1: indoor sensor fault", "A5-00 – High pressure",
 * "4.2 P 12 (low pressure)". An optional section number and a label in the corpus languages
 * (data/layout/reader-words.yaml, code_titles) may come first.
 */
const TITLE = new RegExp(
  String.raw`^(?:\d+(?:\.\d+)*\.?\s+)?((?:${anyOf(readerWords.code_titles.labels)})[\s-]*(?:${anyOf(readerWords.code_titles.number_words)})?\s*[:#]?\s*)?[[(]?([A-Z](?:[A-Z]{0,2}|[a-z])[ .-]?\d{1,4}(?:-\d{1,3})?)[\])]?(?:\s*[:–—-]\s*|\s+)(.+)$`,
  'iu',
);
/** Table-of-contents lines: dot leaders or a trailing page number. */
const CONTENTS = /(?:\.{4,}|…{2,}|\s\d{1,3}$)/;
/** A manual documents its codes this way only if it does so for several codes. */
const MIN_CODES = 3;
/** A code's section rarely runs over more pages than this. */
const MAX_PAGES = 4;

interface Found {
  code: string;
  title: string;
  page: number;
  line: number;
}

/**
 * Reads codes that a manual documents one section per code, the code opening the section's title, for the
 * codes its tables do not already define. The section's numbered lines are the steps; the title page is
 * cited, with the section's pages.
 */
export function codesFromHeadings(
  pages: PageLayout[],
  chunks: ChunkRecord[],
  known: Set<string>,
): ErrorCodeRecord[] {
  const titles = new Map<number, Set<string>>();
  for (const c of chunks) {
    const title = c.sectionPath.at(-1);
    if (title) titles.set(c.pageStart, (titles.get(c.pageStart) ?? new Set()).add(title));
  }
  const found: Found[] = [];
  const allHeadings: { page: number; line: number }[] = [];
  for (const page of pages) {
    const onPage = titles.get(page.page);
    if (!onPage) continue;
    page.lines.forEach((line, index) => {
      const text = line.text.trim();
      if (!onPage.has(text)) return;
      allHeadings.push({ page: page.page, line: index });
      if (CONTENTS.test(text)) return;
      const m = TITLE.exec(text);
      if (!m || codeFamily(m[2]!) !== 'alnum') return;
      const title = cleanTitle(m[3]!);
      if (!/\p{L}{3}/u.test(title)) return;
      // Switches, sensors and terminals get sections too: a code's title is labelled as one or names a fault.
      if (!m[1] && !mentionsFaults(title)) return;
      found.push({ code: m[2]!, title, page: page.page, line: index });
    });
  }
  const fresh = found.filter((f) => !known.has(codeKey(f.code)));
  if (new Set(found.map((f) => codeKey(f.code))).size < MIN_CODES) return [];
  const out: ErrorCodeRecord[] = [];
  const seen = new Set<string>();
  for (const f of fresh) {
    const key = codeKey(f.code);
    if (seen.has(key)) continue;
    seen.add(key);
    const page = pages.find((p) => p.page === f.page)!;
    const next = allHeadings.find((h) => h.page > f.page || (h.page === f.page && h.line > f.line));
    const body = sectionLines(pages, f, next);
    const steps = toSteps(numbered(body.lines));
    const heading = page.lines[f.line]!.text;
    const chunk = chunks.find(
      (c) => c.pageStart <= f.page && c.pageEnd >= f.page && c.text.includes(heading),
    );
    out.push({
      code: f.code,
      title: f.title,
      causes: [],
      steps,
      part: partOf(f.title),
      excerpt: heading,
      page: f.page,
      pages: body.pages,
      chunkId: chunk?.id ?? null,
      procedure: null,
    });
  }
  return out;
}

/** "(EEPROM parameter error) error diagnosis and solution" -> "EEPROM parameter error". */
function cleanTitle(rest: string): string {
  const paren = /^\(([^)]{3,})\)/.exec(rest.trim());
  return (paren ? paren[1]! : rest).trim().replace(/[.:;]+$/, '');
}

function sectionLines(
  pages: PageLayout[],
  from: Found,
  next: { page: number; line: number } | undefined,
): { lines: string[]; pages: number[] } {
  const lines: string[] = [];
  const covered: number[] = [];
  for (const page of pages) {
    if (page.page < from.page || page.page >= from.page + MAX_PAGES) continue;
    if (next && page.page > next.page) break;
    const start = page.page === from.page ? from.line + 1 : 0;
    const end = next && page.page === next.page ? next.line : page.lines.length;
    if (end <= start && page.page !== from.page) break;
    covered.push(page.page);
    for (let i = start; i < end; i++) lines.push(page.lines[i]!.text);
  }
  return { lines, pages: covered };
}

/** The numbered (or bulleted) items of a section, with their continuation lines. */
function numbered(lines: string[]): string[] {
  const first = lines.findIndex((l) => /^(?:\d{1,2}[.)]|step\s+\d|schritt\s+\d|[•▪●])\s*/i.test(l));
  if (first < 0) return [];
  return cellItems(lines.slice(first));
}
