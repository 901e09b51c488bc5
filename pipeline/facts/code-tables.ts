import type { PageLayout, Rule } from '../layout/types.js';
import { type Candidate, clusterByX, joinBroken, pageCandidates } from './code-cells.js';
import { type CodeFamily, codeFamily, isEmptyMark } from './code-pattern.js';
import { type ColumnRole, headerRole, mentionsFaults } from './header-words.js';
import { type GridLine, type GridSegment, pageGrid } from './page-grid.js';
import { type ColumnBounds, columnOf, tableColumns } from './table-columns.js';

export interface TableColumn extends ColumnBounds {
  header: string;
  role: ColumnRole | undefined;
}

export interface TableRow {
  page: number;
  /** The codes the row defines, as printed (a row may carry a code in more than one code column). */
  codes: string[];
  /** Baseline of the row's first code: where the definition stands. */
  anchorY: number;
  top: number;
  bottom: number;
  /** Segments per column index, top to bottom. */
  cells: GridSegment[][];
  /** The row's text continued at the top of the following page, when a page break splits it. */
  continued: { page: number; cells: GridSegment[][] } | null;
}

export interface CodeTable {
  /** Pages the table covers, in order. */
  pages: number[];
  /** Horizontal extent on its first page. */
  x0: number;
  x1: number;
  columns: TableColumn[];
  codeColumns: number[];
  titleColumn: number | undefined;
  causeColumns: number[];
  stepColumns: number[];
  family: CodeFamily;
  rows: TableRow[];
  /** Cells at the top of this page that finish the last row of the table carried over from the page before. */
  carried?: GridSegment[][];
}

