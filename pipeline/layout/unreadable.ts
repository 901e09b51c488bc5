/**
 * A page whose text layer cannot be read: glyphs drawn in a font without a Unicode map (no ToUnicode
 * CMap, a subset font with Identity encoding). pdfjs then gives each glyph's number as its character,
 * and since a subset numbers its glyphs from 1 in the order they are first used, the most frequent
 * glyphs come out as control characters, which no readable text holds. Such a page says nothing: no code
 * is read from it, and the ingest names it so that a corpus maintainer can OCR or replace the file.
 */

/** Non-space characters a page needs before its text is judged: a page number alone says little. */
const MIN_CHARS = 20;
/** Share of control characters from which a page's text is glyph numbers rather than text. */
const CONTROL_SHARE = 0.1;

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/gu;

export function isUnreadableText(text: string): boolean {
  const chars = text.replace(/\s/g, '').length;
  if (chars < MIN_CHARS) return false;
  const controls = text.match(CONTROL)?.length ?? 0;
  return controls >= chars * CONTROL_SHARE;
}
