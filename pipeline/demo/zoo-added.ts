/**
 * The code sections of the layouts added to the zoo later (see ZOO_LAYOUTS): a fault table continued over
 * a page break with or without its header repeated, a long three-column table, a code with its name in
 * italics under it and several cause/remedy sub-rows, a summary table with a procedure section per code,
 * a table listed code by code in the contents and in an index, display codes in mixed case beside
 * capitals, and (with zoo.ts) a manual printed in two languages one after the other.
 */
import { type Box, type BoxContext, blockBoxes } from './boxes.js';
import type { LeafBlock } from './manual-source.js';
import { PAGE } from './page-geometry.js';
import type { Painter } from './painter.js';
import { leaderLineBox, panelBox, subrowGroupBox } from './zoo-added-boxes.js';
import { columnWidths, type Geometry, headerBox, type TableSpec, tableBoxes } from './zoo-boxes.js';
import { type AddedLayout, between, type ZooFault, type ZooWords } from './zoo-source.js';

export interface ZooEntry {
  code: string;
  fault: ZooFault;
}

/** What a layout adds to the manual: its code section, and boxes for the end of the manual (an index). */
export interface ZooSection {
  boxes: Box[];
  after?: Box[];
}

export type { AddedLayout };

/** The frame's height: a box taller than this starts no page. */
const PAGE_HEIGHT = PAGE.contentBottom - PAGE.contentTop;
/** About what the section heading and its paragraph take at the top of the code section's page. */
const SECTION_TOP = 80;

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)]!;
}

function remedyText(fault: ZooFault): string {
  return fault.remedy.replace(/;\s*/g, ', ');
}

function steps(fault: ZooFault): string[] {
  return fault.remedy.split(/;\s*/).map((s) => s.charAt(0).toUpperCase() + s.slice(1));
}

/**
 * A drawing above a table, sized so that the table breaks over the page after `1 + floor(random * (n - 2))`
 * of its rows (one row at least on each page); none when the table would not reach the page's end.
 */
function pushDown(table: Box[], caption: string, width: number, g: Geometry, random: () => number): Box[] {
  const rows = table.length - 1;
  const first = 1 + Math.floor(random() * Math.max(1, rows - 2));
  const used = SECTION_TOP + table.slice(0, first + 1).reduce((h, b) => h + b.height + b.spaceBefore, 0);
  const free = PAGE_HEIGHT - used - (table[first + 1]?.height ?? 0) / 2 - 8;
  return free >= 40 ? [panelBox(caption, width, free, g)] : [];
}

