/** A4 page frame shared by the layout and the page furniture (points, origin top-left like pdfkit). */
export const PAGE = {
  width: 595.28,
  height: 841.89,
  left: 52,
  right: 595.28 - 52,
  contentTop: 66,
  contentBottom: 782,
  headerBaseline: 36,
  headerRule: 44,
  footerRule: 800,
  footerBaseline: 815,
  columnGap: 20,
} as const;

export const CONTENT_WIDTH = PAGE.right - PAGE.left;
export const COLUMN_WIDTH = (CONTENT_WIDTH - PAGE.columnGap) / 2;

export const INK = '#1c1c1c';
export const MUTED = '#555555';
export const RULE = '#8a8a8a';
export const TABLE_HEADER_FILL = '#dfe3e8';
export const BAR_FILL = '#e9edf2';

export interface TextStyle {
  size: number;
  leading: number;
}

export const BODY: TextStyle = { size: 9.5, leading: 12.6 };
export const TABLE: TextStyle = { size: 8.3, leading: 10.2 };

/** Baseline of a line box of the given style whose top is `top`. */
export function baseline(top: number, style: TextStyle): number {
  return top + style.leading / 2 + style.size * 0.33;
}
