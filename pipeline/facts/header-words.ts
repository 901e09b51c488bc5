import { fold } from '../../src/text/normalise.js';
import { anyOf, readerWords } from './reader-words.js';

/** What a table column holds, as its header says. */
export type ColumnRole = 'code' | 'title' | 'cause' | 'step' | 'part' | 'not-code';

/*
 * Header words in the languages manuals come in (data/layout/reader-words.yaml, column_headers), matched as
 * whole words against the folded (lower-case, accent-free) header text of one column. A header that names
 * codes ("Error code", "Fehleranzeige") is a code header; otherwise the first role whose words it holds
 * wins, in the order of headerRole, so "Error description" is a title and "Failure causes" a cause.
 */
const headers = readerWords.column_headers;
const wholeWords = (list: readonly string[]) => new RegExp(String.raw`\b(?:${anyOf(list)})\b`);
const NOT_CODE = wholeWords(headers.not_code);
const STRONG_TITLE = wholeWords(headers.strong_title);
const CAUSE = wholeWords(headers.cause);
const STEP = wholeWords(headers.step);
const WEAK_TITLE = wholeWords(headers.weak_title);
const PART = wholeWords(headers.part);
const CODE = wholeWords(headers.code);
/** Words by which a header names its column as the code column, even among other words. */
const NAMES_CODES = wholeWords(headers.names_codes);
/** Words that, beside a code word, say the column holds something else ("Sub-code", "Register address"). */
const NAMES_CODES_EXCEPT = new RegExp(String.raw`\b(?:${anyOf(headers.names_codes_except)})`);

/** The role a column header names, or undefined when it names none of them. */
export function headerRole(header: string): ColumnRole | undefined {
  const text = fold(header).replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  if (
    NAMES_CODES.test(text) &&
    !STRONG_TITLE.test(text) &&
    !CAUSE.test(text) &&
    !NAMES_CODES_EXCEPT.test(text)
  ) {
    return 'code';
  }
  if (NOT_CODE.test(text)) return 'not-code';
  if (STRONG_TITLE.test(text)) return 'title';
  if (PART.test(text)) return 'part';
  if (CAUSE.test(text)) return 'cause';
  if (STEP.test(text)) return 'step';
  if (WEAK_TITLE.test(text)) return 'title';
  if (CODE.test(text)) return 'code';
  return undefined;
}

/**
 * Words that say a page deals with faults: a table of codes on such a page (or under such a heading) is an
 * error-code table; elsewhere code-like tokens are more likely part numbers, terminals or parameters.
 */
const FAULT_CONTEXT = wholeWords(readerWords.fault_context);

export function mentionsFaults(text: string): boolean {
  return FAULT_CONTEXT.test(fold(text));
}
