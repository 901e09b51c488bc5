/**
 * How a generated manual's text is written into its PDF: an axis of the layout zoo orthogonal to layout
 * and language. Real producers write the same visible page in many ways (a show per glyph, no space
 * characters, text out of reading order, fake bold drawn twice, rotated pages, codes with dashes or no-break
 * spaces); a variant changes only the text layer, never what the page shows or where.
 */

import { type Matrix, multiply } from '../layout/matrix.js';
import {
  embeddedFontName,
  type LigatureMapping,
  patchToUnicode,
  registerEmbeddedFonts,
  withLigatures,
} from './embedded-fonts.js';
import { PAGE } from './page-geometry.js';
import { FONT_NAMES, type FontKey, type PlacedPiece, type TextMeasurer } from './text.js';

export const TEXT_LAYERS = [
  'glyphs',
  'no_space',
  'letter_spaced',
  'split_words',
  'stream_order',
  'overprint',
  'dashes',
  'nbsp',
  'page_rotate',
  'scaled_matrix',
  'space_cells',
  'baseline_jitter',
  'condensed',
  'identity_h',
  'ligature_codepoint',
  'ligature_unmapped',
  'no_tounicode',
  'ocr_invisible',
] as const;
export type TextLayerVariant = (typeof TEXT_LAYERS)[number];

