/**
 * Turns source blocks into boxes: unbreakable pieces of known height that the layout stacks into
 * pages and columns. Paragraphs become one box per line so they can break across columns and pages.
 */
import type { FigureBlock, HeadingBlock, LeafBlock, TableBlock } from './manual-source.js';
import {
  BAR_FILL,
  BODY,
  baseline,
  INK,
  MUTED,
  RULE,
  TABLE,
  TABLE_HEADER_FILL,
  type TextStyle,
} from './page-geometry.js';
import type { Align, Painter } from './painter.js';

export interface Box {
  height: number;
  /** Gap above the box, dropped at the top of a page or column. */
  spaceBefore: number;
  /** Never end a page or column on this box (headings, table captions and header rows). */
  keepWithNext?: boolean;
  /** Table rows: the caption and header row printed again where the table continues on a new page. */
  continuation?: Box;
  /** Start a new page before this box (chapter openings). */
  breakBefore?: boolean;
  /** Headings listed on the contents page. */
  toc?: { level: number; number?: string; title: string };
  /** Codes this box defines: the generated answer keys cite the page it lands on. */
  codes?: string[];
  draw(p: Painter, x: number, top: number): void;
}

export interface BoxContext {
  painter: Painter;
  width: number;
  accent: string;
  continued: string;
}

const HEADING_STYLES: Record<1 | 2 | 3, TextStyle & { spaceBefore: number; indent: number }> = {
  1: { size: 14.5, leading: 19, spaceBefore: 16, indent: 30 },
  2: { size: 11.5, leading: 15.5, spaceBefore: 11, indent: 34 },
  3: { size: 10, leading: 13.5, spaceBefore: 9, indent: 40 },
};

function headingBoxes(h: HeadingBlock, ctx: BoxContext): Box[] {
  const level: 1 | 2 | 3 = h.level ?? (h.n ? (Math.min(h.n.split('.').length, 3) as 1 | 2 | 3) : 3);
  const style = HEADING_STYLES[level];
  const { painter } = ctx;
  const toc = { level, title: h.text, ...(h.n ? { number: h.n } : {}) };
  if (h.style === 'bar') {
    const barStyle: TextStyle = { size: 10.5, leading: 14 };
    const lines = painter.wrap(h.text, ctx.width - 12, barStyle, 'bold');
    const height = lines.length * barStyle.leading + 6;
    return [
      {
        height,
        spaceBefore: 14,
        keepWithNext: true,
        breakBefore: h.new_page,
        toc,
        draw: (p, x, top) => {
          p.fillRect(x, top, ctx.width, height, BAR_FILL);
          p.fillRect(x, top, 3, height, ctx.accent);
          lines.forEach((line, i) => {
            p.line(
              line,
              x + 9,
              baseline(top + 3 + i * barStyle.leading, barStyle),
              ctx.width - 12,
              barStyle.size,
            );
          });
        },
      },
    ];
  }
  const numberWidth = h.n ? painter.width(h.n, 'bold', style.size) : 0;
  const indent = h.n ? Math.max(style.indent, numberWidth + 10) : 0;
  const lines = painter.wrap(h.text, ctx.width - indent, style, 'bold');
  const ruled = level === 1;
  const height = lines.length * style.leading + (ruled ? 6 : 2);
  const color = level === 1 ? ctx.accent : INK;
  return [
    {
      height,
      spaceBefore: style.spaceBefore,
      keepWithNext: true,
      breakBefore: h.new_page,
      toc,
      draw: (p, x, top) => {
        const first = baseline(top, style);
        if (h.n) p.text(h.n, x, first, 'bold', style.size, color);
        lines.forEach((line, i) => {
          p.line(
            line,
            x + indent,
            baseline(top + i * style.leading, style),
            ctx.width - indent,
            style.size,
            'left',
            color,
          );
        });
        if (ruled) p.rule(x, top + height - 2, x + ctx.width, top + height - 2, ctx.accent, 1);
      },
    },
  ];
}