/** A parameter, register or model table holds codes of another kind: these headers rule a table out. */
const NOT_A_FAULT_TABLE =
  /\b(?:setting value|settings? range|default|factory setting|werkseinstellung|einstellbereich|valeur par defaut|reglage usine|valor por defecto|ajuste de fabrica|fabrieksinstelling|register|modbus address|read\/write|r\/w)\b/;

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
    onPage.forEach((t, i) => {
      if (
        i === 0 &&
        open &&
        (open.family === 'number') === (t.family === 'number') &&
        compatible(open.columns, t.columns) &&
        t.rows[0]!.anchorY < page.height * 0.6
      ) {
        const lastRow = open.rows[open.rows.length - 1];
        if (t.carried && lastRow && !lastRow.continued)
          lastRow.continued = { page: page.page, cells: t.carried };
        open.rows.push(...t.rows);
        if (!open.pages.includes(page.page)) open.pages.push(page.page);
        last = open;
      } else {
        tables.push(t);
        last = t;
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
    const f = dominantFamily(cluster)?.family;
    return f === 'alnum' ? 0 : f === 'word' ? 1 : 2;
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
      const { table, consumed } = buildTable(page, grid, remaining, open);
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

/** The family a column's cells share, and the cells that belong to it. */
function dominantFamily(cells: Candidate[]): { family: CodeFamily; members: Candidate[] } | undefined {
  const count = (f: CodeFamily) => cells.filter((c) => c.family === f).length;
  const alnum = count('alnum');
  // Letter-only codes ("HP", "UA") go with letter-and-digit codes where those lead, else with words.
  const word = count('word') + count('letters') + count('display');
  const number = count('number');
  if (alnum >= 2 && alnum >= word - count('letters') && alnum >= number) {
    // Letter-only cells count between the first and the last letter-and-digit code only.
    const ys = cells.filter((c) => c.family === 'alnum').map((c) => c.seg.y);
    const inside = (c: Candidate) => c.seg.y >= Math.min(...ys) && c.seg.y <= Math.max(...ys);
    // A display's letter codes in mixed case (E9, EA, Eb, Ec: a seven-segment display shows b, c, d
    // small) go with the column's letter-and-digit codes when they share its leading letter.
    const leads = new Set(cells.filter((c) => c.family === 'alnum').map((c) => c.seg.text.trim()[0]));
    const members = cells.filter(
      (c) =>
        c.family === 'alnum' ||
        (c.family === 'letters' && (inside(c) || c.seg.listCode === true)) ||
        (c.family === 'display' && (inside(c) || c.seg.listCode === true) && leads.has(c.seg.text.trim()[0])),
    );
    return { family: 'alnum', members };
  }
  if (word >= 2 && word + alnum >= number) {
    return { family: 'word', members: cells.filter((c) => c.family !== 'number') };
  }
  if (number >= 2) return { family: 'number', members: cells.filter((c) => c.family === 'number') };
  if (alnum === 1) return { family: 'alnum', members: cells.filter((c) => c.family === 'alnum') };
  if (word === 1)
    return { family: 'word', members: cells.filter((c) => c.family !== 'alnum' && c.family !== 'number') };
  if (number === 1) return { family: 'number', members: cells.filter((c) => c.family === 'number') };
  return undefined;
}

interface Layout {
  x0: number;
  x1: number;
  /** Row bounds per anchor. */
  bands: { top: number; bottom: number; anchorY: number }[];
  headerLines: GridLine[];
  bodyLines: GridLine[];
  columns: ColumnBounds[];
  /** Whether vertical rules bound the columns. */
  ruled: boolean;
  /** Font size of the code cells. */
  size: number;
}

function buildTable(
  page: PageLayout,
  grid: GridLine[],
  cluster: Candidate[],
  open: CodeTable | undefined,
): { table: CodeTable | undefined; consumed: Candidate[] } {
  const dominant = dominantFamily(cluster);
  if (!dominant) return { table: undefined, consumed: cluster };
  const { family } = dominant;
  const rules = page.rules ?? [];
  // One column of codes may run through several tables (one per unit type, say): read the first one.
  let members = dominant.members;
  let layout = layOut(
    grid,
    rules,
    members.map((m) => m.seg),
  );
  if (!layout) return { table: undefined, consumed: members };
  const split = splitAt(grid, rules, layout);
  if (split !== undefined) {
    members = members.filter((m) => m.seg.y < split);
    layout = layOut(
      grid,
      rules,
      members.map((m) => m.seg),
    );
    if (!layout) return { table: undefined, consumed: members };
  }
  const consumed = members;
  const table = tableFrom(page, grid, rules, layout, members, family, open);
  return { table, consumed };
}

function tableFrom(
  page: PageLayout,
  grid: GridLine[],
  rules: Rule[],
  first: Layout,
  anchors: Candidate[],
  family: CodeFamily,
  open: CodeTable | undefined,
): CodeTable | undefined {
  let layout = first;
  let members = anchors;
  const firstAnchor = members[0]!.seg;
  const linesBefore = page.lines.filter((l) => l.y < firstAnchor.y - firstAnchor.size * 3).length;
  // A table carries on over a page with codes of its own kind: a plain number (a section number) does
  // not continue a table of letter codes, nor a letter code a table of numbers.
  const continuing = (l: Layout) =>
    open !== undefined &&
    (open.family === 'number') === (family === 'number') &&
    compatible(open.columns, l.columns) &&
    firstAnchor.y < page.height * 0.5 &&
    linesBefore <= 12;
  let columns = nameColumns(layout, continuing(layout) ? open : undefined);
  let anchorCol = columnOf(columns, firstAnchor.x0);
  let extra = extraCodeColumns(layout, columns, anchorCol, family);
  // Code, description, code, description: two halves of one list printed side by side. Each half is
  // read as a table of its own.
  const halves = extra
    .map(({ ci }) => sideBySide(layout, columns, anchorCol, ci))
    .find((h): h is number => h !== undefined);
  if (halves !== undefined) {
    const split = columns[halves]!.x0;
    const limit: Limit = columns[anchorCol]!.x0 < split ? { x1: split } : { x0: split };
    const relaid = layOut(
      grid,
      rules,
      members.map((m) => m.seg),
      limit,
    );
    if (!relaid) return undefined;
    layout = relaid;
    columns = nameColumns(layout, continuing(layout) ? open : undefined);
    anchorCol = columnOf(columns, firstAnchor.x0);
    extra = extraCodeColumns(layout, columns, anchorCol, family);
  }
  const codeColumns = [anchorCol, ...extra.map((e) => e.ci)];
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
      columns = nameColumns(layout, continuing(layout) ? open : undefined);
    }
  }
  const isContinuing = continuing(layout);
  // On a page the table carries on to, text above the first code that is no header is the end of the row
  // the page break split.
  let carried: GridSegment[][] | undefined;
  const own = isContinuing ? nameColumns(layout, undefined) : [];
  const repeated = own.some((c, i) => c.header !== '' && c.header === open?.columns[i]?.header);
  if (isContinuing && layout.headerLines.length > 0 && !repeated) {
    carried = columns.map(() => [] as GridSegment[]);
    for (const line of layout.headerLines)
      for (const s of line.segments) carried[columnOf(columns, s.x0)]!.push(s);
    layout = { ...layout, headerLines: [] };
    columns = nameColumns(layout, open);
  }
  const anchorRole = columns[anchorCol]?.role;
  const headerText = columns.map((c) => c.header).join(' | ');
  if (anchorRole === 'not-code') return undefined;
  if (NOT_A_FAULT_TABLE.test(foldText(headerText))) return undefined;
  const codeHeader = codeColumns.some((ci) => columns[ci]?.role === 'code');
  const hasHeader = columns.filter((c) => c.role !== undefined).length >= 2;
  const anchorRows = layout.bands.length;
  if (!isContinuing) {
    if (family === 'word' || family === 'number') {
      if (!codeHeader || anchorRows < 2) return undefined;
      if (family === 'number' && isCounting(members.map((m) => m.seg.text))) return undefined;
    } else if (anchorRows < 3 && !(anchorRows >= 2 && hasHeader)) {
      return undefined;
    }
  }
  const roles = assignRoles(columns, codeColumns, layout);
  if (roles.titleColumn === undefined) return undefined;
  const rows = buildRows(page.page, layout, columns, codeColumns, family);
  if (rows.length === 0) return undefined;
  if (!isContinuing) {
    // The table must be about faults: its caption or header says so, or its descriptions do (part numbers,
    // terminals and parameters are described otherwise, even under a header that just says "Code").
    const top = Math.min(layout.bands[0]!.top, ...layout.headerLines.map((l) => l.y));
    const caption = grid
      .filter((l) => l.y < top)
      .slice(-6)
      .map((l) => l.segments.map((s) => s.text).join(' '));
    const titles = rows.map((r) => r.cells[roles.titleColumn!]!.map((s) => s.text).join(' '));
    // A column of field labels ("Code:", "Meaning:") beside the codes: cards of "label: value" lines,
    // read as such (see code-cards.ts), not a table.
    if (titles.filter(onlyLabels).length >= rows.length * 0.8) return undefined;
    const faultTitles = titles.filter((t) => mentionsFaults(t)).length;
    const about = mentionsFaults([...caption, headerText].join('\n'));
    if (!about && faultTitles < rows.length * 0.3) return undefined;
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

/** Other columns of code cells in the same family (a remote-controller code beside an outdoor display code). */
function extraCodeColumns(
  layout: Layout,
  columns: TableColumn[],
  anchorCol: number,
  family: CodeFamily,
): { ci: number; cells: Candidate[] }[] {
  const out: { ci: number; cells: Candidate[] }[] = [];
  columns.forEach((col, ci) => {
    if (ci === anchorCol || col.role === 'not-code') return;
    const cells = layout.bodyLines.flatMap((l) => l.segments.filter((s) => columnOf(columns, s.x0) === ci));
    if (cells.length === 0) return;
    const coded = cells
      .map((s) => ({ seg: s, family: codeFamily(s.text) }))
      .filter((c): c is Candidate => c.family === family || (family === 'alnum' && c.family === 'letters'));
    const marks = cells.filter((s) => isEmptyMark(s.text)).length;
    if (coded.length >= 2 && coded.length + marks >= cells.length * 0.8) out.push({ ci, cells: coded });
  });
  return out;
}

/**
 * Where two code columns with text between them are the two halves of one list printed side by side: the
 * halves hold as many columns, of about the same widths. Returns the index of the right half's first
 * column.
 */
function sideBySide(layout: Layout, columns: TableColumn[], a: number, b: number): number | undefined {
  const [c1, c2] = [Math.min(a, b), Math.max(a, b)];
  if (!between(c1, c2).some((k) => isTextColumn(layout, columns, k))) return undefined;
  const descFirst = c1 > 0 && isTextColumn(layout, columns, c1 - 1);
  const split = descFirst ? c1 + 1 : c2;
  const left = columns.slice(0, split);
  const right = columns.slice(split);
  if (left.length !== right.length) return undefined;
  const width = (c: ColumnBounds) => c.x1 - c.x0;
  // The table's outer edges come from rules or text that may reach past a half (a rule of the page, an
  // inset): the halves' outermost columns are compared loosely.
  const alike = left.every((c, i) => {
    const outer = i === 0 || i === right.length - 1;
    const slack = outer ? 0.45 : 0.25;
    return Math.abs(width(c) - width(right[i]!)) <= Math.max(width(c), width(right[i]!)) * slack;
  });
  return alike ? split : undefined;
}

function between(a: number, b: number): number[] {
  const out: number[] = [];
  for (let k = Math.min(a, b) + 1; k < Math.max(a, b); k++) out.push(k);
  return out;
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

/** A line of short cells naming a code column and at least one other column: a (repeated) table header. */
function isHeaderLike(line: GridLine): boolean {
  if (line.segments.length < 2) return false;
  if (line.segments.some((s) => s.text.split(/\s+/).length > 4 || /[.:;]$|^[•·▪-]/.test(s.text.trim())))
    return false;
  // Header cells start with a capital; cells that start small go on from the line above (a wrapped row).
  if (line.segments.some((s) => /^\p{Ll}/u.test(s.text.trim()))) return false;
  const roles = line.segments.map((s) => headerRole(s.text)).filter((r) => r && r !== 'not-code');
  return roles.includes('code') && new Set(roles).size >= 2;
}

/** Two tables with the same column widths: one table carried over a page (margins may differ). */
function compatible(a: TableColumn[] | ColumnBounds[], b: ColumnBounds[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((c, i) => Math.abs(c.x1 - c.x0 - (b[i]!.x1 - b[i]!.x0)) <= 8 || i === a.length - 1);
}

interface Limit {
  x0?: number;
  x1?: number;
}

function layOut(
  grid: GridLine[],
  rules: Rule[],
  anchors: GridSegment[],
  limit: Limit = {},
): Layout | undefined {
  const sorted = [...anchors].sort((a, b) => a.y - b.y);
  const anchorYs = dedupeBy(
    sorted.map((a) => a.y),
    (a, b) => b - a <= Math.max(2, sorted[0]!.size * 0.5),
  );
  const size = median(sorted.map((a) => a.size));
  const colX0 = Math.min(...sorted.map((a) => a.x0));
  const colX1 = Math.max(...sorted.map((a) => a.x1));
  const colCenter = (colX0 + colX1) / 2;
  const crossing = rules.filter((r) => r.y0 === r.y1 && r.x0 <= colCenter + 1 && r.x1 >= colCenter - 1);
  const crossingYs = dedupeBy(
    crossing.map((r) => r.y0).sort((a, b) => a - b),
    (a, b) => b - a <= 2,
  );
  // The table's horizontal extent: from its rules, or from the text on the code rows.
  let x0: number;
  let x1: number;
  const near = crossing.filter(
    (r) => r.y0 > anchorYs[0]! - size * 40 && r.y0 < anchorYs[anchorYs.length - 1]! + size * 40,
  );
  const isWide = (r: Rule) => r.x1 - r.x0 > (colX1 - colX0) * 2.5;
  // The table's own rules run between and around its rows (a header's underline may be the only one); a
  // heading's or a footer's rule further off spans the page and counts only when the rows have none.
  const within = near.filter(
    (r) => isWide(r) && r.y0 > anchorYs[0]! - size * 4 && r.y0 < anchorYs[anchorYs.length - 1]! + size * 4,
  );
  const wide = within.length >= 1 ? within : near.filter(isWide);
  if (wide.length >= 2 || within.length === 1) {
    x0 = median(wide.map((r) => r.x0));
    x1 = median(wide.map((r) => r.x1));
  } else {
    let rowSegs = grid.filter((l) => anchorYs.some((y) => Math.abs(l.y - y) <= 2)).flatMap((l) => l.segments);
    // Codes set in the middle of their rows share no baseline with the rows' text, which starts at the
    // top: the lines next to each code show the extent then.
    if (rowSegs.every((s) => s.x1 <= colX1 + 1 && s.x0 >= colX0 - 1)) {
      rowSegs = grid
        .filter((l) => anchorYs.some((y) => Math.abs(l.y - y) <= size * 1.1))
        .flatMap((l) => l.segments);
    }
    x0 = Math.min(colX0, ...rowSegs.map((s) => s.x0));
    x1 = Math.max(colX1, ...rowSegs.map((s) => s.x1));
  }
  if (limit.x0 !== undefined) x0 = Math.max(x0, limit.x0);
  if (limit.x1 !== undefined) x1 = Math.min(x1, limit.x1);
  const inRange = (s: GridSegment) => s.x0 >= x0 - 3 && s.x0 < x1 - 1;
  // Text from the code column that reaches past the next column's start runs across the table: a
  // paragraph or a heading, never a cell.
  const nextColumn = Math.min(
    x1,
    ...grid
      .filter((l) => anchorYs.some((y) => Math.abs(l.y - y) <= 2))
      .flatMap((l) => l.segments)
      .filter((s) => s.x0 > colX1 + 1)
      .map((s) => s.x0),
  );
  const edge = Math.max(colX1 + size * 2, nextColumn + size);
  // Row bounds: the crossing rules around each code; where no rule separates two codes, the text does
  // (see unruledBounds).
  const unruled = unruledBounds(grid, anchorYs, crossingYs, size, inRange);
  const bands: Layout['bands'] = [];
  for (let i = 0; i < anchorYs.length; i++) {
    const y = anchorYs[i]!;
    const prev = anchorYs[i - 1];
    const next = anchorYs[i + 1];
    const ruleAbove = lastBelow(crossingYs, y);
    const ruleBelow = firstAbove(crossingYs, y);
    let top: number | undefined;
    if (ruleAbove !== undefined && (prev === undefined || ruleAbove > prev)) top = ruleAbove;
    else if (prev !== undefined) top = unruled.bounds.get(i - 1)!;
    let bottom: number | undefined;
    if (ruleBelow !== undefined && (next === undefined || ruleBelow < next)) bottom = ruleBelow;
    else if (next !== undefined) bottom = unruled.bounds.get(i)!;
    // An outer row without a rule: top-aligned rows start at their code, centred ones mirror their other edge.
    if (top === undefined)
      top =
        unruled.centred && bottom !== undefined ? Math.min(y - size * 1.2, 2 * y - bottom) : y - size * 1.2;
    if (i === 0) top = belowForeignLines(grid, top, y, size, { x1: colX1, edge, inRange });
    if (bottom === undefined) {
      bottom = unruled.centred ? Math.max(2 * y - top, y + size) : textEnd(grid, y, size, x0, x1);
    }
    if (i === anchorYs.length - 1)
      bottom = aboveForeignLines(grid, bottom, y, size, { x1: colX1, edge, inRange });
    bands.push({ top, bottom, anchorY: y });
  }
  // Rows without a rule between them share no band: clip each band at its neighbour's top.
  for (let i = 0; i + 1 < bands.length; i++) {
    if (bands[i]!.bottom > bands[i + 1]!.top) bands[i]!.bottom = bands[i + 1]!.top;
  }
  const bodyTop = bands[0]!.top;
  const bodyBottom = bands[bands.length - 1]!.bottom;
  const bodyLines = clip(grid, bodyTop, bodyBottom, inRange);
  const headerLines = headerOf(grid, crossingYs, bodyTop, size, inRange, colX1, edge);
  const { columns, ruled } = tableColumns(
    bodyLines,
    rules,
    { x0, x1, top: bodyTop, bottom: bodyBottom },
    bands.length,
    colX0,
    colX1,
  );
  return { x0, x1, bands, headerLines, bodyLines, columns, ruled, size };
}

/**
 * Row bounds between codes that no rule separates. Tables set their codes either on their row's first line
 * or centred in the row; the text shows which: when the widest gap between two codes' lines lies above the
 * lower code's line (with lines of the row between), the codes are centred and rows part at that gap.
 * Otherwise each row starts just above its code.
 */
function unruledBounds(
  grid: GridLine[],
  anchorYs: number[],
  ruleYs: number[],
  size: number,
  inRange: (s: GridSegment) => boolean,
): { bounds: Map<number, number>; centred: boolean } {
  const gapAt = new Map<number, number>();
  let centredVotes = 0;
  let topVotes = 0;
  const pairs: { i: number; ys: number[] }[] = [];
  for (let i = 0; i + 1 < anchorYs.length; i++) {
    const a = anchorYs[i]!;
    const b = anchorYs[i + 1]!;
    if (ruleYs.some((y) => y > a && y < b)) continue;
    const ys = [
      a,
      ...grid.filter((l) => l.y > a + 0.5 && l.y < b - 0.5 && l.segments.some(inRange)).map((l) => l.y),
      b,
    ];
    pairs.push({ i, ys });
  }
  // The table's line pitch, from every pair of codes (a pair with a single line between them says little):
  // the lower quartile of the gaps, since gaps between rows and around centred codes are wider.
  const allGaps = pairs
    .flatMap(({ ys }) => ys.slice(1).map((y, k) => y - ys[k]!))
    .filter((g) => g <= size * 2)
    .sort((p, q) => p - q);
  const tablePitch = allGaps.length >= 3 ? allGaps[Math.floor((allGaps.length - 1) / 4)] : undefined;
  // A text line less than a line above a code, within its row, is the line above the middle of a centred
  // row: top-aligned rows leave a full line and more between a row's last line and the next code.
  for (const y of anchorYs) {
    const halfAbove = grid.some(
      (l) => l.y < y - size * 0.3 && l.y > y - size * 0.9 && l.segments.some(inRange),
    );
    // Top-aligned rows cannot print a line there: this counts more than a pair of codes does.
    if (halfAbove) centredVotes += 2;
  }
  for (const { i, ys } of pairs) {
    let widest = 0;
    let at = ys.length - 2;
    for (let k = 0; k + 1 < ys.length; k++) {
      const gap = ys[k + 1]! - ys[k]!;
      if (gap >= widest) {
        widest = gap;
        at = k;
      }
    }
    const gaps = ys.slice(1).map((y, k) => y - ys[k]!);
    const pitch = tablePitch ?? [...gaps].sort((p, q) => p - q)[Math.floor((gaps.length - 1) / 2)] ?? size;
    // Two codes with no line between them say nothing about where rows part.
    if (ys.length === 2) continue;
    if (at < ys.length - 2 && widest >= pitch * 1.3) {
      centredVotes++;
      gapAt.set(i, (ys[at]! + ys[at + 1]!) / 2);
    } else {
      topVotes++;
    }
  }
  const centred = centredVotes > topVotes;
  const bounds = new Map<number, number>();
  for (let i = 0; i + 1 < anchorYs.length; i++) {
    const top = anchorYs[i + 1]! - size * 0.6;
    bounds.set(i, centred ? (gapAt.get(i) ?? top) : top);
  }
  return { bounds, centred };
}

/** The code column as the row bounds read it: its right edge, the table's far edge, what lies inside. */
interface CodeColumnReach {
  x1: number;
  edge: number;
  inRange: (s: GridSegment) => boolean;
}

/** A segment of the table that starts in the code column and runs past the table's far edge. */
function runsAcross(s: GridSegment, col: CodeColumnReach): boolean {
  return col.inRange(s) && s.x0 <= col.x1 && s.x1 > col.edge;
}

/**
 * The first row's top, moved below lines between it and the rule or bound above that are not part of the
 * row: a header line, or text running across the code column's right edge (a paragraph above the table).
 * Lines of the row above its code (a centred code) stand right of the code column.
 */
function belowForeignLines(
  grid: GridLine[],
  top: number,
  y: number,
  size: number,
  col: CodeColumnReach,
): number {
  let out = top;
  for (const line of grid) {
    if (line.y <= top || line.y >= y - size * 0.6) continue;
    if (!line.segments.some(col.inRange)) continue;
    if (line.segments.some((s) => runsAcross(s, col)) || isHeaderLike(line)) out = line.y + size * 0.4;
  }
  return out;
}

/** The last row's bottom, moved above the first line below its code that runs across the code column. */
function aboveForeignLines(
  grid: GridLine[],
  bottom: number,
  y: number,
  size: number,
  col: CodeColumnReach,
): number {
  for (const line of grid) {
    if (line.y <= y + size * 0.6 || line.y >= bottom) continue;
    if (line.segments.some((s) => runsAcross(s, col))) return line.y - size * 0.8;
  }
  return bottom;
}

/**
 * Where an unruled table ends below its last code: at a wide gap, a larger font or a line outside it. The
 * row's text keeps one type size: a line in another (a heading, a footnote) is no longer the row.
 */
function textEnd(grid: GridLine[], y: number, size: number, x0: number, x1: number): number {
  let last = y;
  let textSize: number | undefined;
  for (const line of grid) {
    if (line.y <= y + 0.5) continue;
    if (line.y - last > size * 2.4) break;
    if (line.size > size * 1.2) break;
    if (textSize !== undefined && Math.abs(line.size - textSize) > textSize * 0.08) break;
    textSize ??= line.size;
    const inside = line.segments.filter((s) => s.x0 >= x0 - 3 && s.x0 < x1);
    if (inside.length === 0) break;
    const spanning = inside.length === 1 && inside[0]!.x1 - inside[0]!.x0 > (x1 - x0) * 0.75;
    if (spanning) break;
    last = line.y;
  }
  return last + size * 0.6;
}

function headerOf(
  grid: GridLine[],
  ruleYs: number[],
  bodyTop: number,
  size: number,
  inRange: (s: GridSegment) => boolean,
  colX1: number,
  edge: number,
): GridLine[] {
  const above = ruleYs.filter((y) => y < bodyTop - 1);
  let top: number;
  if (above.length > 0) {
    const first = above[above.length - 1]!;
    const second = above[above.length - 2];
    top = first;
    if (bodyTop - first < size * 1.6 && second !== undefined) top = second;
    if (second !== undefined && first - second <= size * 3 && bodyTop - second <= size * 9) top = second;
    if (bodyTop - top > size * 9) top = bodyTop - size * 9;
  } else {
    top = bodyTop;
    const lines = grid.filter((l) => l.y < bodyTop && l.y > bodyTop - size * 8).reverse();
    for (const line of lines) {
      if (top - line.y > size * 2.2 || line.size > size * 1.2) break;
      if (line.segments.filter(inRange).length === 0) break;
      top = line.y - size;
    }
  }
  const lines = clip(grid, top, bodyTop, inRange);
  // Without a rule above the header, prose can run down to it: the header starts at its first header
  // line, and below any line running across the code column's edge (a header cell stays in its column).
  const first = lines.findIndex(isHeaderLike);
  const across = lines.findLastIndex((l) => l.segments.some((s) => s.x0 <= colX1 && s.x1 > edge));
  return lines.slice(Math.max(first, across + 1, 0));
}

function clip(grid: GridLine[], top: number, bottom: number, keep: (s: GridSegment) => boolean): GridLine[] {
  const out: GridLine[] = [];
  for (const line of grid) {
    if (line.y <= top || line.y >= bottom) continue;
    const segments = line.segments.filter(keep);
    if (segments.length) out.push({ ...line, segments });
  }
  return out;
}

function nameColumns(layout: Layout, open: CodeTable | undefined): TableColumn[] {
  const headers = layout.columns.map(() => [] as string[]);
  const width = layout.x1 - layout.x0;
  for (const line of layout.headerLines) {
    for (const s of line.segments) {
      // A caption across the table names no column.
      if (s.x1 - s.x0 > width * 0.6) continue;
      const center = (s.x0 + s.x1) / 2;
      const ci = layout.columns.findIndex((c) => center >= c.x0 - 1 && center < c.x1 + 1);
      headers[ci >= 0 ? ci : columnOf(layout.columns, s.x0)]!.push(s.text);
    }
  }
  return layout.columns.map((c, i) => {
    let header = headers[i]!.join(' ').replace(/\s+/g, ' ').trim();
    if (!header && open) {
      const same = open.columns.find((o) => Math.abs(o.x0 - c.x0) <= 8 && Math.abs(o.x1 - c.x1) <= 12);
      header = same?.header ?? '';
    }
    // Prose above a table is no header: header cells are a few words.
    const role = header.split(/\s+/).length <= 8 ? headerRole(header) : undefined;
    return { ...c, header, role };
  });
}

interface Roles {
  titleColumn: number | undefined;
  causeColumns: number[];
  stepColumns: number[];
}

/**
 * The description is the column its header calls so; without such a header, the nearest text column to
 * the right of the codes (numbers and marks do not count), else the nearest to the left. Columns headed as
 * causes or remedies give the causes and the steps; unlabelled text columns to the right of the title are
 * causes when they read as statements and steps when they read as instructions.
 */
function assignRoles(columns: TableColumn[], codeColumns: number[], layout: Layout): Roles {
  const codeSet = new Set(codeColumns);
  const textual = columns.map((_, ci) => isTextColumn(layout, columns, ci));
  const lastCode = Math.max(...codeColumns);
  const firstCode = Math.min(...codeColumns);
  const titled = columns
    .map((c, ci) => ({ c, ci }))
    .filter(({ c, ci }) => c.role === 'title' && !codeSet.has(ci) && textual[ci])
    .sort((a, b) => distance(a.ci) - distance(b.ci));
  function distance(ci: number): number {
    return ci > lastCode ? ci - lastCode : firstCode - ci + 0.5;
  }
  let titleColumn = titled[0]?.ci;
  if (titleColumn === undefined) {
    const usable = (ci: number) =>
      !codeSet.has(ci) && textual[ci] && columns[ci]!.role !== 'step' && columns[ci]!.role !== 'part';
    for (let ci = lastCode + 1; ci < columns.length && titleColumn === undefined; ci++) {
      if (codeSet.has(ci)) break;
      if (usable(ci)) titleColumn = ci;
    }
    for (let ci = firstCode - 1; ci >= 0 && titleColumn === undefined; ci--) {
      if (codeSet.has(ci)) break;
      if (usable(ci)) titleColumn = ci;
    }
  }
  const causeColumns: number[] = [];
  const stepColumns: number[] = [];
  // Where the header names the columns, an unnamed one (a status, a location) is neither cause nor step.
  const named = columns.filter((c) => c.role !== undefined).length >= 2;
  columns.forEach((c, ci) => {
    if (ci === titleColumn || codeSet.has(ci) || !textual[ci]) return;
    if (c.role === 'cause') causeColumns.push(ci);
    else if (c.role === 'step') stepColumns.push(ci);
    else if (c.role === undefined && !named && titleColumn !== undefined && ci > titleColumn) {
      const text = layout.bodyLines
        .flatMap((l) => l.segments.filter((s) => columnOf(columns, s.x0) === ci))
        .map((s) => s.text)
        .join(' ');
      if (INSTRUCTION.test(text)) stepColumns.push(ci);
      else causeColumns.push(ci);
    }
  });
  return { titleColumn, causeColumns, stepColumns };
}

/** Imperative openings of checks and remedies, in the corpus languages. */
const INSTRUCTION =
  /(?:^|[.•]\s*|\d[.)]\s*)(?:check|replace|reset|clean|verify|inspect|contact|turn|switch|repair|measure|confirm|set|prüfen|prufen|kontrollieren|tauschen|ersetzen|austauschen|reinigen|vérifier|verifier|remplacer|contrôler|controler|nettoyer|comprobar|verificar|reemplazar|revisar|cambiar|limpiar|controleer|controleren|vervang|vervangen|reinig|controllare|sostituire|verificare)\b/i;

function isTextColumn(layout: Layout, columns: TableColumn[], ci: number): boolean {
  const perRow = layout.bands.map((band) =>
    layout.bodyLines
      .filter((l) => l.y > band.top && l.y < band.bottom)
      .flatMap((l) => l.segments.filter((s) => columnOf(columns, s.x0) === ci))
      .map((s) => s.text)
      .join(' '),
  );
  const filled = perRow.filter((t) => t.trim().length > 0);
  const wordy = filled.filter((t) => /\p{L}{3}/u.test(t) && codeFamily(t) === undefined);
  return wordy.length >= Math.max(1, layout.bands.length * 0.3);
}

function buildRows(
  page: number,
  layout: Layout,
  columns: TableColumn[],
  codeColumns: number[],
  family: CodeFamily,
): TableRow[] {
  const rows: TableRow[] = [];
  for (const band of layout.bands) {
    const cells = columns.map(() => [] as GridSegment[]);
    for (const line of layout.bodyLines) {
      if (line.y <= band.top || line.y >= band.bottom) continue;
      for (const seg of line.segments)
        for (const s of splitAtColumns(seg, columns)) cells[columnOf(columns, s.x0)]!.push(s);
    }
    const codes: string[] = [];
    for (const ci of codeColumns) {
      for (const code of codesIn(cells[ci]!, family)) if (!codes.includes(code)) codes.push(code);
    }
    if (codes.length === 0) continue;
    rows.push({
      page,
      codes,
      anchorY: band.anchorY,
      top: band.top,
      bottom: band.bottom,
      cells,
      continued: null,
    });
  }
  return rows;
}

/**
 * A segment that runs on over the next column's edge holds two cells the layout joined (their gap was
 * narrower than a cell gap): it is cut at the space nearest that edge, its position estimated from the
 * segment's width per character. A run-on that ends within a word of the edge (a long word, an overhang)
 * is left whole.
 */
function splitAtColumns(seg: GridSegment, columns: TableColumn[]): GridSegment[] {
  const ci = columnOf(columns, seg.x0);
  const next = columns[ci + 1];
  if (!next || seg.x1 <= next.x0 + seg.size * 1.5 || !seg.text.includes(' ')) return [seg];
  const perChar = (seg.x1 - seg.x0) / seg.text.length;
  const edge = (next.x0 - seg.x0) / perChar;
  let cut = -1;
  for (let i = 0; i < seg.text.length; i++) {
    if (seg.text[i] !== ' ') continue;
    if (cut < 0 || Math.abs(i - edge) < Math.abs(cut - edge)) cut = i;
  }
  if (cut <= 0 || Math.abs(cut - edge) * perChar > seg.size * 1.5) return [seg];
  const left = seg.text.slice(0, cut).trimEnd();
  const right = seg.text.slice(cut).trimStart();
  if (!left || !right) return [seg];
  const x = seg.x0 + (cut + 1) * perChar;
  return [
    { ...seg, text: left, x1: x - perChar },
    ...splitAtColumns({ ...seg, text: right, x0: Math.max(x, next.x0) }, columns),
  ];
}

/** The codes in a code cell: one per line, or several on a line joined by "/" or ","; marks are no code. */
function codesIn(cell: GridSegment[], family: CodeFamily): string[] {
  const out: string[] = [];
  const texts = cell.map((s) => s.text.trim()).filter((t) => t && !isEmptyMark(t));
  const fits = (t: string) => {
    const f = codeFamily(t);
    return (
      f === family ||
      (f === 'letters' && family !== 'number') ||
      (f === 'display' && family === 'alnum') ||
      (family === 'word' && (f === 'alnum' || f === 'display'))
    );
  };
  let pending = '';
  for (const text of texts) {
    const candidate = pending ? `${pending} ${text}` : text;
    if (fits(candidate) || (pending && fits(joinBroken(pending, text)))) {
      // As printed: a line break stands as a space, which is how the page text holds it.
      out.push(candidate);
      pending = '';
      continue;
    }
    if (family !== 'word') {
      const parts = candidate.split(/\s*[/,;]\s*/);
      if (parts.length > 1 && parts.every(fits)) {
        out.push(...parts);
        pending = '';
        continue;
      }
    }
    // A code broken over two lines ("A5-" / "00") is joined with the next line of the cell.
    pending = candidate.length <= 6 && /-$|^[A-Z][A-Za-z]?$/.test(candidate) ? candidate : '';
  }
  return out;
}

/** Text made of field labels only, each a few words ending with a colon. */
function onlyLabels(text: string): boolean {
  const parts = text.trim().split(/(?<=:)\s+/);
  return parts.length >= 2 && parts.every((p) => /^[^:]{1,30}:$/.test(p));
}

/** 1, 2, 3, ...: a row counter, not codes. */
function isCounting(values: string[]): boolean {
  const numbers = values.map(Number);
  let steps = 0;
  for (let i = 1; i < numbers.length; i++) if (numbers[i] === numbers[i - 1]! + 1) steps++;
  return steps >= (numbers.length - 1) * 0.6;
}

function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

function lastBelow(sorted: number[], y: number): number | undefined {
  let out: number | undefined;
  for (const v of sorted) if (v < y - 0.5) out = v;
  return out;
}

function firstAbove(sorted: number[], y: number): number | undefined {
  return sorted.find((v) => v > y + 0.5);
}

function dedupeBy(sorted: number[], same: (a: number, b: number) => boolean): number[] {
  const out: number[] = [];
  for (const v of sorted) if (out.length === 0 || !same(out[out.length - 1]!, v)) out.push(v);
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
