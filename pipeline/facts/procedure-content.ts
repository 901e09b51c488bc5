import type { Line, PageLayout } from '../layout/types.js';
import type { ErrorCodeRecord, StepRecord } from '../types.js';
import { joinLines, safetyNote } from './cell-text.js';
import type { ProcedureSpan } from './procedures.js';
import { anyOf, readerWords } from './reader-words.js';

/** The procedure words in the corpus languages (data/layout/reader-words.yaml, procedure). */
const words = readerWords.procedure;

/** What a code's detailed procedure adds to its table row. */
export interface ProcedureContent {
  steps: StepRecord[];
  part: ErrorCodeRecord['part'];
}

/** A numbered step's marker: "1.", "2)", "Step 3:", "Schritt 3.", "Étape 3 –" ("Step 3 is ..." is a sentence). */
const NUMBERED = new RegExp(
  String.raw`^(?:(?:${anyOf(words.step_labels)})\s+(\d{1,2})\s*[:.)–—-]|(\d{1,2})[.)](?=\s|\p{L}))\s*`,
  'iu',
);
/** A bullet opening a list item. */
const BULLET = /^(?:[•·▪●◦■□➢►‣⁃*]|[–-](?=\s))\s*/u;
/** A warning's label opening its paragraph: "WARNING", "Caution:", "ACHTUNG!". */
const WARNING_LABEL = new RegExp(String.raw`^(?:${anyOf(words.warning_labels)})\b\s*[:!.–—-]?\s*`, 'iu');
/** A parts line: "Part: ...", "Pièces : ...", "Ersatzteil: ...". */
const PART_LABEL = new RegExp(String.raw`^(?:${anyOf(words.part_labels)})\s*:\s*`, 'iu');
/** An item's reference number: "ref. 4012-220", "réf. : 4012", "Art.-Nr. 123". */
const REFERENCE = new RegExp(
  String.raw`[,(]?\s*\b(?:${anyOf(words.reference_labels)})\s*:?\s*([A-Z0-9][\w./-]*)\)?`,
  'iu',
);
/** "Step 5", "étapes 2 et 3", "Schritt 4": the steps a warning names. */
const STEP_NAMED = new RegExp(
  String.raw`\b(?:${anyOf(words.step_names)})\s+(\d{1,2})(?:\s*(?:${anyOf(words.step_name_joins)})\s*(\d{1,2}))*`,
  'giu',
);
/** Words of electrical work: a warning that names no step concerns the steps that do such work. */
const ELECTRICAL = new RegExp(String.raw`\b(?:${anyOf(words.electrical)})\b`, 'iu');

/** The lines of a procedure, in reading order, from its start line to where the next procedure starts. */
export function procedureLines(pages: Map<number, PageLayout>, span: ProcedureSpan): Line[] {
  const out: Line[] = [];
  for (let p = span.pageStart; p <= span.pageEnd; p++) {
    const lines = pages.get(p)?.lines ?? [];
    const from = p === span.pageStart ? span.startLine + 1 : 0;
    const to = p === span.pageEnd && span.endLine !== undefined ? span.endLine : lines.length;
    // Each page's lines sit far below the last page's, so that a page break reads apart from a paragraph gap.
    out.push(...lines.slice(from, to).map((l) => ({ ...l, y: l.y + p * 1e5 })));
  }
  return out;
}

interface Block {
  kind: 'step' | 'warning' | 'part' | 'text';
  number?: number;
  lines: string[];
}

/**
 * Reads a procedure's numbered steps (values kept as printed), its warnings, attached to the steps they
 * name or else to those doing electrical work, and the part its parts line names first.
 */
