import type { PageLayout, Rule } from '../layout/types.js';
import { type Candidate, clusterByX, pageCandidates } from './code-cells.js';
import type { CodeFamily } from './code-pattern.js';
import { mentionsFaults } from './header-words.js';
import { type GridLine, type GridSegment, pageGrid } from './page-grid.js';
import { dominantFamily, extraCodeColumns, sideBySide } from './table-code-columns.js';
import { columnOf } from './table-columns.js';
import { assignRoles, isHeaderLike, nameColumns, namesAnotherKindOfTable } from './table-headers.js';
import { layOut } from './table-layout.js';
import { type CodeTable, compatible, type Layout, type Limit, type TableColumn } from './table-model.js';
import { buildRows, isCounting, onlyLabels } from './table-rows.js';

export type { CodeTable, TableColumn, TableRow } from './table-model.js';

/**
 * Finds error-code tables in a document: a column of code cells (consistent in shape, aligned) with a
 * description column beside it. Rows are bounded by the table's ruling lines where it has them, and by
 * the code cells' baselines where it has not; columns by vertical rules or by aligned cell edges. A table
 * that runs on over the next page is followed there even when only one of its rows is left.
 */
export function findCodeTables(pages: PageLayout[]): CodeTable[] {
  const tables: CodeTable[] = [];
  let open: CodeTable | undefined;
  for (const page of pages) {
    const grid = pageGrid(page);
    const onPage = tablesOnPage(page, grid, open);
    let last: CodeTable | undefined;
    onPage.forEach((table, i) => {
      if (
        i === 0 &&
        open &&
        (open.family === 'number') === (table.family === 'number') &&
        compatible(open.columns, table.columns) &&
        table.rows[0]!.anchorY < page.height * 0.6
      ) {
        const lastRow = open.rows[open.rows.length - 1];
        if (table.carried && lastRow && !lastRow.continued)
          lastRow.continued = { page: page.page, cells: table.carried };
        open.rows.push(...table.rows);
        if (!open.pages.includes(page.page)) open.pages.push(page.page);
        last = open;
      } else {
        tables.push(table);
        last = table;
      }
    });
    open = last;
  }
  return tables;
}

/**
 * Pages worth reading ruling lines for: those where the text alone already shows a code table (rules then
 * bound its rows and columns exactly).
 */
export function codeTablePages(pages: PageLayout[]): Set<number> {
  return new Set(findCodeTables(pages).flatMap((t) => t.rows.map((r) => r.page)));
}

function tablesOnPage(page: PageLayout, rawGrid: GridLine[], open: CodeTable | undefined): CodeTable[] {
  const { grid, candidates } = pageCandidates(rawGrid);
  // Letter-and-digit codes first: a column of plain numbers or words beside them is something else.
  const rank = (cluster: Candidate[]) => {
    const family = dominantFamily(cluster)?.family;
    return family === 'alnum' ? 0 : family === 'word' ? 1 : 2;
  };
  const clusters = clusterByX(candidates).sort((a, b) => rank(a) - rank(b) || b.length - a.length);
  const used = new Set<GridSegment>();
  const regions: { x0: number; x1: number; top: number; bottom: number }[] = [];
  const out: CodeTable[] = [];
  for (const cluster of clusters) {
    let remaining = cluster.filter(
      (c) =>
        !used.has(c.seg) &&
        !regions.some(
          (r) => c.seg.x0 >= r.x0 - 2 && c.seg.x0 <= r.x1 && c.seg.y > r.top && c.seg.y < r.bottom,
        ),
    );
    while (remaining.length > 0) {
      const others = clusters.filter((k) => k !== cluster);
      const limit = beside(grid, page.rules ?? [], regions, others, remaining);
      const { table, consumed } = buildTable(page, grid, remaining, open, limit);
      for (const c of consumed) used.add(c.seg);
      remaining = remaining.filter((c) => !consumed.includes(c));
      if (!table) continue;
      regions.push({
        x0: table.x0,
        x1: table.x1,
        top: table.rows[0]!.top,
        bottom: table.rows.at(-1)!.bottom,
      });
      out.push(table);
    }
  }
  return out.sort((a, b) => a.rows[0]!.anchorY - b.rows[0]!.anchorY);
}

