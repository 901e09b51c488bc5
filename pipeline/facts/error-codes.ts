import { cellsStand, cellsText, type ExcerptCell, hyphenatedWords } from '../../src/text/excerpt-cells.js';
import { codeKey, containsVerbatim, fold } from '../../src/text/normalise.js';
import { contentWords, figures, sameReading } from '../../src/text/readings.js';
import { pageLanguages } from '../detect/language.js';
import { type PageLayout, pageText } from '../layout/types.js';
import type { ChunkRecord, ErrorCodeRecord } from '../types.js';
import {
  cellItems,
  cellLines,
  joinLines,
  leadLines,
  shortLineItems,
  toSteps,
  withoutNote,
} from './cell-text.js';
import { codesFromCards } from './code-cards.js';
import { codesFromHeadings } from './code-headings.js';
import { codeFamily, isEmptyMark } from './code-pattern.js';
import { type CodeTable, findCodeTables, type TableRow } from './code-tables.js';
import type { GridSegment } from './page-grid.js';
import { partOf } from './parts.js';
import { onlyPointers, procedureLines, readProcedure } from './procedure-content.js';
import { findProcedures } from './procedures.js';
import { runOnCodes } from './run-on-codes.js';

export { codeTablePages } from './code-tables.js';

/** An excerpt longer than this many lines is cut down to the code and its description. */
const MAX_EXCERPT_LINES = 16;

/**
 * Extracts every error code a manual documents, in its code tables or as section titles: the code as
 * printed, its description, causes and remedy steps, the part it names, a verbatim excerpt of the row from
 * the page where the row stands, and the code's detailed procedure elsewhere in the manual when there is
 * one. A code that two tables define is taken from the richer one (causes and checks beside the
 * description).
 */