/** One box per line; `label` hangs in the left margin of the first line (step numbers, bullets). */
function lineBoxes(
  source: string,
  ctx: BoxContext,
  opts: { spaceBefore: number; indent?: number; label?: string; align?: Align },
): Box[] {
  const indent = opts.indent ?? 0;
  const width = ctx.width - indent;
  const lines = ctx.painter.wrap(source, width, BODY);
  return lines.map((line, i) => ({
    height: BODY.leading,
    spaceBefore: i === 0 ? opts.spaceBefore : 0,
    draw: (p, x, top) => {
      const y = baseline(top, BODY);
      if (i === 0 && opts.label) p.text(opts.label, x + (indent > 14 ? 2 : 3), y, 'regular', BODY.size);
      p.line(line, x + indent, y, width, BODY.size, opts.align ?? 'justify');
    },
  }));
}

const WARNING_COLORS = { danger: '#b3261e', caution: '#c77700', note: '#4f6170' } as const;

function warningBox(
  w: { label: string; text: string; kind?: 'danger' | 'caution' | 'note' },
  ctx: BoxContext,
): Box {
  const color = WARNING_COLORS[w.kind ?? 'danger'];
  const pad = 6;
  const iconWidth = 30;
  const textWidth = ctx.width - iconWidth - pad * 2;
  const labelStyle: TextStyle = { size: 9.5, leading: 13 };
  const lines = ctx.painter.wrap(w.text, textWidth, BODY);
  const height = pad * 2 + labelStyle.leading + lines.length * BODY.leading;
  return {
    height,
    spaceBefore: 8,
    draw: (p, x, top) => {
      p.strokeRect(x, top, ctx.width, height, color, 1.2);
      // Hazard triangle drawn with vectors: the standard fonts have no such glyph.
      const cx = x + pad + 10;
      const ty = top + pad + 2;
      p.doc
        .save()
        .lineWidth(1.2)
        .strokeColor(color)
        .polygon([cx, ty], [cx + 10, ty + 17], [cx - 10, ty + 17])
        .stroke();
      p.doc.restore();
      p.text('!', cx - 1.6, ty + 15, 'bold', 11, color);
      const tx = x + pad + iconWidth;
      p.text(w.label, tx, baseline(top + pad, labelStyle), 'bold', labelStyle.size, color);
      lines.forEach((line, i) => {
        p.line(
          line,
          tx,
          baseline(top + pad + labelStyle.leading + i * BODY.leading, BODY),
          textWidth,
          BODY.size,
        );
      });
    },
  };
}

interface Row {
  cells: ReturnType<Painter['wrap']>[];
  height: number;
}

function tableBoxes(t: TableBlock, ctx: BoxContext): Box[] {
  const { painter } = ctx;
  const padX = 4;
  const padY = 3;
  const total = t.widths.reduce((a, b) => a + b, 0);
  const widths = t.widths.map((w) => (w / total) * ctx.width);
  const aligns: Align[] = widths.map((_, i) => t.align?.[i] ?? 'left');
  const row = (cells: string[], header: boolean): Row => {
    const wrapped = cells.map((cell, i) =>
      painter.wrap(
        cell,
        (widths[i] ?? 0) - padX * 2,
        TABLE,
        header || (i === 0 && t.bold_first) ? 'bold' : 'regular',
      ),
    );
    const lineCount = Math.max(1, ...wrapped.map((c) => c.length));
    return { cells: wrapped, height: lineCount * TABLE.leading + padY * 2 };
  };
  const drawRow = (p: Painter, r: Row, x: number, top: number, header: boolean) => {
    if (header) p.fillRect(x, top, ctx.width, r.height, TABLE_HEADER_FILL);
    let cx = x;
    r.cells.forEach((lines, i) => {
      const w = widths[i] ?? 0;
      const align = header ? 'left' : (aligns[i] ?? 'left');
      lines.forEach((line, k) => {
        p.line(
          line,
          cx + padX,
          baseline(top + padY + k * TABLE.leading, TABLE),
          w - padX * 2,
          TABLE.size,
          align,
        );
      });
      if (i > 0) p.rule(cx, top, cx, top + r.height, RULE);
      cx += w;
    });
    p.strokeRect(x, top, ctx.width, r.height, RULE, 0.6);
  };

  const captionStyle: TextStyle = { size: 9, leading: 14 };
  const captionBox = (text: string): Box => ({
    height: captionStyle.leading + 2,
    spaceBefore: 10,
    keepWithNext: true,
    draw: (p, x, top) => p.text(text, x, baseline(top, captionStyle), 'bold', captionStyle.size, INK),
  });
  const headerRow = row(t.header, true);
  const headerBox: Box = {
    height: headerRow.height,
    spaceBefore: t.caption ? 0 : 8,
    keepWithNext: true,
    draw: (p, x, top) => drawRow(p, headerRow, x, top, true),
  };
  const continuedCaption = t.caption ? captionBox(`${t.caption} ${ctx.continued}`) : undefined;
  const continuation: Box = {
    height: (continuedCaption?.height ?? 0) + headerRow.height,
    spaceBefore: 0,
    keepWithNext: true,
    draw: (p, x, top) => {
      continuedCaption?.draw(p, x, top);
      headerBox.draw(p, x, top + (continuedCaption?.height ?? 0));
    },
  };
  const boxes: Box[] = [];
  if (t.caption) boxes.push(captionBox(t.caption));
  boxes.push(headerBox);
  for (const cells of t.rows) {
    const r = row(cells, false);
    boxes.push({
      height: r.height,
      spaceBefore: 0,
      continuation,
      draw: (p, x, top) => drawRow(p, r, x, top, false),
    });
  }
  const last = boxes[boxes.length - 1];
  if (last) boxes[boxes.length - 1] = { ...last, height: last.height + 4 };
  return boxes;
}