function invert(m: Matrix): Matrix {
  const det = m[0] * m[3] - m[1] * m[2];
  const a = m[3] / det;
  const b = -m[1] / det;
  const c = -m[2] / det;
  const d = m[0] / det;
  return [a, b, c, d, -(a * m[4] + c * m[5]), -(b * m[4] + d * m[5])];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How a code is printed by the `dashes` and `nbsp` variants; undefined where it stays as it is. */
export function printedCode(variant: TextLayerVariant, code: string): string | undefined {
  const split = /^([A-Za-z]+) ?(\d+)$/.exec(code);
  if (variant === 'dashes') {
    if (code.includes('-')) return code.replace(/-/g, '\u2013');
    return split ? `${split[1]}\u2013${split[2]}` : undefined;
  }
  if (variant === 'nbsp') return split ? `${split[1]}\u00a0${split[2]}` : undefined;
  return undefined;
}

interface Pending {
  x: number;
  y: number;
  ctm: Matrix;
  draw: () => void;
  /** `space_cells`: what a run on one baseline is made of, to be joined with its neighbours. */
  cell?: { text: string; font: FontKey; size: number; color: string; width: number; space: number };
}

type Doc = PDFKit.PDFDocument & { _ctm: Matrix; _font: unknown };

/** Variants drawn in an embedded TrueType font, and what each one's ToUnicode says of ligature glyphs. */
const EMBEDDED: Partial<Record<TextLayerVariant, LigatureMapping>> = {
  identity_h: 'letters',
  ligature_codepoint: 'codepoint',
  ligature_unmapped: 'nothing',
  no_tounicode: 'absent',
};

/** PDF text render mode 3: glyphs neither filled nor stroked, as OCR writes its text over a scan. */
const INVISIBLE = '3 Tr';

/** Writes a painter's text runs into the PDF the way the variant says. */
export class TextLayer {
  private readonly codes: { pattern: RegExp; printed: string }[] = [];
  private readonly all: Set<string>;
  private pending: Pending[] = [];
  private base: Matrix = [1, 0, 0, 1, 0, 0];
  private fontsRegistered = false;
  private pages = 0;

  /**
   * `pageImages`: for `ocr_invisible`, each page as a scanner stored it (pipeline/demo/scan-pages.ts),
   * drawn under the page's invisible text.
   */
  constructor(
    readonly variant: TextLayerVariant,
    private readonly random: () => number,
    codes: readonly string[] = [],
    private readonly pageImages: readonly Buffer[] = [],
  ) {
    this.all = new Set(codes);
    for (const code of [...codes].sort((a, b) => b.length - a.length)) {
      const printed = printedCode(variant, code);
      if (printed === undefined) continue;
      const pattern = new RegExp(`(^|[^A-Za-z0-9])${escapeRegExp(code)}(?![A-Za-z0-9])`, 'g');
      this.codes.push({ pattern, printed });
    }
  }

  /** Starts a page: pages of `page_rotate` are stored landscape, turned back upright by /Rotate 90. */
  addPage(doc: PDFKit.PDFDocument): void {
    this.flush(doc);
    if (this.variant === 'page_rotate') {
      doc.addPage({ size: [PAGE.height, PAGE.width], margin: 0 });
      (doc.page.dictionary as unknown as { data: Record<string, unknown> }).data.Rotate = 90;
      // Drawing point (X, Y) from the top-left of the upright page lands at user point (Y, X).
      doc.transform(0, -1, 1, 0, 0, PAGE.width);
    } else doc.addPage({ size: 'A4', margin: 0 });
    this.base = [...(doc as Doc)._ctm];
    if (EMBEDDED[this.variant] && !this.fontsRegistered) {
      registerEmbeddedFonts(doc);
      this.fontsRegistered = true;
    }
    const image = this.pageImages[this.pages++];
    if (this.variant === 'ocr_invisible' && image)
      doc.image(image, 0, 0, { width: PAGE.width, height: PAGE.height });
  }

  /** False where the page is a scan: its rules and boxes are in the image, never vector paths. */
  get drawsVectors(): boolean {
    return this.variant !== 'ocr_invisible';
  }

  /** Emits what `stream_order` held back for the page: running header and footer first, then by column. */
  flush(doc: PDFKit.PDFDocument): void {
    if (this.pending.length === 0) return;
    if (this.variant === 'space_cells') this.joinCells(doc);
    const furniture = (p: Pending) => p.y < PAGE.contentTop - 8 || p.y > PAGE.contentBottom + 8;
    // `stream_order` writes by column; `space_cells` keeps reading order, line by line.
    const ordered = [...this.pending].sort((a, b) =>
      this.variant === 'stream_order'
        ? Number(furniture(b)) - Number(furniture(a)) ||
          Math.floor(a.x / 40) - Math.floor(b.x / 40) ||
          a.y - b.y
        : a.y - b.y || a.x - b.x,
    );
    this.pending = [];
    const inverse = invert(this.base);
    for (const p of ordered) {
      doc.save();
      // pdfkit composes `inverse` onto its current matrix: p.ctm applied first, then the inverse.
      doc.transform(...multiply(p.ctm, inverse));
      p.draw();
      doc.restore();
    }
  }

  /**
   * `space_cells`: the runs of one baseline in one font become one show, the gap before each filled with
   * as many space characters as fit (at least one).
   */
  private joinCells(doc: PDFKit.PDFDocument): void {
    const rows = new Map<string, Pending[]>();
    const rest: Pending[] = [];
    for (const p of this.pending) {
      if (!p.cell) {
        rest.push(p);
        continue;
      }
      const key = [p.ctm.join(','), p.y.toFixed(2), p.cell.font, p.cell.size, p.cell.color].join('|');
      rows.set(key, [...(rows.get(key) ?? []), p]);
    }
    const joined: Pending[] = [];
    for (const row of rows.values()) {
      row.sort((a, b) => a.x - b.x);
      let open: Pending | undefined;
      let text = '';
      let end = 0;
      const close = () => {
        if (!open?.cell) return;
        const { font, size, color } = open.cell;
        const x = open.x;
        const y = open.y;
        const shown = text;
        joined.push({
          x,
          y,
          ctm: open.ctm,
          draw: () =>
            doc
              .font(FONT_NAMES[font])
              .fontSize(size)
              .fillColor(color)
              .text(shown, x, y, { lineBreak: false, baseline: 'alphabetic' }),
        });
      };
      for (const p of row) {
        const cell = p.cell!;
        const gap = p.x - end;
        if (open && gap > -0.5) {
          text += ' '.repeat(Math.max(1, Math.round(gap / cell.space))) + cell.text;
        } else {
          close();
          open = p;
          text = cell.text;
        }
        end = p.x + cell.width;
      }
      close();
    }
    this.pending = [...rest, ...joined];
  }

  show(doc: PDFKit.PDFDocument, piece: PlacedPiece, y: number, size: number, color: string, m: TextMeasurer) {
    let text = piece.text;
    for (const { pattern, printed } of this.codes)
      text = text.replace(pattern, (_, lead: string) => lead + printed);
    const mapping = EMBEDDED[this.variant];
    const embedded = mapping ? embeddedFontName(piece.font) : undefined;
    const put = (s: string, x: number, font: FontKey = piece.font, extra: PDFKit.Mixins.TextOptions = {}) => {
      const options: PDFKit.Mixins.TextOptions = { lineBreak: false, baseline: 'alphabetic' };
      if (piece.wordSpacing > 0.01) options.wordSpacing = piece.wordSpacing;
      Object.assign(options, extra);
      const name = mapping ? (embeddedFontName(font) ?? FONT_NAMES[font]) : FONT_NAMES[font];
      doc.font(name).fontSize(size).fillColor(color);
      if (mapping && embedded) patchToUnicode((doc as Doc)._font, mapping);
      doc.text(embedded ? withLigatures(s) : s, x, y, options);
    };
    // Where the part of the piece before character `i` ends.
    const advance = (i: number) => {
      const prefix = text.slice(0, i);
      return m.width(prefix, piece.font, size) + (prefix.split(' ').length - 1) * piece.wordSpacing;
    };
    switch (this.variant) {
      case 'glyphs': {
        // A show per syllable of one to three letters, a space its own show.
        let i = 0;
        while (i < text.length) {
          const word = /^[^ ]+/.exec(text.slice(i))?.[0];
          const n = word ? Math.min(word.length, 1 + Math.floor(this.random() * 3)) : 1;
          put(text.slice(i, i + n), piece.x + advance(i), piece.font, { wordSpacing: 0 });
          i += n;
        }
        return;
      }
      case 'no_space': {
        let i = 0;
        for (const word of text.split(' ')) {
          if (word !== '') put(word, piece.x + advance(i));
          i += word.length + 1;
        }
        return;
      }
      case 'letter_spaced': {
        const isCode = this.all.has(text.trim());
        put(text, piece.x, piece.font, isCode ? { characterSpacing: size * 0.35 } : {});
        return;
      }
      case 'split_words': {
        // Each word of two or more letters split at a drawn point into two text objects.
        let i = 0;
        for (const word of text.split(' ')) {
          if (word.length < 2) {
            if (word !== '') put(word, piece.x + advance(i));
          } else {
            const at = 1 + Math.floor(this.random() * (word.length - 1));
            put(word.slice(0, at), piece.x + advance(i));
            put(word.slice(at), piece.x + advance(i + at));
          }
          i += word.length + 1;
        }
        return;
      }
      case 'space_cells': {
        const ctm: Matrix = [...(doc as Doc)._ctm];
        const draw = () => put(text, piece.x);
        if (piece.wordSpacing > 0.01 || piece.font === 'symbol') {
          this.pending.push({ x: piece.x, y, ctm, draw });
          return;
        }
        const width = m.width(text, piece.font, size);
        const space = m.width(' ', piece.font, size);
        const cell = { text, font: piece.font, size, color, width, space };
        this.pending.push({ x: piece.x, y, ctm, draw, cell });
        return;
      }
      case 'baseline_jitter': {
        let i = 0;
        while (i < text.length) {
          const word = /^[^ ]+/.exec(text.slice(i))?.[0];
          const n = word ? Math.min(word.length, 1 + Math.floor(this.random() * 3)) : 1;
          const dy = (this.random() * 2 - 1) * 0.5;
          const options: PDFKit.Mixins.TextOptions = { lineBreak: false, baseline: 'alphabetic' };
          const x = piece.x + advance(i);
          doc
            .font(FONT_NAMES[piece.font])
            .fontSize(size)
            .fillColor(color)
            .text(text.slice(i, i + n), x, y + dy, options);
          i += n;
        }
        return;
      }
      case 'condensed':
        // pdfkit's typings lack the option its text() reads.
        put(text, piece.x, piece.font, { horizontalScaling: 85 } as PDFKit.Mixins.TextOptions);
        return;
      case 'stream_order': {
        const ctm: Matrix = [...(doc as Doc)._ctm];
        this.pending.push({ x: piece.x, y, ctm, draw: () => put(text, piece.x) });
        return;
      }
      case 'ocr_invisible': {
        // OCR writes a show per word over the scan, invisible.
        doc.save();
        doc.addContent(INVISIBLE);
        let i = 0;
        for (const word of text.split(' ')) {
          if (word !== '') put(word, piece.x + advance(i), piece.font, { wordSpacing: 0 });
          i += word.length + 1;
        }
        doc.restore();
        return;
      }
      case 'overprint':
        put(text, piece.x);
        if (piece.font === 'bold') put(text, piece.x + 0.3);
        return;
      case 'scaled_matrix': {
        doc.save();
        doc.transform(size, 0, 0, size, piece.x, y);
        const options: PDFKit.Mixins.TextOptions = { lineBreak: false, baseline: 'alphabetic' };
        if (piece.wordSpacing > 0.01) options.wordSpacing = piece.wordSpacing / size;
        doc.font(FONT_NAMES[piece.font]).fontSize(1).fillColor(color).text(text, 0, 0, options);
        doc.restore();
        return;
      }
      default:
        put(text, piece.x);
    }
  }
}