export function extractErrorCodes(pages: PageLayout[], chunks: ChunkRecord[]): ErrorCodeRecord[] {
  const tables = findCodeTables(pages);
  const byPage = new Map(pages.map((p) => [p.page, p]));
  const texts = new Map<number, string>();
  const textOf = (n: number) => {
    const p = byPage.get(n);
    if (!p) return undefined;
    let text = texts.get(n);
    if (text === undefined) {
      text = pageText(p);
      texts.set(n, text);
    }
    return text;
  };
  // Hyphenated words the manual prints unbroken keep their hyphen where a cell wraps at it.
  const vocabulary = new Set<string>();
  for (const p of pages) for (const w of hyphenatedWords(textOf(p.page) ?? '')) vocabulary.add(w);
  const hyphenated = (word: string) => vocabulary.has(word);
  // A code two tables define is kept from the richer one; tables alike (one per unit type, say) both stand.
  const best = new Map<string, number>();
  for (const table of tables) {
    for (const row of table.rows) {
      for (const code of row.codes) {
        const key = codeKey(code);
        best.set(key, Math.max(best.get(key) ?? 0, weight(table)));
      }
    }
  }
  // Pages in another language print a translation, which the answer keeps apart (one per language).
  const languages = pageLanguages(pages.map((p) => textOf(p.page) ?? ''));
  const languageOf = (n: number) => languages[pages.findIndex((p) => p.page === n)] ?? 'mul';
  // The languages of the pages where a table row defines each code: a code printed after another on
  // one line is an entry of its own unless a table defines it on pages of the same language.
  const definedIn = new Map<string, Set<string>>();
  for (const table of tables)
    for (const row of table.rows)
      for (const code of row.codes) {
        const key = codeKey(code);
        definedIn.set(key, (definedIn.get(key) ?? new Set()).add(languageOf(row.page)));
      }
  // The manual's main list first: where a code stands in several tables, its first row is the one cited.
  const ordered = [...tables].sort((a, b) => weight(b) - weight(a) || b.rows.length - a.rows.length);
  const perTable = ordered.map((table) => {
    const fromTable: ErrorCodeRecord[] = [];
    for (const row of table.rows) {
      const page = byPage.get(row.page);
      if (!page) continue;
      for (const code of row.codes) {
        if (best.get(codeKey(code)) !== weight(table)) continue;
        const record = toRecord(table, row, code, page, chunks, textOf, hyphenated);
        if (!record) continue;
        fromTable.push(record);
        // Further codes printed on the row's line ("L0: ...; L1: ...") are entries of their own.
        const { own, others } = runOnCodes(record.title, code);
        if (others.length === 0) continue;
        record.title = own;
        for (const other of others) {
          const key = codeKey(other.code);
          if (codesOf(table).has(key) || definedIn.get(key)?.has(languageOf(row.page))) continue;
          fromTable.push({
            ...record,
            code: other.code,
            title: other.text,
            causes: [],
            steps: [],
            part: partOf(other.text),
          });
        }
      }
    }
    return fromTable;
  });
  const records: ErrorCodeRecord[] = [];
  const tableOf = new Map<ErrorCodeRecord, CodeTable>();
  perTable.forEach((fromTable, i) => {
    for (const record of fromTable) tableOf.set(record, ordered[i]!);
    const reprinted = perTable.slice(0, i).filter((earlier) => reprintOf(earlier, fromTable));
    const kept: ErrorCodeRecord[] = [];
    for (const record of fromTable) {
      // The same definition printed again (a summary, an annex) adds nothing.
      const key = codeKey(record.code);
      const same = (r: ErrorCodeRecord) => codeKey(r.code) === key && bare(r.title) === bare(record.title);
      if (records.some(same) || kept.some(same)) continue;
      // A reprint of the whole list in other words: the first printing stands.
      const reworded = (r: ErrorCodeRecord) =>
        codeKey(r.code) === key && figures(r.title) === figures(record.title);
      if (reprinted.some((earlier) => earlier.some(reworded))) continue;
      kept.push(record);
    }
    followReferences(kept);
    records.push(...kept);
  });
  foldDetailSections(records, tableOf, languageOf);
  records.push(...codesFromCards(pages, chunks, new Set(records.map((r) => codeKey(r.code)))));
  records.push(...codesFromHeadings(pages, chunks, new Set(records.map((r) => codeKey(r.code)))));
  const tablePages = new Set(tables.flatMap((t) => t.rows.map((r) => r.page)));
  const procedures = findProcedures(
    pages,
    chunks,
    records.map((r) => r.code),
    tablePages,
  );
  for (const r of records) {
    const span = procedures.get(codeKey(r.code));
    if (!span || span.pageStart === r.page) continue;
    r.procedure = { chunkId: span.chunkId, pageStart: span.pageStart, pageEnd: span.pageEnd };
    const content = readProcedure(procedureLines(byPage, span));
    // A row that only points to the procedure gets the procedure's own steps.
    if (content.steps.length > 0 && onlyPointers(r.steps)) r.steps = content.steps;
    if (content.part) r.part = content.part;
  }
  return records;
}

/**
 * A smaller table whose codes the manual's list prints too (a troubleshooting section that details some
 * of them) reads those codes again, often in other words. Where both readings name one fault (oneFault),
 * they are not two meanings: the list's entry stays the answer, and the section lends it the causes and
 * steps the list lacks and becomes its procedure. Readings of other faults, or on pages of another
 * language (a translation), stand apart.
 */
function foldDetailSections(
  records: ErrorCodeRecord[],
  tableOf: Map<ErrorCodeRecord, CodeTable>,
  languageOf: (page: number) => string,
): void {
  for (const detail of [...records]) {
    const table = tableOf.get(detail);
    if (!table) continue;
    const key = codeKey(detail.code);
    const listed = records.find((r) => {
      const list = tableOf.get(r);
      return (
        r !== detail &&
        list !== undefined &&
        list !== table &&
        codeKey(r.code) === key &&
        codesOf(list).size > codesOf(table).size &&
        [...codesOf(table)].every((c) => codesOf(list).has(c))
      );
    });
    if (!listed || !oneFault(listed.title, detail.title)) continue;
    if (languageOf(listed.page) !== languageOf(detail.page)) continue;
    if (listed.causes.length === 0) listed.causes = detail.causes;
    if (listed.steps.length === 0) listed.steps = detail.steps;
    listed.part ??= detail.part;
    if (!listed.procedure && detail.chunkId && detail.page !== listed.page)
      listed.procedure = {
        chunkId: detail.chunkId,
        pageStart: detail.page,
        pageEnd: detail.pages.at(-1) ?? detail.page,
      };
    records.splice(records.indexOf(detail), 1);
  }
}