/**
 * The window a column of codes is laid out in, at the height of its codes: it stops at the tables already
 * read on the page beside it, and at another column of codes beside it with text between the two (two
 * lists set side by side, each code with its description: the text between is the nearer list's, never
 * a description left of this column's codes). Codes of another column with no text between them and
 * these (a remote-controller code beside an outdoor one) do not stop it, nor where a vertical rule
 * between them draws the columns (the halves of a ruled table are told apart by their widths, see
 * sideBySide).
 */
function beside(
  grid: GridLine[],
  rules: Rule[],
  regions: { x0: number; x1: number; top: number; bottom: number }[],
  others: Candidate[][],
  cells: Candidate[],
): Limit {
  const x0 = Math.min(...cells.map((c) => c.seg.x0));
  const x1 = Math.max(...cells.map((c) => c.seg.x1));
  const top = Math.min(...cells.map((c) => c.seg.y));
  const bottom = Math.max(...cells.map((c) => c.seg.y));
  const level = regions.filter((r) => r.top < bottom && r.bottom > top);
  const left = level.filter((r) => r.x1 <= x0).map((r) => r.x1);
  const right = level.filter((r) => r.x0 > x0).map((r) => r.x0);
  for (const other of others) {
    const within = other.filter((c) => c.seg.y >= top - c.seg.size && c.seg.y <= bottom + c.seg.size);
    if (within.length < 2) continue;
    const ox0 = Math.min(...within.map((c) => c.seg.x0));
    const ox1 = Math.max(...within.map((c) => c.seg.x1));
    const [from, to] = ox1 < x0 ? [ox1, x0] : x1 < ox0 ? [x1, ox0] : [undefined, undefined];
    if (from === undefined || to === undefined) continue;
    const textBetween = grid.some(
      (l) =>
        l.y >= top &&
        l.y <= bottom &&
        l.segments.some((g) => g.x0 > from + 1 && g.x1 < to - 1 && g.text.trim()),
    );
    const ruled = rules.some(
      (r) =>
        r.x0 === r.x1 &&
        r.x0 > from &&
        r.x0 < to &&
        Math.min(r.y0, r.y1) <= bottom &&
        Math.max(r.y0, r.y1) >= top,
    );
    if (!textBetween || ruled) continue;
    // One point short of the other column's codes, so that this table's region leaves them out.
    if (ox1 < x0) left.push(x0 - 1);
    else right.push(ox0 - 1);
  }
  return {
    ...(left.length ? { x0: Math.max(...left) } : {}),
    ...(right.length ? { x1: Math.min(...right) } : {}),
  };
}

function buildTable(
  page: PageLayout,
  grid: GridLine[],
  cluster: Candidate[],
  open: CodeTable | undefined,
  limit: Limit,
): { table: CodeTable | undefined; consumed: Candidate[] } {
  const dominant = dominantFamily(cluster);
  if (!dominant) return { table: undefined, consumed: cluster };
  const { family } = dominant;
  const rules = page.rules ?? [];
  const segmentsOf = (cells: Candidate[]) => cells.map((m) => m.seg);
  // One column of codes may run through several tables (one per unit type, say): read the first one.
  let members = dominant.members;
  let layout = layOut(grid, rules, segmentsOf(members), limit);
  if (!layout) return { table: undefined, consumed: members };
  const split = splitAt(grid, rules, layout);
  if (split !== undefined) {
    members = members.filter((m) => m.seg.y < split);
    layout = layOut(grid, rules, segmentsOf(members), limit);
    if (!layout) return { table: undefined, consumed: members };
  }
  const context: TableContext = { page, grid, rules, family, open, firstAnchor: members[0]!.seg, limit };
  return { table: tableFrom(context, layout, members), consumed: members };
}

/** What a table on one page is read with. */
interface TableContext {
  page: PageLayout;
  grid: GridLine[];
  rules: Rule[];
  family: CodeFamily;
  /** The table left open at the end of the page before, which this one may continue. */
  open: CodeTable | undefined;
  firstAnchor: GridSegment;
  /** The window the table is laid out in (see beside). */
  limit: Limit;
}

/** The columns of a table once its code columns are settled. */
interface SettledColumns {
  layout: Layout;
  columns: TableColumn[];
  anchorColumn: number;
  codeColumns: number[];
  members: Candidate[];
}