export function readProcedure(lines: Line[]): ProcedureContent {
  const blocks = toBlocks(lines);
  // Only numbered items are steps: bulleted lists in procedures are as often causes or conditions.
  const stepBlocks = blocks.filter((b) => b.kind === 'step' && b.number !== undefined);
  const steps: (StepRecord & { number: number })[] = stepBlocks.map((b, i) => {
    const text = joinLines(b.lines);
    return { order: i + 1, number: b.number ?? i + 1, text, safety: safetyNote(text) };
  });
  const warned = new Set<StepRecord>();
  for (const block of blocks) {
    if (block.kind !== 'warning' || steps.length === 0) continue;
    const warning = joinLines(block.lines);
    if (!/\p{L}{2}/u.test(warning)) continue;
    const named = new Set<number>();
    for (const m of warning.matchAll(STEP_NAMED)) {
      for (const n of m[0].match(/\d{1,2}/g) ?? []) named.add(Number(n));
    }
    let targets = steps.filter((s) => named.has(s.number));
    if (targets.length === 0) targets = steps.filter((s) => ELECTRICAL.test(s.text));
    if (targets.length === 0) targets = steps.slice(0, 1);
    for (const step of targets) {
      step.safety = warned.has(step) && step.safety ? `${step.safety} ${warning}` : warning;
      warned.add(step);
    }
  }
  const partBlock = blocks.find((b) => b.kind === 'part');
  return {
    steps: steps.map(({ order, text, safety }) => ({ order, text, safety })),
    part: partBlock ? partFromLine(joinLines(partBlock.lines)) : null,
  };
}

/** Groups lines into steps, warnings, parts lines and other text; a paragraph gap ends any of them. */
function toBlocks(lines: Line[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let lastY: number | undefined;
  for (const line of lines) {
    const text = line.text.trim();
    const dy = lastY === undefined ? 0 : line.y - lastY;
    lastY = line.y;
    // A page break (a jump of 1e5) continues the block: a step can run over onto the next page.
    const pageBreak = dy > 5e4;
    const gap = !pageBreak && dy > Math.max(line.size, 6) * 1.9;
    if (!/\p{L}|\d/u.test(text)) continue;
    const step = NUMBERED.exec(text);
    if (step) {
      current = { kind: 'step', number: Number(step[1] ?? step[2]), lines: [text.slice(step[0].length)] };
    } else if (BULLET.test(text)) {
      const item = text.replace(BULLET, '');
      // Bullets inside a numbered step belong to it.
      if (current?.kind === 'step' && current.number !== undefined && !gap) current.lines.push(item);
      else current = { kind: 'step', lines: [item] };
    } else if (WARNING_LABEL.test(text)) {
      current = { kind: 'warning', lines: [text.replace(WARNING_LABEL, '')].filter(Boolean) };
    } else if (PART_LABEL.test(text)) {
      current = { kind: 'part', lines: [text.replace(PART_LABEL, '')] };
    } else if (current && !gap && current.kind !== 'text') {
      current.lines.push(text);
      continue;
    } else if (current?.kind === 'text' && !gap) {
      current.lines.push(text);
      continue;
    } else {
      current = { kind: 'text', lines: [text] };
    }
    blocks.push(current);
  }
  return blocks;
}

/** "flow switch FS1, ref. 4012-220; circulator P1, ref. 4012-150." gives the first item. */
function partFromLine(text: string): ErrorCodeRecord['part'] {
  const first = text.split(/\s*;\s*/)[0]?.trim() ?? '';
  const ref = REFERENCE.exec(first);
  // The name stands before its reference; what follows it qualifies the reference (variants, models).
  const name = (ref && ref.index > 0 ? first.slice(0, ref.index) : first).replace(/[\s,;:.]+$/, '').trim();
  if (!/\p{L}{2}/u.test(name)) return null;
  return { name, reference: ref?.[1]?.replace(/[.,]+$/, '') ?? null };
}

/** "See procedure E9 in chapter 6", "voir chapitre 6", "siehe Kapitel 6": a step that only points on. */
const POINTER = new RegExp(
  String.raw`^(?:[→>]\s*)?(?:(?:please\s+)?(?:${anyOf(words.pointer_verbs)})\b|(?:${anyOf(words.pointer_places)})\b)`,
  'iu',
);

/** Whether a row's steps are missing or only point to the detailed procedure. */
export function onlyPointers(steps: StepRecord[]): boolean {
  return steps.every((s) => POINTER.test(s.text.trim()));
}