/**
 * Two readings of one fault: they share half the words of the shorter, and two words at least where it
 * has two or more (a word like "fault" alone joins nothing), and state no other figures.
 */
function oneFault(a: string, b: string): boolean {
  const [x, y] = [contentWords(a), contentWords(b)];
  const shared = [...x].filter((w) => y.has(w)).length;
  const shorter = Math.min(x.size, y.size);
  if (shorter === 0 || shared < Math.max(Math.min(2, shorter), Math.ceil(shorter / 2))) return false;
  const [fa, fb] = [figures(a), figures(b)];
  return fa === fb || fa === '' || fb === '';
}

const tableCodes = new WeakMap<CodeTable, Set<string>>();

function codesOf(table: CodeTable): Set<string> {
  let set = tableCodes.get(table);
  if (!set) {
    set = new Set(table.rows.flatMap((r) => r.codes.map(codeKey)));
    tableCodes.set(table, set);
  }
  return set;
}

function bare(title: string): string {
  return fold(title).replace(/[^a-z0-9]+/g, '');
}

/**
 * Whether a later table is a reprint of an earlier one (the same list in a summary and in the
 * troubleshooting chapter, say): they share at least three codes and seven in ten of those read the
 * same (see sameReading). Tables that print shared codes with other meanings (one per unit type) are
 * not reprints.
 */
function reprintOf(earlier: ErrorCodeRecord[], later: ErrorCodeRecord[]): boolean {
  const byCode = new Map<string, string[]>();
  for (const r of earlier) byCode.set(codeKey(r.code), [...(byCode.get(codeKey(r.code)) ?? []), r.title]);
  const shared = new Map<string, boolean>();
  for (const r of later) {
    const titles = byCode.get(codeKey(r.code));
    if (!titles) continue;
    const agrees = titles.some((t) => sameReading(t, r.title));
    shared.set(codeKey(r.code), (shared.get(codeKey(r.code)) ?? false) || agrees);
  }
  if (shared.size < 3) return false;
  return [...shared.values()].filter(Boolean).length >= shared.size * 0.7;
}

/** How much a table says about each code: its description plus the kinds of cause and check columns. */
function weight(table: CodeTable): number {
  return 1 + Math.min(1, table.causeColumns.length) + Math.min(1, table.stepColumns.length);
}

/** "Same as E05", "siehe E05", "zelfde als E05": a cell that refers to another row of the table. */
const SAME_AS =
  /^(?:same as|as for|see|refer to|siehe|wie bei|wie|voir|idem|comme|cf\.?|igual que|ver|véase|zie|zelfde als|come per|vedi)\s+(?:code\s+)?([A-Z][A-Za-z]?[A-Z]?[ -]?\d{1,4})\.?$/i;

/**
 * Rows that refer to another row for their causes or steps get that row's causes and steps after the
 * reference, so that a technician reading one code has the full list.
 */
function followReferences(records: ErrorCodeRecord[]): void {
  const byCode = new Map(records.map((r) => [codeKey(r.code), r]));
  for (const record of records) {
    const causes: string[] = [];
    for (const cause of record.causes) {
      causes.push(cause);
      const target = byCode.get(codeKey(SAME_AS.exec(cause)?.[1] ?? ''));
      if (target && target !== record) causes.push(...target.causes.filter((c) => !SAME_AS.test(c)));
    }
    record.causes = causes;
    const steps: string[] = [];
    for (const step of record.steps) {
      steps.push(step.text);
      const target = byCode.get(codeKey(SAME_AS.exec(step.text)?.[1] ?? ''));
      if (target && target !== record)
        steps.push(...target.steps.map((t) => t.text).filter((t) => !SAME_AS.test(t)));
    }
    if (steps.length !== record.steps.length) record.steps = toSteps(steps);
  }
}