function tableFrom(context: TableContext, first: Layout, anchors: Candidate[]): CodeTable | undefined {
  const { page, family, open } = context;
  const settled = settleCodeColumns(context, first, anchors);
  if (!settled) return undefined;
  const { anchorColumn, codeColumns, members } = settled;
  const isContinuing = continues(context, settled.layout);
  const { layout, columns, carried } = takeCarriedCells(settled, open, isContinuing);
  const headerText = columns.map((c) => c.header).join(' | ');
  if (columns[anchorColumn]?.role === 'not-code') return undefined;
  if (namesAnotherKindOfTable(headerText)) return undefined;
  if (!isContinuing && !enoughRows(layout, columns, codeColumns, members, family)) return undefined;
  const roles = assignRoles(columns, codeColumns, layout);
  if (roles.titleColumn === undefined) return undefined;
  const rows = buildRows(page.page, layout, columns, codeColumns, family);
  if (rows.length === 0) return undefined;
  if (!isContinuing) {
    const titles = rows.map((r) => r.cells[roles.titleColumn!]!.map((s) => s.text).join(' '));
    // A column of field labels ("Code:", "Meaning:") beside the codes: cards of "label: value" lines,
    // read as such (see code-cards.ts), not a table.
    if (titles.filter(onlyLabels).length >= rows.length * 0.8) return undefined;
    if (!isAboutFaults(context.grid, layout, headerText, titles)) return undefined;
  }
  return {
    pages: [page.page],
    x0: layout.x0,
    x1: layout.x1,
    columns,
    codeColumns,
    titleColumn: roles.titleColumn,
    causeColumns: roles.causeColumns,
    stepColumns: roles.stepColumns,
    family,
    rows,
    ...(carried ? { carried } : {}),
  };
}

/**
 * A table carries on over a page with codes of its own kind: a plain number (a section number) does not
 * continue a table of letter codes, nor a letter code a table of numbers.
 */
function continues(context: TableContext, layout: Layout): boolean {
  const { page, open, family, firstAnchor } = context;
  const linesBefore = page.lines.filter((l) => l.y < firstAnchor.y - firstAnchor.size * 3).length;
  return (
    open !== undefined &&
    (open.family === 'number') === (family === 'number') &&
    compatible(open.columns, layout.columns) &&
    firstAnchor.y < page.height * 0.5 &&
    linesBefore <= 12
  );
}

function columnsNamed(context: TableContext, layout: Layout): TableColumn[] {
  return nameColumns(layout, continues(context, layout) ? context.open : undefined);
}

/**
 * The code column and any other columns of codes of the same family. Code, description, code,
 * description: two halves of one list printed side by side are each read as a table of their own.
 */
function settleCodeColumns(
  context: TableContext,
  first: Layout,
  anchors: Candidate[],
): SettledColumns | undefined {
  const { grid, rules, family, firstAnchor } = context;
  let layout = first;
  let members = anchors;
  let columns = columnsNamed(context, layout);
  let anchorColumn = columnOf(columns, firstAnchor.x0);
  let extra = extraCodeColumns(layout, columns, anchorColumn, family);
  const halves = extra
    .map(({ ci }) => sideBySide(layout, columns, anchorColumn, ci))
    .find((h): h is number => h !== undefined);
  if (halves !== undefined) {
    const split = columns[halves]!.x0;
    const { x0: from, x1: to } = context.limit;
    const limit: Limit =
      columns[anchorColumn]!.x0 < split
        ? { ...context.limit, x1: Math.min(split, to ?? split) }
        : { ...context.limit, x0: Math.max(split, from ?? split) };
    const relaid = layOut(
      grid,
      rules,
      members.map((m) => m.seg),
      limit,
    );
    if (!relaid) return undefined;
    layout = relaid;
    columns = columnsNamed(context, layout);
    anchorColumn = columnOf(columns, firstAnchor.x0);
    extra = extraCodeColumns(layout, columns, anchorColumn, family);
  }
  const codeColumns = [anchorColumn, ...extra.map((e) => e.ci)];
  if (extra.length > 0) {
    members = [...members, ...extra.flatMap((e) => e.cells)].sort((a, b) => a.seg.y - b.seg.y);
    const relaid = layOut(
      grid,
      rules,
      members.map((m) => m.seg),
      { x0: layout.x0, x1: layout.x1 },
    );
    if (relaid && relaid.columns.length === layout.columns.length) {
      layout = relaid;
      columns = columnsNamed(context, layout);
    }
  }
  return { layout, columns, anchorColumn, codeColumns, members };
}

/**
 * On a page the table carries on to, text above the first code that is no header is the end of the row
 * the page break split: it is taken out of the header and kept to finish that row.
 */
