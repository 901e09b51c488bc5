/**
 * Boxes for the layouts of the zoo: code tables ruled, half-ruled or bare, tables side by side, a table
 * turned on its page, codes hanging in the left margin and "label: value" cards. Every box that defines
 * codes lists them, so the answer key cites the page it lands on.
 */
import type { Box } from './boxes.js';
import { baseline, INK, PAGE, RULE, TABLE_HEADER_FILL, type TextStyle } from './page-geometry.js';
import type { Painter } from './painter.js';
import type { Line } from './text.js';

/** What varies from manual to manual, drawn from the seed: type size, spacing, insets. */
export interface Geometry {
  size: number;
  leading: number;
  padX: number;
  padY: number;
  /** Left inset of code layouts inside the text frame. */
  inset: number;
}

export type Ruling = 'grid' | 'header_rule' | 'none';

export interface TableSpec {
  /** Relative column widths. */
  widths: number[];
  header: string[];
  rows: { codes: string[]; cells: string[] }[];
  ruling: Ruling;
  /** Where the code column sets its text in a tall row. */
  codeAlign: 'top' | 'middle';
  codeColumn: number;
}

interface MeasuredRow {
  cells: Line[][];
  height: number;
}

function style(g: Geometry): TextStyle {
  return { size: g.size, leading: g.leading };
}

function measureRow(p: Painter, cells: string[], widths: number[], g: Geometry, bold: boolean): MeasuredRow {
  const wrapped = cells.map((cell, i) =>
    p.wrap(cell, (widths[i] ?? 0) - g.padX * 2, style(g), bold ? 'bold' : 'regular'),
  );
  const lines = Math.max(1, ...wrapped.map((c) => c.length));
  return { cells: wrapped, height: lines * g.leading + g.padY * 2 };
}

function drawRow(
  p: Painter,
  row: MeasuredRow,
  widths: number[],
  x: number,
  top: number,
  g: Geometry,
  spec: TableSpec,
  header: boolean,
): void {
  const total = widths.reduce((a, b) => a + b, 0);
  if (header && spec.ruling === 'grid') p.fillRect(x, top, total, row.height, TABLE_HEADER_FILL);
  let cx = x;
  row.cells.forEach((lines, ci) => {
    const w = widths[ci] ?? 0;
    const middle = !header && ci === spec.codeColumn && spec.codeAlign === 'middle';
    const offset = middle ? (row.height - g.padY * 2 - lines.length * g.leading) / 2 : 0;
    lines.forEach((line, k) => {
      p.line(line, cx + g.padX, baseline(top + g.padY + offset + k * g.leading, style(g)), w, g.size);
    });
    if (spec.ruling === 'grid' && ci > 0) p.rule(cx, top, cx, top + row.height, RULE);
    cx += w;
  });
  if (spec.ruling === 'grid') p.strokeRect(x, top, total, row.height, RULE, 0.6);
  if (header && spec.ruling === 'header_rule')
    p.rule(x, top + row.height, x + total, top + row.height, INK, 0.8);
}

/**
 * Column widths in points: the spec's proportions, widened where a column's longest word would not fit
 * (a typesetter never lets a word run into the next cell), the widest column giving up the difference.
 */
export function columnWidths(p: Painter, spec: TableSpec, width: number, g: Geometry): number[] {
  const total = spec.widths.reduce((a, b) => a + b, 0);
  const widths = spec.widths.map((w) => (w / total) * width);
  const need = widths.map((_, ci) => {
    const words = [spec.header[ci] ?? '', ...spec.rows.map((r) => r.cells[ci] ?? '')].flatMap((t) =>
      t.split(/\s+/),
    );
    return Math.max(0, ...words.map((w) => p.width(w, 'bold', g.size))) + g.padX * 2 + 2;
  });
  for (let ci = 0; ci < widths.length; ci++) {
    const short = need[ci]! - widths[ci]!;
    if (short <= 0) continue;
    // Columns with room beyond their own longest word give it up; what they cannot give widens the table.
    widths[ci] = need[ci]!;
    let owed = short;
    while (owed > 0.01) {
      const slack = widths.map((w, k) => (k === ci ? 0 : w - need[k]!));
      const donor = slack.indexOf(Math.max(...slack));
      const give = Math.min(owed, slack[donor]!);
      if (give <= 0.01) break;
      widths[donor] = widths[donor]! - give;
      owed -= give;
    }
  }
  return widths;
}

