/** Lower-case and strip accents, so "Débit" and "debit" compare equal. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .toLowerCase();
}

/** Collapses every run of white space to one space: how excerpts are compared with page text. */
export function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The key of an error code, the one the bundle writer stores (`code_norm`), the engine looks codes up by
 * and the table reader compares codes with: upper case, no spaces, hyphens, dots, colons or slashes, so
 * that "P 12", "p12" and "P-12" agree. Leading zeros are kept ("E01" and "E1" stay distinct) because
 * manufacturers use both forms for different codes; lookups try the other form only when the printed one
 * is absent (codeVariants).
 */
export function codeKey(code: string): string {
  return fold(code)
    .replace(/[\s\-_.:/]+/g, '')
    .toUpperCase();
}

/** @deprecated the same key as codeKey, kept for callers not yet moved to it. */
export const normCode = codeKey;

/** Alternative keys for a code typed without or with the zero padding the manual uses ("E1" / "E01"). */
export function codeVariants(code: string): string[] {
  const norm = codeKey(code);
  const out = new Set([norm]);
  const m = /^([A-Z]*)(0*)(\d+)([A-Z]*)$/.exec(norm);
  if (m) {
    const [, prefix, , digits, suffix] = m;
    out.add(`${prefix}${digits}${suffix}`);
    for (let width = digits!.length + 1; width <= 4; width++) {
      out.add(`${prefix}${digits!.padStart(width, '0')}${suffix}`);
    }
  }
  return [...out];
}

/** The normalised key of a model name or alias: case, accents, spaces, hyphens, dots and slashes folded. */
export function normModel(model: string): string {
  return fold(model)
    .replace(/[\s\-_./]+/g, '')
    .toUpperCase();
}

/** The normalised key of a brand name (before alias resolution). */
export function normBrand(brand: string): string {
  return fold(brand)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** A stable, readable identifier from a file name: "Toshiba HWM (EN).pdf" -> "toshiba-hwm-en". */
export function slugify(name: string): string {
  return fold(name)
    .replace(/\.pdf$/i, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Whether `excerpt` stands verbatim on a page, white space aside. */
export function containsVerbatim(pageText: string, excerpt: string): boolean {
  const needle = collapseSpace(excerpt);
  return needle.length > 0 && collapseSpace(pageText).includes(needle);
}