function takeCarriedCells(
  settled: SettledColumns,
  open: CodeTable | undefined,
  isContinuing: boolean,
): { layout: Layout; columns: TableColumn[]; carried: GridSegment[][] | undefined } {
  const { layout, columns } = settled;
  if (!isContinuing || layout.headerLines.length === 0) return { layout, columns, carried: undefined };
  const own = nameColumns(layout, undefined);
  // The header printed again, or a header of its own (in another wording or language: a manual's next
  // language takes up where the last left off), is no row's end.
  const repeated =
    own.some((c, i) => c.header !== '' && c.header === open?.columns[i]?.header) ||
    layout.headerLines.some(isHeaderLike);
  if (repeated) return { layout, columns, carried: undefined };
  const carried = columns.map(() => [] as GridSegment[]);
  for (const line of layout.headerLines)
    for (const segment of line.segments) carried[columnOf(columns, segment.x0)]!.push(segment);
  const bare = { ...layout, headerLines: [] };
  return { layout: bare, columns: nameColumns(bare, open), carried };
}

/**
 * A table that starts on this page needs rows enough to be one: words and numbers only under a header
 * that names the code column (and numbers that are no row counter), letter codes in three rows, or two
 * under a header.
 */
function enoughRows(
  layout: Layout,
  columns: TableColumn[],
  codeColumns: number[],
  members: Candidate[],
  family: CodeFamily,
): boolean {
  const codeHeader = codeColumns.some((ci) => columns[ci]?.role === 'code');
  const hasHeader = columns.filter((c) => c.role !== undefined).length >= 2;
  const anchorRows = layout.bands.length;
  if (family === 'word' || family === 'number') {
    if (!codeHeader || anchorRows < 2) return false;
    return !(family === 'number' && isCounting(members.map((m) => m.seg.text)));
  }
  return anchorRows >= 3 || (anchorRows >= 2 && hasHeader);
}

/**
 * The table must be about faults: its caption or header says so, or its descriptions do (part numbers,
 * terminals and parameters are described otherwise, even under a header that just says "Code").
 */
function isAboutFaults(grid: GridLine[], layout: Layout, headerText: string, titles: string[]): boolean {
  const top = Math.min(layout.bands[0]!.top, ...layout.headerLines.map((l) => l.y));
  const caption = grid
    .filter((l) => l.y < top)
    .slice(-6)
    .map((l) => l.segments.map((s) => s.text).join(' '));
  const faultTitles = titles.filter((t) => mentionsFaults(t)).length;
  const about = mentionsFaults([...caption, headerText].join('\n'));
  return about || faultTitles >= titles.length * 0.3;
}

/**
 * Where the anchors' rows stop being one table: at a repeated header line or a larger heading between two
 * rows, or at text between two rows that the table's column rules do not run through (a caption between
 * two ruled tables) or that spans the table's width (a paragraph after an unruled one). Returns the y at
 * which the next table starts.
 */
function splitAt(grid: GridLine[], rules: Rule[], layout: Layout): number | undefined {
  const inRange = (l: GridLine) => l.segments.some((s) => s.x0 >= layout.x0 - 3 && s.x0 < layout.x1);
  for (let i = 0; i + 1 < layout.bands.length; i++) {
    const band = layout.bands[i]!;
    const next = layout.bands[i + 1]!;
    const between = grid.filter((l) => l.y > band.bottom + 0.5 && l.y < next.top - 0.5 && inRange(l));
    const inside = grid.filter((l) => l.y > band.anchorY + 0.5 && l.y < band.bottom && inRange(l));
    const breaker = [...inside, ...between].find((l) => isHeaderLike(l) || l.size > layout.size * 1.25);
    if (breaker) return Math.min(breaker.y, next.top);
    if (between.length === 0) continue;
    if (layout.ruled) {
      const crossed = rules.filter(
        (r) =>
          r.x0 === r.x1 &&
          r.x0 > layout.x0 + 3 &&
          r.x0 < layout.x1 - 3 &&
          r.y0 <= band.bottom + 1 &&
          r.y1 >= next.top - 1,
      ).length;
      if (crossed === 0) return next.top;
    } else {
      const width = layout.x1 - layout.x0;
      if (
        between.some((l) => l.segments.length === 1 && l.segments[0]!.x1 - l.segments[0]!.x0 > width * 0.6)
      ) {
        return next.top;
      }
    }
  }
  return undefined;
}
