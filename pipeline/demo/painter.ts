/** Thin drawing layer over a pdfkit document: measured text runs, rules and boxes. */
import { INK, type TextStyle } from './page-geometry.js';
import {
  FONT_NAMES,
  type FontKey,
  type Line,
  type PlacedPiece,
  placeLine,
  symbolWidth,
  type TextMeasurer,
  wrapRich,
} from './text.js';
import type { TextLayer } from './text-layer.js';

export type Align = 'left' | 'center' | 'right' | 'justify';

export class Painter implements TextMeasurer {
  /** `layer` writes the text the way a text-layer variant of the layout zoo says; plain shows without it. */
  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly layer?: TextLayer,
  ) {}

  width(text: string, font: FontKey, size: number): number {
    if (font === 'symbol') return symbolWidth(text, size);
    return this.doc.font(FONT_NAMES[font]).fontSize(size).widthOfString(text);
  }

  wrap(source: string, width: number, style: TextStyle, base?: FontKey): Line[] {
    return wrapRich(source, width, style.size, this, base);
  }

  /** Draws one wrapped line with its baseline at `y`. */
  line(
    line: Line,
    x: number,
    y: number,
    width: number,
    size: number,
    align: Align = 'left',
    color = INK,
  ): void {
    let start = x;
    if (align === 'right') start = x + width - line.width;
    if (align === 'center') start = x + (width - line.width) / 2;
    const pieces = placeLine(line, start, size, this, align === 'justify' ? width : undefined);
    for (const piece of pieces) this.piece(piece, y, size, color);
  }

  /** Single-font text with its baseline at `y`, no wrapping. */
  text(text: string, x: number, y: number, font: FontKey, size: number, color = INK): void {
    this.piece({ text, font, x, wordSpacing: 0 }, y, size, color);
  }

  private piece(piece: PlacedPiece, y: number, size: number, color: string): void {
    if (this.layer) {
      this.layer.show(this.doc, piece, y, size, color, this);
      return;
    }
    const options: PDFKit.Mixins.TextOptions = { lineBreak: false, baseline: 'alphabetic' };
    if (piece.wordSpacing > 0.01) options.wordSpacing = piece.wordSpacing;
    this.doc
      .font(FONT_NAMES[piece.font])
      .fontSize(size)
      .fillColor(color)
      .text(piece.text, piece.x, y, options);
  }

  rule(x1: number, y1: number, x2: number, y2: number, color: string, width = 0.5): void {
    if (this.layer && !this.layer.drawsVectors) return;
    this.doc.save().lineWidth(width).strokeColor(color).moveTo(x1, y1).lineTo(x2, y2).stroke().restore();
  }

  fillRect(x: number, y: number, w: number, h: number, color: string): void {
    if (this.layer && !this.layer.drawsVectors) return;
    this.doc.save().rect(x, y, w, h).fillColor(color).fill().restore();
  }

  strokeRect(x: number, y: number, w: number, h: number, color: string, width = 0.5, radius = 0): void {
    if (this.layer && !this.layer.drawsVectors) return;
    this.doc.save().lineWidth(width).strokeColor(color);
    if (radius > 0) this.doc.roundedRect(x, y, w, h, radius);
    else this.doc.rect(x, y, w, h);
    this.doc.stroke().restore();
  }
}