/** The code section of an added layout. `pagesOf` gives, once the manual is laid out, a code's pages. */
export function addedCodeBoxes(
  layout: AddedLayout,
  entries: ZooEntry[],
  w: ZooWords,
  p: Painter,
  ctx: BoxContext,
  g: Geometry,
  random: () => number,
  pagesOf: (code: string) => number[],
  tag = '',
): ZooSection {
  const width = ctx.width;
  const codeAlign = random() < 0.5 ? 'top' : 'middle';
  const ruling = (): TableSpec['ruling'] => pick(['grid', 'grid', 'header_rule', 'none'] as const, random);
  const tagged = (code: string) => [`${code}${tag}`];
  const table = (header: string[], cells: (e: ZooEntry) => string[], widths: number[]): TableSpec => ({
    widths: widths.map((x) => Math.round(x * between(random, 0.8, 1.2) * 10) / 10),
    header,
    rows: entries.map((e) => ({ codes: tagged(e.code), cells: cells(e) })),
    ruling: ruling(),
    codeAlign,
    codeColumn: 0,
  });
  switch (layout) {
    case 'continued': {
      const spec = table(
        [w.words.code, w.words.meaning, w.words.cause, w.words.remedy],
        (e) => [e.code, e.fault.meaning, e.fault.cause, remedyText(e.fault)],
        [12, 28, 28, 32],
      );
      const repeat = pick(['none', 'header', 'caption'] as const, random);
      const boxes = tableBoxes(
        p,
        spec,
        width,
        g,
        repeat === 'none'
          ? undefined
          : { caption: repeat === 'caption' ? `${w.words.codes} ${w.words.continued}` : '' },
      );
      return { boxes: [...pushDown(boxes, w.words.panel, width, g, random), ...boxes] };
    }
    case 'three_column': {
      const spec = table(
        [w.words.code, w.words.name, w.words.remedy],
        (e) => [e.code, e.fault.meaning, `${e.fault.cause}. ${remedyText(e.fault)}.`],
        [12, 34, 54],
      );
      const boxes = tableBoxes(p, spec, width, g, random() < 0.5 ? { caption: '' } : undefined);
      const push = random() < 0.5 ? pushDown(boxes, w.words.panel, width, g, random) : [];
      return { boxes: [...push, ...boxes] };
    }
    case 'subrows': {
      const grid = random() < 0.7;
      const groups = entries.map((e) => {
        const [first, ...rest] = steps(e.fault);
        const rows: [string, string][] = [];
        if (rest.length > 0 && random() < 0.5) {
          rows.push([e.fault.cause, first!]);
          for (const s of rest) rows.push(['', s]);
        } else rows.push([e.fault.cause, remedyText(e.fault)]);
        if (rows.length < 2 || random() < 0.6) rows.push([w.words.board_cause, w.words.board_remedy]);
        return { code: e.code, name: e.fault.meaning, rows };
      });
      const spec: TableSpec = {
        widths: [26, 34, 40].map((x) => Math.round(x * between(random, 0.85, 1.15) * 10) / 10),
        header: [w.words.code, w.words.cause, w.words.remedy],
        // The widths make room for each column's longest word, the name's in the first.
        rows: groups.map((gr) => ({
          codes: [],
          cells: [
            `${gr.code} ${gr.name}`,
            gr.rows.map((r) => r[0]).join(' '),
            gr.rows.map((r) => r[1]).join(' '),
          ],
        })),
        ruling: grid ? 'grid' : 'header_rule',
        codeAlign: 'top',
        codeColumn: 0,
      };
      const widths = columnWidths(p, spec, width - g.inset, g);
      return {
        boxes: [
          headerBox(p, spec, widths, g),
          ...groups.map((gr) => ({ ...subrowGroupBox(p, gr, widths, g, grid), codes: tagged(gr.code) })),
        ],
      };
    }
    case 'summary': {
      const spec = table(
        [w.words.code, w.words.meaning, w.words.see],
        (e) => [e.code, e.fault.meaning, `4.${entries.indexOf(e) + 1}`],
        [14, 66, 20],
      );
      const sections = entries.flatMap((e, i): Box[] => {
        const heading = blockBoxes(
          { heading: { n: `4.${i + 1}`, text: `${w.words.code} ${e.code}`, level: 3, new_page: i === 0 } },
          ctx,
        ).map((b) => ({ ...b, codes: tagged(e.code) }));
        const meaning = blockBoxes(
          { p: `**${w.words.card_meaning}${w.words.colon}** ${e.fault.meaning}` },
          ctx,
        );
        meaning[0] = { ...meaning[0]!, codes: tagged(e.code) };
        const stepBlock: LeafBlock = { steps: steps(e.fault) };
        return [
          ...heading,
          ...meaning,
          ...blockBoxes({ p: `**${w.words.card_cause}${w.words.colon}** ${e.fault.cause}.` }, ctx),
          ...blockBoxes({ heading: { text: w.words.steps, level: 3 } }, ctx),
          ...blockBoxes(stepBlock, ctx),
        ];
      });
      return {
        boxes: [
          ...tableBoxes(p, spec, width * between(random, 0.8, 1), g),
          ...blockBoxes({ p: w.prose.procedures }, ctx),
          ...sections,
        ],
      };
    }
    case 'navigation': {
      // Each code is a contents entry (a dot leader to its page) and an index entry at the end.
      const separator = pick([' ', ' – '], random);
      const spec = table(
        [w.words.code, w.words.meaning, w.words.remedy],
        (e) => [e.code, e.fault.meaning, remedyText(e.fault)],
        [12, 40, 48],
      );
      const boxes = tableBoxes(p, spec, width, g).map((b, i) =>
        i === 0
          ? b
          : {
              ...b,
              toc: { level: 2, title: `${entries[i - 1]!.code}${separator}${entries[i - 1]!.fault.meaning}` },
            },
      );
      const codeFirst = random() < 0.5;
      const sorted = [...entries].sort((a, b) =>
        codeFirst ? a.code.localeCompare(b.code) : a.fault.meaning.localeCompare(b.fault.meaning),
      );
      const index = sorted.map((e) =>
        leaderLineBox(
          codeFirst ? `${e.code}${separator}${e.fault.meaning}` : `${e.fault.meaning} (${e.code})`,
          () => String(pagesOf(`${e.code}${tag}`)[0] ?? ''),
          width * 0.8,
          g,
        ),
      );
      return {
        boxes,
        after: [...blockBoxes({ heading: { n: '6', text: w.words.index, new_page: true } }, ctx), ...index],
      };
    }
    case 'mixed_case':
    case 'bilingual': {
      const spec = table(
        [layout === 'mixed_case' ? w.words.display : w.words.code, w.words.meaning, w.words.remedy],
        (e) => [e.code, e.fault.meaning, remedyText(e.fault)],
        [12, 40, 48],
      );
      return { boxes: tableBoxes(p, spec, width, g) };
    }
  }
}
