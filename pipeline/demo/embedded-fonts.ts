/**
 * Embedded TrueType fonts for the text-layer variants of the layout zoo that write text as most producers
 * do: a subset font embedded Identity-H, with a ToUnicode CMap mapping glyphs back to text, or a CMap that
 * maps ligature glyphs to their presentation-form code point, to nothing, or no CMap at all.
 *
 * The font is Liberation Sans (SIL Open Font License 1.1), the TrueType copy pdfjs-dist already ships in
 * its standard_fonts folder. It is metric-compatible with Helvetica, so a page measured with the standard
 * font keeps its geometry when drawn with it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FontKey } from './text.js';

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');

const FILES: Partial<Record<FontKey, string>> = {
  regular: 'LiberationSans-Regular.ttf',
  bold: 'LiberationSans-Bold.ttf',
  italic: 'LiberationSans-Italic.ttf',
};

/** What the ToUnicode CMap says of a ligature glyph, or `absent`: the font has no ToUnicode at all. */
export type LigatureMapping = 'letters' | 'codepoint' | 'nothing' | 'absent';

/** Presentation-form ligatures the font has a glyph for, and the letters each stands for. */
const LIGATURES: [string, number][] = [
  ['fi', 0xfb01],
  ['fl', 0xfb02],
];

/** The name a face is registered under; undefined for the Symbol font, which stays the standard one. */
export function embeddedFontName(font: FontKey): string | undefined {
  return FILES[font] ? `zoo-embedded-${font}` : undefined;
}

export function registerEmbeddedFonts(doc: PDFKit.PDFDocument): void {
  for (const [font, file] of Object.entries(FILES))
    doc.registerFont(`zoo-embedded-${font}`, path.join(FONT_DIR, file));
}

/** "fi" and "fl" drawn as their ligature glyphs, as a typesetter does. */
export function withLigatures(text: string): string {
  let out = text;
  for (const [letters, cp] of LIGATURES) out = out.split(letters).join(String.fromCodePoint(cp));
  return out;
}

/** pdfkit's embedded font, as far as its ToUnicode CMap is concerned. */
interface EmbeddedFont {
  unicode: number[][];
  embed(): unknown;
  toUnicodeCmap(): unknown;
  dictionary: { data: Record<string, unknown>; end(...args: unknown[]): unknown };
}

const patched = new WeakSet<object>();

/**
 * Makes a font's ToUnicode CMap say of its ligature glyphs what `mapping` says, when the font is written
 * at the end of the document. pdfkit maps a glyph to the code points it was laid out from (U+FB01 here).
 */
export function patchToUnicode(font: unknown, mapping: LigatureMapping): void {
  const f = font as EmbeddedFont;
  if (!f || typeof f.embed !== 'function' || !Array.isArray(f.unicode) || patched.has(f)) return;
  patched.add(f);
  const embed = f.embed.bind(f);
  f.embed = () => {
    f.unicode = f.unicode.map((cps) => {
      const ligature = LIGATURES.find(([, cp]) => cps?.length === 1 && cps[0] === cp);
      if (!ligature) return cps;
      if (mapping === 'letters') return [...ligature[0]].map((c) => c.codePointAt(0)!);
      if (mapping === 'nothing') return [];
      return cps;
    });
    if (mapping === 'absent') {
      f.toUnicodeCmap = () => undefined;
      const end = f.dictionary.end.bind(f.dictionary);
      f.dictionary.end = (...args: unknown[]) => {
        delete f.dictionary.data.ToUnicode;
        return end(...args);
      };
    }
    return embed();
  };
}