/**
 * A table's header row as a box, `caption` (bold) above it when given: what a table prints at its top
 * and, in some manuals, again where it continues on a new page.
 */
export function headerBox(p: Painter, spec: TableSpec, widths: number[], g: Geometry, caption?: string): Box {
  const header = measureRow(p, spec.header, widths, g, true);
  const captionStyle: TextStyle = { size: g.size + 1, leading: (g.size + 1) * 1.6 };
  const above = caption ? captionStyle.leading : 0;
  return {
    height: header.height + above,
    spaceBefore: 8,
    keepWithNext: true,
    draw: (pp, x, top) => {
      if (caption) pp.text(caption, x + g.inset, baseline(top, captionStyle), 'bold', captionStyle.size);
      drawRow(pp, header, widths, x + g.inset, top + above, g, spec, true);
    },
  };
}

/**
 * A table as a header box and one box per row, so that it breaks between rows like a typeset table.
 * With `repeat`, a row that starts a new page has the header printed again above it (after the caption
 * `repeat` names, when it is not empty); without, the table just goes on on the next page.
 */
export function tableBoxes(
  p: Painter,
  spec: TableSpec,
  width: number,
  g: Geometry,
  repeat?: { caption: string },
): Box[] {
  const inner = width - g.inset;
  const widths = columnWidths(p, spec, inner, g);
  const continuation = repeat ? headerBox(p, spec, widths, g, repeat.caption || undefined) : undefined;
  const boxes: Box[] = [headerBox(p, spec, widths, g)];
  for (const row of spec.rows) {
    const measured = measureRow(p, row.cells, widths, g, false);
    boxes.push({
      height: measured.height + (spec.ruling === 'grid' ? 0 : g.padY),
      spaceBefore: 0,
      codes: row.codes,
      ...(continuation ? { continuation } : {}),
      draw: (pp, x, top) => drawRow(pp, measured, widths, x + g.inset, top, g, spec, false),
    });
  }
  return boxes;
}

/** The height a table takes drawn in one piece, and a function drawing it there. */
function wholeTable(p: Painter, spec: TableSpec, width: number, g: Geometry) {
  const widths = columnWidths(p, spec, width, g);
  const header = measureRow(p, spec.header, widths, g, true);
  const rows = spec.rows.map((r) => measureRow(p, r.cells, widths, g, false));
  const gap = spec.ruling === 'grid' ? 0 : g.padY;
  const height = header.height + rows.reduce((h, r) => h + r.height + gap, 0);
  const draw = (pp: Painter, x: number, top: number) => {
    drawRow(pp, header, widths, x, top, g, spec, true);
    let y = top + header.height;
    for (const r of rows) {
      drawRow(pp, r, widths, x, y, g, spec, false);
      y += r.height + gap;
    }
  };
  return { height, draw };
}

/** Two tables next to each other, each with its own caption (indoor and outdoor unit, say). */
export function tablePairBox(
  p: Painter,
  pair: [{ caption: string; spec: TableSpec }, { caption: string; spec: TableSpec }],
  width: number,
  g: Geometry,
  gap: number,
): Box {
  const half = (width - g.inset - gap) / 2;
  const captionStyle: TextStyle = { size: g.size + 1, leading: (g.size + 1) * 1.6 };
  const tables = pair.map((t) => wholeTable(p, t.spec, half, g));
  const height = captionStyle.leading + Math.max(...tables.map((t) => t.height)) + 4;
  return {
    height,
    spaceBefore: 10,
    codes: pair.flatMap((t) => t.spec.rows.flatMap((r) => r.codes)),
    draw: (pp, x, top) => {
      pair.forEach((t, i) => {
        const tx = x + g.inset + i * (half + gap);
        pp.text(t.caption, tx, baseline(top, captionStyle), 'bold', captionStyle.size);
        tables[i]!.draw(pp, tx, top + captionStyle.leading);
      });
    },
  };
}

/**
 * A table printed across the page turned a quarter to the left, the way wide fault tables are set on
 * portrait pages: it fills a page of its own and reads from the bottom of the page up.
 */
