/** Rich-text runs, measuring and line wrapping on top of pdfkit's standard 14 fonts. */

export type FontKey = 'regular' | 'bold' | 'italic' | 'symbol';

export const FONT_NAMES: Record<FontKey, string> = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
  symbol: 'Symbol',
};

/**
 * Standard fonts are WinAnsi-encoded; a few signs that real manuals print (Ω, ≤, ≥) only exist in the
 * Symbol font, where they sit at these byte positions. pdfjs maps them back to the Unicode sign.
 */
const SYMBOL_GLYPHS: Record<string, string> = { Ω: 'W', '≤': '\u00a3', '≥': '\u00b3' };

/**
 * Advance widths (1/1000 em) of those glyphs from Symbol.afm: pdfkit measures Symbol text through the
 * WinAnsi glyph names, finds no glyph named "W" and would report a zero width.
 */
const SYMBOL_WIDTHS: Record<string, number> = { W: 768, '\u00a3': 549, '\u00b3': 549 };

export function symbolWidth(text: string, size: number): number {
  let width = 0;
  for (const ch of text) width += ((SYMBOL_WIDTHS[ch] ?? 600) * size) / 1000;
  return width;
}

/** WinAnsi characters above 0x7F that are not Latin-1 (the 0x80-0x9F block). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function isWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

export interface Piece {
  text: string;
  font: FontKey;
}

/** A word is what sits between two spaces; it may mix fonts ("10 kΩ" has the word "kΩ"). */
export type Word = Piece[];

export interface TextMeasurer {
  width(text: string, font: FontKey, size: number): number;
}

/** Splits `**bold**` markup into runs and moves characters missing from WinAnsi to the Symbol font. */
export function parseRich(source: string, base: FontKey = 'regular'): Piece[] {
  const pieces: Piece[] = [];
  const push = (text: string, font: FontKey) => {
    const last = pieces[pieces.length - 1];
    if (last && last.font === font) last.text += text;
    else pieces.push({ text, font });
  };
  source.split('**').forEach((segment, index) => {
    const font: FontKey = index % 2 === 1 ? 'bold' : base;
    for (const ch of segment) {
      const symbol = SYMBOL_GLYPHS[ch];
      if (symbol !== undefined) push(symbol, 'symbol');
      else if (isWinAnsi(ch)) push(ch, font);
      else throw new Error(`character ${JSON.stringify(ch)} cannot be printed with the standard fonts`);
    }
  });
  return pieces;
}

export function toWords(pieces: Piece[]): Word[] {
  const words: Word[] = [];
  let current: Word = [];
  for (const piece of pieces) {
    const parts = piece.font === 'symbol' ? [piece.text] : piece.text.split(' ');
    parts.forEach((part, index) => {
      if (index > 0) {
        if (current.length > 0) words.push(current);
        current = [];
      }
      if (part !== '') current.push({ text: part, font: piece.font });
    });
  }
  if (current.length > 0) words.push(current);
  return words;
}

export function wordWidth(word: Word, size: number, m: TextMeasurer): number {
  return word.reduce((sum, piece) => sum + m.width(piece.text, piece.font, size), 0);
}

export interface Line {
  words: Word[];
  /** Natural width, single spaces between words. */
  width: number;
  /** Last line of its paragraph (never justified). */
  last: boolean;
}

/** Greedy wrapping; explicit newlines in the source start a new line. */
export function wrapRich(
  source: string,
  width: number,
  size: number,
  m: TextMeasurer,
  base?: FontKey,
): Line[] {
  const lines: Line[] = [];
  const space = m.width(' ', 'regular', size);
  for (const paragraph of source.split('\n')) {
    const words = toWords(parseRich(paragraph, base));
    let current: Word[] = [];
    let currentWidth = 0;
    for (const word of words) {
      const w = wordWidth(word, size, m);
      const next = current.length === 0 ? w : currentWidth + space + w;
      if (current.length > 0 && next > width) {
        lines.push({ words: current, width: currentWidth, last: false });
        current = [word];
        currentWidth = w;
      } else {
        current.push(word);
        currentWidth = next;
      }
    }
    lines.push({ words: current, width: currentWidth, last: true });
  }
  return lines;
}

export interface PlacedPiece {
  text: string;
  font: FontKey;
  x: number;
  /** Extra space added to each space character inside this piece (justification). */
  wordSpacing: number;
}

/**
 * Merges a line's words into as few same-font pieces as possible, each with its x position, so a
 * line becomes one or a few text-show operations like in a typeset manual.
 */
export function placeLine(
  line: Line,
  x: number,
  size: number,
  m: TextMeasurer,
  justifyWidth?: number,
): PlacedPiece[] {
  const space = m.width(' ', 'regular', size);
  const gaps = line.words.length - 1;
  const extra = justifyWidth !== undefined && !line.last && gaps > 0 ? (justifyWidth - line.width) / gaps : 0;
  const placed: PlacedPiece[] = [];
  let cursor = x;
  let open: PlacedPiece | undefined;
  line.words.forEach((word, wordIndex) => {
    word.forEach((piece, pieceIndex) => {
      const startsWord = pieceIndex === 0 && wordIndex > 0;
      if (open && open.font === piece.font) {
        open.text += startsWord ? ' ' + piece.text : piece.text;
      } else {
        if (startsWord) cursor += space + extra;
        open = { text: piece.text, font: piece.font, x: cursor, wordSpacing: extra };
        placed.push(open);
      }
      cursor = open.x + pieceWidth(open, size, m);
    });
  });
  return placed;
}

function pieceWidth(piece: PlacedPiece, size: number, m: TextMeasurer): number {
  const spaces = piece.text.split(' ').length - 1;
  return m.width(piece.text, piece.font, size) + spaces * piece.wordSpacing;
}