function figureBox(f: FigureBlock, ctx: BoxContext): Box {
  const labelStyle: TextStyle = { size: 7.5, leading: 9 };
  const captionStyle: TextStyle = { size: 8.5, leading: 12 };
  const height = f.height + captionStyle.leading + 6;
  return {
    height,
    spaceBefore: 10,
    draw: (p, x, top) => {
      const px = (fx: number) => x + fx * ctx.width;
      const py = (fy: number) => top + fy * f.height;
      p.strokeRect(x, top, ctx.width, f.height, '#b0b0b0', 0.4);
      for (const [x1, y1, x2, y2] of f.lines ?? []) p.rule(px(x1), py(y1), px(x2), py(y2), '#333333', 1.1);
      for (const b of f.boxes) {
        const bw = b.w * ctx.width;
        const bh = b.h * f.height;
        p.fillRect(px(b.x), py(b.y), bw, bh, '#ffffff');
        p.strokeRect(px(b.x), py(b.y), bw, bh, '#333333', 0.9, b.round ? Math.min(bw, bh) / 2 : 0);
        const lines = p.wrap(b.label, bw - 4, labelStyle);
        const textTop = py(b.y) + (bh - lines.length * labelStyle.leading) / 2;
        lines.forEach((line, i) => {
          p.line(
            line,
            px(b.x) + 2,
            baseline(textTop + i * labelStyle.leading, labelStyle),
            bw - 4,
            labelStyle.size,
            'center',
          );
        });
      }
      for (const l of f.labels ?? []) p.text(l.text, px(l.x), py(l.y), 'regular', labelStyle.size, MUTED);
      const captionLine = p.wrap(f.caption, ctx.width, captionStyle, 'italic')[0];
      if (captionLine) {
        p.line(
          captionLine,
          x,
          baseline(top + f.height + 4, captionStyle),
          ctx.width,
          captionStyle.size,
          'center',
          MUTED,
        );
      }
    },
  };
}

export function blockBoxes(block: LeafBlock, ctx: BoxContext): Box[] {
  if ('heading' in block) return headingBoxes(block.heading, ctx);
  if ('p' in block) return lineBoxes(block.p, ctx, { spaceBefore: 5 });
  if ('steps' in block) {
    return block.steps.flatMap((step, i) =>
      lineBoxes(step, ctx, { spaceBefore: i === 0 ? 5 : 3, indent: 18, label: `${i + 1}.` }),
    );
  }
  if ('bullets' in block) {
    return block.bullets.flatMap((item, i) =>
      lineBoxes(item, ctx, { spaceBefore: i === 0 ? 5 : 2, indent: 13, label: '•' }),
    );
  }
  if ('warning' in block) return [warningBox(block.warning, ctx)];
  if ('table' in block) return tableBoxes(block.table, ctx);
  if ('figure' in block) return [figureBox(block.figure, ctx)];
  if ('spacer' in block) return [{ height: block.spacer, spaceBefore: 0, draw: () => {} }];
  return [];
}
