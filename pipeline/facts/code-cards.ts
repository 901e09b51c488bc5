import { cellsStand, cellsText, type ExcerptCell } from '../../src/text/excerpt-cells.js';
import { codeKey } from '../../src/text/normalise.js';
import { type Line, type PageLayout, pageText } from '../layout/types.js';
import type { ChunkRecord, ErrorCodeRecord } from '../types.js';
import { cellItems, joinLines, toSteps } from './cell-text.js';
import { codeFamily } from './code-pattern.js';
import { type ColumnRole, headerRole } from './header-words.js';
import { partOf } from './parts.js';

/** A manual documents its codes as cards only if it does so for several codes. */
const MIN_CARDS = 2;
/** A label names a field in a few words. */
const LABEL = /^(\p{L}[\p{L}\p{N} ./()-]{0,30}?)\s*:\s*(\S.*)?$/u;

interface Field {
  label: string;
  role: ColumnRole | undefined;
  lines: string[];
  /** Where the field's value starts: its continuation lines start there too. */
  valueX: number;
}

interface Card {
  code: string;
  page: number;
  fields: Field[];
  /** Where the card's labels start: a value printed inline after its label wraps back to here. */
  labelX: number;
  /** Baseline of the card's last line: a card's lines follow each other closely. */
  lastY: number;
}

/** "Label: value" as a line prints it: a label segment ending with a colon, or the colon inside the text. */
function labelled(line: Line): { label: string; value: string; valueX: number } | undefined {
  const first = line.segments[0];
  if (!first) return undefined;
  if (/:\s*$/.test(first.text) && line.segments.length >= 2) {
    const label = first.text.replace(/\s*:\s*$/, '');
    const rest = line.segments.slice(1);
    if (!LABEL.test(`${label}:`)) return undefined;
    return { label, value: rest.map((s) => s.text).join(' '), valueX: rest[0]!.x0 };
  }
  const m = LABEL.exec(line.text.trim());
  if (!m?.[2]) return undefined;
  const perChar = (line.x1 - line.x0) / Math.max(1, line.text.length);
  return { label: m[1]!, value: m[2], valueX: line.x0 + (line.text.length - m[2].length) * perChar };
}

/**
 * Codes a manual documents as cards of "label: value" lines, one card per code: a line labelled as the
 * code ("Code: E12", "Anzeige: dF") opens a card, the following labelled lines are its fields, and lines
 * that start where a value starts continue the field above. The field its label names as the meaning is
 * the title; causes and remedies come from the fields labelled so. The excerpt is the card's fields,
 * each labelled and verbatim on the page.
 */
export function codesFromCards(
  pages: PageLayout[],
  chunks: ChunkRecord[],
  known: Set<string>,
): ErrorCodeRecord[] {
  const cards: Card[] = [];
  for (const page of pages) {
    let open: Card | undefined;
    for (const line of page.lines) {
      const field = labelled(line);
      const role = field ? headerRole(field.label) : undefined;
      if (field && role === 'code' && codeFamily(field.value) !== undefined) {
        open = { code: field.value.trim(), page: page.page, fields: [], labelX: line.x0, lastY: line.y };
        cards.push(open);
        open.fields.push({ label: field.label, role, lines: [field.value], valueX: field.valueX });
        continue;
      }
      if (!open) continue;
      if (line.y - open.lastY > line.size * 2) {
        open = undefined;
        continue;
      }
      const last = open.fields[open.fields.length - 1]!;
      const near = (x: number) => Math.abs(line.x0 - x) <= Math.max(3, line.size * 0.5);
      if (field && field.label.split(/\s+/).length <= 4) {
        open.fields.push({ label: field.label, role, lines: [field.value], valueX: field.valueX });
      } else if (near(last.valueX) || near(open.labelX)) {
        last.lines.push(line.text.trim());
      } else {
        open = undefined;
        continue;
      }
      open.lastY = line.y;
    }
  }
  const full = cards.filter((c) => c.fields.some((f) => f.role === 'title'));
  if (full.length < MIN_CARDS) return [];
  const out: ErrorCodeRecord[] = [];
  const seen = new Set<string>();
  for (const card of full) {
    const key = codeKey(card.code);
    if (known.has(key) || seen.has(key)) continue;
    seen.add(key);
    const page = pages.find((p) => p.page === card.page)!;
    const text = (f: Field) => joinLines(f.lines);
    const title = text(card.fields.find((f) => f.role === 'title')!);
    const causes = card.fields.filter((f) => f.role === 'cause').flatMap((f) => cellItems(f.lines));
    const steps = toSteps(card.fields.filter((f) => f.role === 'step').flatMap((f) => cellItems(f.lines)));
    const cells: ExcerptCell[] = card.fields.map((f) => ({ label: f.label, lines: f.lines, text: text(f) }));
    const excerpt = cellsText(cells);
    const stands = cellsStand(excerpt, cells, [pageText(page)]);
    const anchor = card.fields[0]!.lines[0]!;
    const titleLines = card.fields.find((f) => f.role === 'title')!.lines.join('\n');
    out.push({
      code: card.code,
      title,
      causes,
      steps,
      part: partOf(title) ?? (causes[0] ? partOf(causes[0]) : null),
      excerpt: stands ? excerpt : titleLines,
      excerptCells: stands ? cells : null,
      page: card.page,
      pages: [card.page],
      chunkId:
        chunks.find((c) => c.pageStart <= card.page && c.pageEnd >= card.page && c.text.includes(anchor))
          ?.id ?? null,
      procedure: null,
    });
  }
  return out;
}