function toRecord(
  table: CodeTable,
  row: TableRow,
  code: string,
  page: PageLayout,
  chunks: ChunkRecord[],
  pageAt: (page: number) => string | undefined,
  hyphenated: (word: string) => boolean,
): ErrorCodeRecord | undefined {
  // A row split by a page break reads on into its continuation at the top of the next page.
  const lines = (ci: number) => [
    ...cellLines(row.cells[ci] ?? []),
    ...cellLines(row.continued?.cells[ci] ?? []),
  ];
  const items = (ci: number) => cellItems(lines(ci));
  // A name printed under the code, in the code cell, is the title without the code.
  const titleText = (ci: number) =>
    table.codeColumns.includes(ci)
      ? joinLines(
          lines(ci).filter((l) => codeFamily(l) === undefined && !isEmptyMark(l)),
          hyphenated,
        )
      : joinLines(withoutNote(lines(ci)), hyphenated);
  let title =
    table.titleColumn !== undefined ? ownReading(titleText(table.titleColumn), code, codesOf(table)) : '';
  const causes = table.causeColumns.flatMap((ci) => {
    // Unpunctuated sub-rows of a cause cell are causes each; a row continued over a page break reads on.
    const right = columnRight(table, ci);
    const head = shortLineItems(row.cells[ci] ?? [], right);
    const tail = shortLineItems(row.continued?.cells[ci] ?? [], right);
    if (head.length > 0 && tail.length > 0) head[head.length - 1]!.push(...tail.shift()!);
    return [...head, ...tail].flatMap((group) => cellItems(group));
  });
  // Without a header, a description cell may open with its title on a line of its own and explain on.
  const lead =
    table.titleColumn !== undefined && !table.columns[table.titleColumn]!.header && !row.continued
      ? leadLines(row.cells[table.titleColumn] ?? [], columnRight(table, table.titleColumn))
      : undefined;
  if (lead) {
    title = ownReading(joinLines(lead.title, hyphenated), code, codesOf(table));
    if (table.causeColumns.length === 0) causes.push(...cellItems(lead.rest));
  }
  const steps = toSteps(table.stepColumns.flatMap(items));
  if (!/\p{L}{2}/u.test(title) || isEmptyMark(title)) {
    // An empty description ("—"): the row's first cause stands for it.
    title = causes[0] ?? '';
  }
  if (!/\p{L}{2}/u.test(title)) return undefined;
  const text = pageText(page);
  const continuedText = row.continued ? pageAt(row.continued.page) : undefined;
  const excerptCells = rowCells(table, lines, hyphenated, [text, ...(continuedText ? [continuedText] : [])]);
  const excerpt = excerptCells ? cellsText(excerptCells) : (excerptOf(table, row, page, text) ?? code);
  const anchor = anchorLine(table, row, code, page);
  return {
    code,
    title,
    causes,
    steps,
    part: partOf(title) ?? (causes[0] ? partOf(causes[0]) : null),
    excerpt,
    excerptCells,
    page: row.page,
    pages: row.continued ? [row.page, row.continued.page] : [row.page],
    chunkId: chunkFor(chunks, page.page, anchor),
    procedure: null,
  };
}

/**
 * One code's part of a description that names codes of its table: "Communication trouble (E04)
 * Dropping out of indoor unit (E06)" describes two codes, each followed by its code in brackets. The
 * part that ends with this code is its reading; without such a part, text that names another code is
 * left out. Brackets holding anything else (a sensor's label) are text.
 */
export function ownReading(title: string, code: string, tableCodes: ReadonlySet<string>): string {
  const refs = [...title.matchAll(/\(\s*([^()]{1,12}?)\s*\)/g)].filter((m) => tableCodes.has(codeKey(m[1]!)));
  if (refs.length === 0) return title;
  const own = codeKey(code);
  const parts: { code: string; text: string }[] = [];
  let from = 0;
  for (const m of refs) {
    parts.push({ code: codeKey(m[1]!), text: title.slice(from, m.index).trim() });
    from = m.index + m[0].length;
  }
  const rest = title.slice(from).trim();
  const mine = parts.find((p) => p.code === own && /\p{L}{2}/u.test(p.text));
  if (mine) return mine.text;
  if (parts.some((p) => p.code === own)) return title;
  return /\p{L}{2}/u.test(rest) ? rest : title;
}

