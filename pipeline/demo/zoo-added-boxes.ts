/**
 * Boxes for the layouts added to the zoo later: a drawing that pushes a table down its page, a code
 * whose name is printed in italics under it beside several cause/remedy sub-rows, and the dot-leader
 * lines of an index.
 */
import type { Box } from './boxes.js';
import { baseline, MUTED, RULE, type TextStyle } from './page-geometry.js';
import type { Painter } from './painter.js';
import type { Line } from './text.js';
import type { Geometry } from './zoo-boxes.js';

/** A framed drawing of the controller's display with its caption (what stands above many fault tables). */
export function panelBox(caption: string, width: number, height: number, g: Geometry): Box {
  return {
    height,
    spaceBefore: 8,
    draw: (p, x, top) => {
      const frame = height - 18;
      const w = Math.min(width * 0.5, 260);
      const left = x + (width - w) / 2;
      p.strokeRect(left, top, w, frame, RULE, 0.8, 4);
      p.fillRect(left + w * 0.3, top + frame * 0.3, w * 0.4, frame * 0.3, '#2b2f33');
      const cw = p.width(caption, 'italic', g.size);
      p.text(caption, x + (width - cw) / 2, top + height - 4, 'italic', g.size, MUTED);
    },
  };
}

export interface SubrowEntry {
  code: string;
  /** The fault's name, printed in italics under the code. */
  name: string;
  /** Cause and remedy per sub-row; an empty cause continues the one above. */
  rows: [string, string][];
}

function style(g: Geometry): TextStyle {
  return { size: g.size, leading: g.leading };
}

/**
 * One code of a table whose first column holds the code (bold) and its name (italic) under it, the other
 * two columns a cause and its remedy per sub-row, ruled between sub-rows when `grid`.
 */
export function subrowGroupBox(
  p: Painter,
  entry: SubrowEntry,
  widths: number[],
  g: Geometry,
  grid: boolean,
): Box {
  const [cw, aw, bw] = widths as [number, number, number];
  const s = style(g);
  const name = p.wrap(entry.name, cw - g.padX * 2, s, 'italic');
  const codeHeight = (1 + name.length) * g.leading + g.padY * 2;
  const rows = entry.rows.map(([cause, remedy]) => {
    const a: Line[] = cause ? p.wrap(cause, aw - g.padX * 2, s) : [];
    const b = p.wrap(remedy, bw - g.padX * 2, s);
    return { a, b, height: Math.max(a.length, b.length, 1) * g.leading + g.padY * 2 };
  });
  const rowsHeight = rows.reduce((h, r) => h + r.height, 0);
  if (rowsHeight < codeHeight) rows[rows.length - 1]!.height += codeHeight - rowsHeight;
  const height = Math.max(codeHeight, rowsHeight);
  return {
    height: height + (grid ? 0 : g.padY),
    spaceBefore: 0,
    codes: [entry.code],
    draw: (pp, x, top) => {
      const left = x + g.inset;
      pp.text(entry.code, left + g.padX, baseline(top + g.padY, s), 'bold', g.size);
      name.forEach((line, k) => {
        pp.line(line, left + g.padX, baseline(top + g.padY + (k + 1) * g.leading, s), cw, g.size);
      });
      let y = top;
      rows.forEach((r, i) => {
        r.a.forEach((line, k) => {
          pp.line(line, left + cw + g.padX, baseline(y + g.padY + k * g.leading, s), aw, g.size);
        });
        r.b.forEach((line, k) => {
          pp.line(line, left + cw + aw + g.padX, baseline(y + g.padY + k * g.leading, s), bw, g.size);
        });
        if (grid && i > 0) {
          // A continued cause keeps its cell open: the rule then crosses the remedy column only.
          const from = entry.rows[i]![0] ? left + cw : left + cw + aw;
          pp.rule(from, y, left + cw + aw + bw, y, RULE);
        }
        y += r.height;
      });
      if (grid) {
        pp.strokeRect(left, top, cw + aw + bw, height, RULE, 0.6);
        pp.rule(left + cw, top, left + cw, top + height, RULE);
        pp.rule(left + cw + aw, top, left + cw + aw, top + height, RULE);
      }
    },
  };
}

/** A line of an index or a contents list: the entry, a dot leader and the page number at the right. */
export function leaderLineBox(text: string, page: () => string, width: number, g: Geometry): Box {
  const s: TextStyle = { size: g.size + 0.5, leading: g.leading + 2 };
  return {
    height: s.leading,
    spaceBefore: 0,
    draw: (pp, x, top) => {
      const y = baseline(top, s);
      const left = x + g.inset;
      pp.text(text, left, y, 'regular', s.size);
      const pageText = page();
      const pageWidth = pp.width(pageText, 'regular', s.size);
      const dot = pp.width(' .', 'regular', s.size);
      const start = left + pp.width(text, 'regular', s.size) + 4;
      const end = x + width - pageWidth - 6;
      const dots = Math.floor((end - start) / dot);
      if (dots > 2) pp.text(' .'.repeat(dots), end - dots * dot, y, 'regular', s.size, MUTED);
      pp.text(pageText, x + width - pageWidth, y, 'regular', s.size);
    },
  };
}
