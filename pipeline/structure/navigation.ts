/**
 * Navigation pages: tables of contents, indexes, lists of figures or tables. They name what the manual
 * holds and where (`Solution .......... 12`), so a code or a question's words stand on them without
 * their meaning: such a page is never an answer's page and ranks below the pages it points to.
 *
 * Told by the shape of its lines, in any language: entries that end in a page number after a leader
 * (dots, dashes, ellipses), or entries whose last cell is a page number with the numbers rising down the
 * page as a contents list does (a table's numbered column, such as a blink count 1, 2, 3…, rises by one
 * at a time and is told apart), or index entries followed by lists of page numbers.
 */
import type { Line, PageLayout } from '../layout/types.js';

/** A leader then a page number at the end of a line: `Title ....... 12`, `Title – – – – 12`, `Title … 12`. */
const LEADER_ENTRY = /(?:(?:\.\s?){4,}|(?:[-–_·]\s?){4,}|…{2,}|…\s?\.{2,})\s*\d{1,4}\s*$/u;
/** A page number alone in a cell. */
const PAGE_NUMBER = /^\d{1,4}$/;
/** An index entry: words, then page numbers separated by commas (`Pump, 12, 34-35`). */
const INDEX_ENTRY =
  /^\p{L}[^\d]{2,},\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*,\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)*$/u;

/** Shares of a page's entry-like lines that make it a navigation page. */
const MIN_LEADER_ENTRIES = 3;
const LEADER_SHARE = 0.25;
const MIN_NUMBERED_ENTRIES = 8;
const NUMBERED_SHARE = 0.5;
const INDEX_SHARE = 0.4;

/** Whether a line of text is an entry of a contents list: words, a leader, a page number. */
export function isNavigationLine(text: string): boolean {
  return /\p{L}{2,}/u.test(text) && LEADER_ENTRY.test(text);
}

function hasWords(line: Line): boolean {
  return /\p{L}{2,}/u.test(line.text);
}

/** The page number a line ends with in a cell of its own, after a cell of words; null otherwise. */
function trailingPageNumber(line: Line): number | null {
  const cells = line.segments;
  if (cells.length < 2) return null;
  const last = cells[cells.length - 1]!.text.trim();
  if (!PAGE_NUMBER.test(last)) return null;
  if (!cells.slice(0, -1).some((c) => /\p{L}{2,}/u.test(c.text))) return null;
  return Number(last);
}

/**
 * Whether numbers read down a page are page references of a contents list: mostly rising, within the
 * manual's pages, and not a count rising one by one (a numbered column of a table).
 */
function readsAsPageReferences(numbers: number[], pageCount: number): boolean {
  if (numbers.length < 2) return false;
  let rising = 0;
  let byOne = 0;
  for (let i = 1; i < numbers.length; i++) {
    const step = numbers[i]! - numbers[i - 1]!;
    if (step >= 0) rising++;
    if (step === 1) byOne++;
  }
  const steps = numbers.length - 1;
  return (
    rising / steps >= 0.85 &&
    byOne / steps < 0.5 &&
    Math.max(...numbers) <= pageCount + 20 &&
    numbers.at(-1)! > 1
  );
}

/** Whether one page is a navigation page (see the module comment). */
export function isNavigationPage(page: PageLayout, pageCount: number): boolean {
  const lines = page.lines.filter(hasWords);
  if (lines.length < MIN_LEADER_ENTRIES) return false;
  const leaders = lines.filter((l) => LEADER_ENTRY.test(l.text)).length;
  if (leaders >= MIN_LEADER_ENTRIES && leaders / lines.length >= LEADER_SHARE) return true;
  const numbers = lines.map(trailingPageNumber).filter((n): n is number => n !== null);
  if (
    numbers.length >= MIN_NUMBERED_ENTRIES &&
    numbers.length / lines.length >= NUMBERED_SHARE &&
    readsAsPageReferences(numbers, pageCount)
  ) {
    return true;
  }
  const index = lines.filter((l) => INDEX_ENTRY.test(l.text.trim())).length;
  return index >= MIN_NUMBERED_ENTRIES && index / lines.length >= INDEX_SHARE;
}

/** The navigation pages of a manual, by 1-based page index. */
export function navigationPages(pages: PageLayout[]): Set<number> {
  const out = new Set<number>();
  for (const p of pages) if (isNavigationPage(p, pages.length)) out.add(p.page);
  return out;
}
