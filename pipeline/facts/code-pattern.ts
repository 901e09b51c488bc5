/**
 * What an error code looks like when printed in a manual's code column: a letter prefix and digits
 * ("E9", "A01", "P 12", "Er 07", "HP3"), a sub-code ("A5-00", "E-101"), a letter and a hex digit ("C4",
 * "EA"), or a plain number ("9001", "112") where the column holds numbers only.
 */
export const CODE_TOKEN = /^(?:[A-Z]{1,3}[ -]?\d{1,4}(?:-\d{1,3})?|[A-Z]\d[A-Z]|[A-Z]{1,2}[ -]?[A-Z]{1,2}\d?|\d{1,4})$/;

export function looksLikeCode(text: string): boolean {
  const t = text.trim();
  return t.length >= 1 && t.length <= 9 && CODE_TOKEN.test(t);
}

/** A code with at least one letter and one digit: specific enough to recognise in running text. */
export function isDistinctiveCode(text: string): boolean {
  return /\d/.test(text) && /[A-Z]/i.test(text);
}