/**
 * The row as a reader sees it: its cells in column order, each labelled with its column's header where
 * the table has one, empty cells and marks ("—") left out. Every line of every cell must stand verbatim
 * on the row's pages; otherwise (a cell the page text holds in another order) there are no cells and the
 * excerpt falls back to the row's lines as they stand on the page.
 */
function rowCells(
  table: CodeTable,
  lines: (ci: number) => string[],
  hyphenated: (word: string) => boolean,
  pageTexts: string[],
): ExcerptCell[] | null {
  const cells: ExcerptCell[] = [];
  table.columns.forEach((column, ci) => {
    const cellLines = lines(ci).filter((l) => !isEmptyMark(l));
    if (cellLines.length === 0) return;
    cells.push({
      label: columnLabel(column.header),
      lines: cellLines,
      text: joinLines(cellLines, hyphenated),
    });
  });
  if (cells.length < 2) return null;
  const excerpt = cellsText(cells);
  return cellsStand(excerpt, cells, pageTexts) ? cells : null;
}

/** A header names a column in a few words; a longer text above the table is no label. */
function columnLabel(header: string): string | null {
  const text = header
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[:：]$/, '');
  const words = text.split(' ');
  if (!text || words.length > 8) return null;
  // A header cell over two columns repeated above each ("Check code Check code") names them once.
  const half = words.length / 2;
  if (Number.isInteger(half) && words.slice(0, half).join(' ') === words.slice(half).join(' '))
    return words.slice(0, half).join(' ');
  return text;
}

/**
 * The row's lines as they stand in the page text: the reading-order lines from the row's first to its last.
 * A very tall row is cut down to the lines from its code to its description (or the description alone),
 * and lines of other text the layout interleaves with the row are never taken in. The result is always
 * verbatim on the page.
 */
function excerptOf(table: CodeTable, row: TableRow, page: PageLayout, text: string): string | undefined {
  const lineSet = (cols: number[]) => new Set(cols.flatMap((ci) => (row.cells[ci] ?? []).map((s) => s.line)));
  const all = new Set(row.cells.flat().map((s) => s.line));
  const title = table.titleColumn !== undefined ? lineSet([table.titleColumn]) : new Set<number>();
  const code = lineSet(table.codeColumns);
  const core = new Set([...code, ...title]);
  const attempts: [Set<number>, number][] = [
    [all, MAX_EXCERPT_LINES],
    [core, MAX_EXCERPT_LINES * 1.5],
    [title, MAX_EXCERPT_LINES],
    [code, 1],
  ];
  for (const [set, limit] of attempts) {
    if (set.size === 0) continue;
    const min = Math.min(...set);
    const max = Math.max(...set);
    if (max - min + 1 > limit) continue;
    let foreign = 0;
    for (let i = min; i <= max; i++) if (!all.has(i)) foreign++;
    if (foreign > 2) continue;
    const excerpt = page.lines
      .slice(min, max + 1)
      .map((l) => l.text)
      .join('\n');
    if (containsVerbatim(text, excerpt)) return excerpt;
  }
  for (const index of core) {
    const line = page.lines[index]?.text;
    if (line && containsVerbatim(text, line)) return line;
  }
  return undefined;
}

/** The right edge of a column's text over the whole table: where its lines could reach. */
function columnRight(table: CodeTable, ci: number): number {
  let right = table.columns[ci]!.x0;
  for (const row of table.rows) for (const s of row.cells[ci] ?? []) right = Math.max(right, s.x1);
  return right;
}

function anchorLine(table: CodeTable, row: TableRow, code: string, page: PageLayout): string {
  const cells: GridSegment[] = table.codeColumns.flatMap((ci) => row.cells[ci] ?? []);
  const hit = cells.find((s) => s.text.includes(code)) ?? cells[0];
  return hit ? (page.lines[hit.line]?.text ?? code) : code;
}

function chunkFor(chunks: ChunkRecord[], page: number, line: string): string | null {
  return chunks.find((c) => c.pageStart <= page && c.pageEnd >= page && c.text.includes(line))?.id ?? null;
}
