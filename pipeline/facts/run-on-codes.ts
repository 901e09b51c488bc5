import { codeKey } from '../../src/text/normalise.js';

/**
 * Several codes on one line: "L0: Fan motor fault; L1: Pump fault" in a list or a table cell. The line's
 * first code is the row's; each further code, after a ";" or "," and followed by ":" or "=", is an entry of
 * its own with the text up to the next one. Only codes that share the row code's letters and differ from
 * it by their digits count (a label such as "T3:" inside a description of "E5" is text).
 */
const FURTHER_CODE = /[;,]\s+([A-Z]{1,3}[ .-]?\d{1,4}(?:-\d{1,3})?)\s*[:=]\s*/g;

export interface RunOnEntry {
  code: string;
  text: string;
}

/** The row code's own text and the entries of the further codes on its line (none when there are none). */
export function runOnCodes(text: string, code: string): { own: string; others: RunOnEntry[] } {
  const prefix = letters(code);
  if (!prefix) return { own: text, others: [] };
  const own = codeKey(code);
  const hits = [...text.matchAll(FURTHER_CODE)].filter((m) => {
    const found = codeKey(m[1]!);
    return letters(m[1]!) === prefix && found !== own;
  });
  if (hits.length === 0) return { own: text, others: [] };
  const first = text.slice(0, hits[0]!.index).trim();
  if (!/\p{L}{2}/u.test(first)) return { own: text, others: [] };
  const others: RunOnEntry[] = [];
  hits.forEach((m, i) => {
    const from = m.index + m[0].length;
    const to = hits[i + 1]?.index ?? text.length;
    const entry = text
      .slice(from, to)
      .trim()
      .replace(/[;,.]$/, '')
      .trim();
    if (/\p{L}{2}/u.test(entry)) others.push({ code: m[1]!, text: entry });
  });
  return { own: first, others };
}

/** The letters a letter-and-digit code opens with ("L" of "L0", "HP" of "HP 3"), upper-cased. */
function letters(code: string): string {
  return /^([A-Za-z]{1,3})[ .-]?\d/.exec(code.trim())?.[1]?.toUpperCase() ?? '';
}
