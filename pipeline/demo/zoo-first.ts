/**
 * The code section as the zoo's first eight layouts draw it (a table, wrapped or unruled; procedures;
 * margin entries; two tables side by side; a rotated table; cards; lower-case codes). The layouts added
 * later are drawn by zoo-added.ts.
 */
import { type Box, type BoxContext, blockBoxes } from './boxes.js';
import type { LeafBlock } from './manual-source.js';
import type { Painter } from './painter.js';
import type { ZooEntry } from './zoo-added.js';
import {
  cardBox,
  type Geometry,
  listLineBox,
  marginEntryBox,
  rotatedTableBox,
  type TableSpec,
  tableBoxes,
  tablePairBox,
} from './zoo-boxes.js';
import { between, jitter, pick, round, type ZooFault, type ZooLayout, type ZooWords } from './zoo-source.js';

function remedyText(fault: ZooFault): string {
  return fault.remedy.replace(/;\s*/g, ', ');
}

function steps(fault: ZooFault): string[] {
  return fault.remedy.split(/;\s*/).map((s) => s.charAt(0).toUpperCase() + s.slice(1));
}

/** The boxes of the code section in the manual's layout (one of the first eight). */
export function codeBoxes(
  layout: ZooLayout,
  entries: ZooEntry[],
  w: ZooWords,
  p: Painter,
  ctx: BoxContext,
  g: Geometry,
  random: () => number,
): Box[] {
  const width = ctx.width;
  const head = (text: string, n?: string): Box[] =>
    blockBoxes({ heading: { text, level: 2, ...(n ? { n } : {}) } }, ctx);
  const para = (text: string): Box[] => blockBoxes({ p: text }, ctx);
  const codeAlign = random() < 0.5 ? 'top' : 'middle';
  /**
   * A table of code, meaning (and cause when `cause`) and remedy, its column widths drawn around
   * `widths`, then its ruling: the draws come in this order whatever the layout.
   */
  const codeTable = (
    widths: number[],
    o: {
      cause: boolean;
      ruling: () => TableSpec['ruling'];
      align: TableSpec['codeAlign'];
      codeHeader?: string;
    },
  ): TableSpec => ({
    widths: jitter(widths, random),
    header: [
      o.codeHeader ?? w.words.code,
      w.words.meaning,
      ...(o.cause ? [w.words.cause] : []),
      w.words.remedy,
    ],
    rows: entries.map((e) => ({
      codes: [e.code],
      cells: [e.code, e.fault.meaning, ...(o.cause ? [e.fault.cause] : []), remedyText(e.fault)],
    })),
    ruling: o.ruling(),
    codeAlign: o.align,
    codeColumn: 0,
  });
  const fullTable = (widths: number[]) =>
    codeTable(widths, { cause: true, ruling: () => 'grid', align: codeAlign });
  switch (layout) {
    case 'wrapped': {
      const spec = fullTable([11, 26, 29, 34]);
      // Narrow columns: every description wraps over two lines or more.
      return tableBoxes(p, spec, width * between(random, 0.72, 0.9), g);
    }
    case 'unruled': {
      const spec = codeTable([10, 40, 50], {
        cause: false,
        ruling: () => (random() < 0.5 ? 'none' : 'header_rule'),
        align: 'top',
      });
      return tableBoxes(p, spec, width, g);
    }
    case 'procedures': {
      const separator = pick([' – ', ': ', '  '], random);
      const list = entries.map((e) => listLineBox(p, e.code, separator, e.fault.meaning, width, g));
      const sections = entries.flatMap((e, i): Box[] => {
        const heading = blockBoxes(
          { heading: { text: `${e.code} – ${e.fault.meaning}`, level: 3, style: 'bar', new_page: i === 0 } },
          ctx,
        ).map((b) => ({ ...b, codes: [e.code] }));
        const stepBlock: LeafBlock = { steps: steps(e.fault) };
        return [
          ...heading,
          ...para(`${w.words.cause}: ${e.fault.cause}.`),
          ...head(w.words.steps),
          ...blockBoxes(stepBlock, ctx),
        ];
      });
      return [...list, ...head(w.words.procedures), ...para(w.prose.procedures), ...sections];
    }
    case 'margin': {
      const margin = round(between(random, 48, 78));
      return entries.map((e) =>
        marginEntryBox(
          p,
          { code: e.code, title: e.fault.meaning, text: `${e.fault.cause}. ${remedyText(e.fault)}.` },
          width,
          g,
          margin,
        ),
      );
    }
    case 'side_by_side': {
      const half = Math.ceil(entries.length / 2);
      const spec = (list: ZooEntry[]): TableSpec => ({
        widths: jitter([22, 78], random),
        header: [w.words.code, w.words.meaning],
        rows: list.map((e) => ({ codes: [e.code], cells: [e.code, e.fault.meaning] })),
        ruling: random() < 0.7 ? 'grid' : 'header_rule',
        codeAlign,
        codeColumn: 0,
      });
      return [
        tablePairBox(
          p,
          [
            { caption: w.words.indoor, spec: spec(entries.slice(0, half)) },
            { caption: w.words.outdoor, spec: spec(entries.slice(half)) },
          ],
          width,
          g,
          round(between(random, 12, 26)),
        ),
      ];
    }
    case 'rotated': {
      const spec = fullTable([10, 30, 28, 32]);
      return [rotatedTableBox(p, w.words.codes, spec, g)];
    }
    case 'cards': {
      const style = {
        labelWidth: round(between(random, 62, 90)),
        colon: w.words.colon,
        inline: random() < 0.4,
      };
      const cardWidth = width * between(random, 0.62, 1);
      return entries.map((e) =>
        cardBox(
          p,
          e.code,
          [
            { label: w.words.card_code, value: e.code },
            { label: w.words.card_meaning, value: e.fault.meaning },
            { label: w.words.card_cause, value: e.fault.cause },
            { label: w.words.card_remedy, value: remedyText(e.fault) },
          ],
          cardWidth,
          g,
          style,
        ),
      );
    }
    case 'lowercase': {
      const spec = codeTable([12, 40, 48], {
        cause: false,
        ruling: () => (random() < 0.6 ? 'grid' : 'header_rule'),
        align: codeAlign,
        codeHeader: w.words.display,
      });
      return tableBoxes(p, spec, width, g);
    }
    default:
      throw new Error(`${layout}: drawn by zoo-added.ts`);
  }
}
