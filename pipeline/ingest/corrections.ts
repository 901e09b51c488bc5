/**
 * The maintainer's corrections of a sidecar (`corrections: [{code, page, meaning?}]`), checked against the
 * pages they name before a document is written: the code, and the meaning when given, must stand verbatim
 * on that page's text, white space aside (the check every excerpt passes). A correction that does not is
 * a problem of the sidecar, reported with its field and line, and the file is refused.
 */
import { parseDocument } from 'yaml';
import type { SidecarCorrection } from '../../src/contract/sidecar.js';
import { collapseSpace, containsVerbatim } from '../../src/text/normalise.js';
import type { CodeLineRecord } from '../facts/code-index.js';
import type { FieldProblem } from './sidecar-file.js';

/** Lines of a page read after the code's line to find where the meaning ends. */
const MAX_EXCERPT_LINES = 6;

export type CorrectionsResult =
  | { ok: true; records: CodeLineRecord[] }
  | { ok: false; problems: FieldProblem[] };

/**
 * Checks each correction on its page and makes its record: the code's line through the line where the
 * meaning ends as the excerpt (the meaning alone when it stands elsewhere on the page), and the meaning
 * given, else the one the code index read on that page, else the rest of the code's line.
 */
export function checkCorrections(
  corrections: readonly SidecarCorrection[] | undefined,
  raw: string,
  pages: ReadonlyMap<number, string>,
  indexed: readonly CodeLineRecord[],
): CorrectionsResult {
  const problems: FieldProblem[] = [];
  const records: CodeLineRecord[] = [];
  (corrections ?? []).forEach((c, i) => {
    const at = (field: string) => lineOf(raw, ['corrections', i, field]);
    const text = pages.get(c.page);
    if (text === undefined) {
      problems.push({
        field: `corrections.${i}.page`,
        reason: `${at('page')}page ${c.page} is not a page of the manual`,
      });
      return;
    }
    if (!containsVerbatim(text, c.code)) {
      problems.push({
        field: `corrections.${i}.code`,
        reason: `${at('code')}"${c.code}" does not stand on page ${c.page}`,
      });
      return;
    }
    if (c.meaning !== undefined && !containsVerbatim(text, c.meaning)) {
      problems.push({
        field: `corrections.${i}.meaning`,
        reason: `${at('meaning')}"${short(c.meaning)}" does not stand verbatim on page ${c.page}`,
      });
      return;
    }
    records.push(record(c, text, indexed));
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, records };
}

function record(c: SidecarCorrection, text: string, indexed: readonly CodeLineRecord[]): CodeLineRecord {
  const lines = text.split('\n');
  const codeLine = lines.findIndex((l) => containsVerbatim(l, c.code));
  const fromIndex = indexed.find((r) => r.page === c.page && collapseSpace(r.code) === collapseSpace(c.code));
  if (c.meaning !== undefined) {
    const meaning = c.meaning;
    let excerpt = meaning;
    if (codeLine >= 0) {
      for (let j = codeLine; j < Math.min(lines.length, codeLine + MAX_EXCERPT_LINES); j++) {
        const run = lines.slice(codeLine, j + 1).join('\n');
        if (containsVerbatim(run, meaning)) {
          excerpt = run;
          break;
        }
      }
    }
    return { code: c.code, page: c.page, meaning: collapseSpace(meaning), excerpt };
  }
  if (fromIndex) return { ...fromIndex, code: c.code };
  // The code stands on the page (checked): on a line of its own text, or across lines, where the
  // excerpt is the code itself.
  const line = codeLine >= 0 ? lines[codeLine]! : c.code;
  const at = collapseSpace(line).indexOf(collapseSpace(c.code));
  const rest = collapseSpace(line)
    .slice(at + collapseSpace(c.code).length)
    .replace(/^[\s:=–—-]+/u, '');
  return { code: c.code, page: c.page, meaning: rest || collapseSpace(line), excerpt: line };
}

/** "line N: " for a node of the sidecar's YAML, or "" when it cannot be placed. */
function lineOf(raw: string, path: (string | number)[]): string {
  try {
    const doc = parseDocument(raw);
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    const start = node?.range?.[0];
    if (start === undefined) return '';
    return `line ${raw.slice(0, start).split('\n').length}: `;
  } catch {
    return '';
  }
}

function short(text: string): string {
  const flat = collapseSpace(text);
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}