export function rotatedTableBox(p: Painter, caption: string, spec: TableSpec, g: Geometry): Box {
  const frameWidth = PAGE.contentBottom - PAGE.contentTop - 10;
  const captionStyle: TextStyle = { size: g.size + 2, leading: (g.size + 2) * 1.6 };
  const table = wholeTable(p, spec, frameWidth - g.inset, g);
  const frameHeight = PAGE.right - PAGE.left;
  if (captionStyle.leading + table.height > frameHeight) throw new Error('rotated table too tall for a page');
  return {
    height: PAGE.contentBottom - PAGE.contentTop,
    spaceBefore: 0,
    breakBefore: true,
    codes: spec.rows.flatMap((r) => r.codes),
    draw: (pp, x, top) => {
      // Reading frame (u right, v down) onto the page: u runs up the page, v to its right.
      pp.doc.save();
      pp.doc.transform(0, -1, 1, 0, x, top + frameWidth);
      pp.text(caption, g.inset, baseline(0, captionStyle), 'bold', captionStyle.size);
      table.draw(pp, g.inset, captionStyle.leading);
      pp.doc.restore();
    },
  };
}

/** A code set in the left margin beside its reading (bold) and a paragraph of cause and remedy. */
export function marginEntryBox(
  p: Painter,
  entry: { code: string; title: string; text: string },
  width: number,
  g: Geometry,
  margin: number,
): Box {
  const body: TextStyle = { size: g.size + 0.6, leading: g.leading + 1 };
  const textWidth = width - g.inset - margin;
  const title = p.wrap(entry.title, textWidth, body, 'bold');
  const text = p.wrap(entry.text, textWidth, body);
  const lines = [...title.map((l) => ({ l, bold: true })), ...text.map((l) => ({ l, bold: false }))];
  return {
    height: lines.length * body.leading + g.padY,
    spaceBefore: g.padY * 2 + 2,
    codes: [entry.code],
    draw: (pp, x, top) => {
      pp.text(entry.code, x + g.inset, baseline(top, body), 'bold', body.size + 1.5);
      lines.forEach(({ l }, i) => {
        pp.line(l, x + g.inset + margin, baseline(top + i * body.leading, body), textWidth, body.size);
      });
    },
  };
}

/** A framed card of "label: value" lines, one card per code. */
export function cardBox(
  p: Painter,
  code: string,
  fields: { label: string; value: string }[],
  width: number,
  g: Geometry,
  style: { labelWidth: number; colon: string; inline: boolean },
): Box {
  const body: TextStyle = { size: g.size + 0.5, leading: g.leading + 1 };
  const inner = width - g.inset - g.padX * 2;
  // Tabbed: values start at one column and wrap there. Inline: the value follows its bold label and
  // wraps back to the card's left edge.
  const labelWidth = style.inline ? 0 : style.labelWidth;
  const rows = fields.map((f) =>
    style.inline
      ? { label: '', lines: p.wrap(`**${f.label}${style.colon}** ${f.value}`, inner, body) }
      : { label: `${f.label}${style.colon}`, lines: p.wrap(f.value, inner - labelWidth, body) },
  );
  const height = rows.reduce((h, r) => h + r.lines.length * body.leading, 0) + g.padY * 4;
  return {
    height,
    spaceBefore: 8,
    codes: [code],
    draw: (pp, x, top) => {
      const left = x + g.inset;
      pp.strokeRect(left, top, width - g.inset, height, RULE, 0.8);
      let y = top + g.padY * 2;
      for (const r of rows) {
        if (r.label) pp.text(r.label, left + g.padX, baseline(y, body), 'bold', body.size);
        r.lines.forEach((line, k) => {
          pp.line(line, left + g.padX + labelWidth, baseline(y + k * body.leading, body), inner, body.size);
        });
        y += r.lines.length * body.leading;
      }
    },
  };
}

/** One line of a code list: the code in bold, a separator, the reading. */
export function listLineBox(
  p: Painter,
  code: string,
  separator: string,
  text: string,
  width: number,
  g: Geometry,
): Box {
  const body: TextStyle = { size: g.size + 0.8, leading: g.leading + 2 };
  const lines = p.wrap(`**${code}**${separator}${text}`, width - g.inset, body);
  return {
    height: lines.length * body.leading,
    spaceBefore: 2,
    codes: [code],
    draw: (pp, x, top) => {
      lines.forEach((line, k) => {
        pp.line(line, x + g.inset, baseline(top + k * body.leading, body), width - g.inset, body.size);
      });
    },
  };
}
