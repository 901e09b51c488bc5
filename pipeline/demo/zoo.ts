/**
 * The layout zoo: small generated manuals, one per layout of fault information real manuals use and per
 * language, each with a sidecar and an answer key drawn from the same source as its PDF. Type size,
 * spacing, insets, column widths, ruling and which faults a manual lists vary with the seed, so that a
 * reading rule has to hold for the layout, not for one drawing of it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { type Box, type BoxContext, blockBoxes } from './boxes.js';
import { layoutBody } from './layout.js';
import { openManualPdf } from './manual-pdf.js';
import type { LeafBlock, ManualCover, ManualLayout } from './manual-source.js';
import { drawManualPages } from './page-furniture.js';
import { CONTENT_WIDTH } from './page-geometry.js';
import { scanPages } from './scan-pages.js';
import { seededRandom } from './seeded-random.js';
import { TextLayer, type TextLayerVariant } from './text-layer.js';
import { type AddedLayout, addedCodeBoxes, type ZooEntry, type ZooSection } from './zoo-added.js';
import { type Geometry, type TableSpec, tableBoxes } from './zoo-boxes.js';
import { codeBoxes } from './zoo-first.js';
import {
  ADDED_ZOO_LAYOUTS,
  between,
  loadZooCodes,
  loadZooWords,
  pick,
  round,
  shuffled,
  ZOO_LANGUAGES,
  ZOO_LAYOUTS,
  type ZooLanguage,
  type ZooLayout,
  type ZooWords,
} from './zoo-source.js';

export { TEXT_LAYERS, type TextLayerVariant } from './text-layer.js';
export { ZOO_LANGUAGES, ZOO_LAYOUTS, type ZooLanguage, type ZooLayout } from './zoo-source.js';

export interface ZooKeyLine {
  id: string;
  document: string;
  brand: string;
  model: string;
  code: string;
  /** The language the request names, where it is not the manual's own (a manual in two languages). */
  language?: ZooLanguage;
  pages: number[];
  meaning: string | null;
  expected_state: 'answer' | 'unknown_code';
}

export interface ZooManual {
  slug: string;
  layout: ZooLayout;
  language: ZooLanguage;
  pdf: Buffer;
  sidecar: string;
  key: ZooKeyLine[];
}

type Entry = ZooEntry;

const ACCENTS = ['#1d5c96', '#2e7d32', '#8e2430', '#5b4a9e', '#b05a00', '#00707a'];
const FOLIOS: ManualLayout['folio'][] = ['page_of_total', 'page_of', 'dash'];

function geometry(random: () => number): Geometry {
  const size = round(between(random, 7.6, 9.4));
  return {
    size,
    leading: round(size * between(random, 1.18, 1.34)),
    padX: round(between(random, 2.5, 6)),
    padY: round(between(random, 2, 5)),
    inset: round(between(random, 0, 24)),
  };
}

/** Relative widths around a base, each moved by up to a quarter. */
function isAdded(layout: ZooLayout): layout is AddedLayout {
  return (ADDED_ZOO_LAYOUTS as readonly ZooLayout[]).includes(layout);
}

/** How many codes each layout lists. */
const COUNTS: Record<ZooLayout, [number, number]> = {
  wrapped: [8, 12],
  unruled: [8, 12],
  procedures: [5, 7],
  margin: [7, 10],
  side_by_side: [8, 10],
  rotated: [7, 9],
  cards: [6, 9],
  lowercase: [8, 12],
  continued: [10, 14],
  three_column: [16, 22],
  subrows: [5, 7],
  summary: [6, 9],
  navigation: [7, 10],
  mixed_case: [9, 12],
  bilingual: [7, 10],
};

/** The language the second half of a manual in two languages is printed in. */
function secondLanguage(language: ZooLanguage): ZooLanguage {
  return language === 'en' ? 'de' : 'en';
}

export function zooSlug(layout: ZooLayout, language: ZooLanguage): string {
  return `zoo-${layout.replace(/_/g, '-')}-${language}`;
}

/**
 * One manual of the zoo: its PDF, its sidecar and its answer key, all from one seeded plan. `textLayer`
 * writes the same pages' text as that variant says (pipeline/demo/text-layer.ts); the plan, the pages and
 * the key do not change with it.
 */
export async function zooManual(
  layout: ZooLayout,
  language: ZooLanguage,
  seed: number,
  textLayer?: TextLayerVariant,
): Promise<ZooManual> {
  const words = loadZooWords(language);
  const vocab = loadZooCodes();
  const layoutIndex = ZOO_LAYOUTS.indexOf(layout);
  const random = seededRandom(
    seed * 7919 + layoutIndex * 104729 + language.charCodeAt(0) * 31 + language.charCodeAt(1),
  );
  const slug = zooSlug(layout, language);
  const brandIndex = Math.floor(random() * vocab.brands.length);
  const brand = vocab.brands[brandIndex]!;
  const prefix = vocab.model_prefixes[brandIndex % vocab.model_prefixes.length]!;
  // Model names of their own per manual: the zoo's manuals share brands, never a model.
  const series = `${'ABCDEFGHJKLNPRSUVWXYZ'[layoutIndex]}${ZOO_LANGUAGES.indexOf(language) + 1}`;
  const models = [6, 9, 12].map(
    (kw) => `${prefix}-${String(kw).padStart(2, '0')}${series}${pick(['M', 'T'], random)}`,
  );
  const [lo, hi] = COUNTS[layout];
  const count = lo + Math.floor(random() * (hi - lo + 1));
  const pool = vocab.layouts[layout].codes;
  const chosen = shuffled(pool, random).slice(0, count);
  if (layout === 'mixed_case') {
    // A code printed in small and capital letters (`Eb`, `EB`) is two faults: both are listed.
    for (const c of [...chosen])
      for (const twin of pool)
        if (twin !== c && twin.toUpperCase() === c.toUpperCase() && !chosen.includes(twin)) chosen.push(twin);
  }
  // Listed in the order the display family sorts in, like a manual's table.
  const order = new Map(pool.map((c, i) => [c, i]));
  chosen.sort((a, b) => order.get(a)! - order.get(b)!);
  // Faults are drawn by their place in the list, which is the same in every language.
  const faultOrder = shuffled(
    words.faults.map((_, i) => i),
    random,
  );
  const faultAt = (i: number) => faultOrder[i % faultOrder.length]!;
  const entries: Entry[] = chosen.map((code, i) => ({ code, fault: words.faults[faultAt(i)]! }));
  const negatives = shuffled(vocab.layouts[layout].negatives, random).slice(0, 3);
  const g = geometry(random);
  const accent = pick(ACCENTS, random);
  const title = `${words.words.title} ${models.join(' / ')}`;
  const manualLayout: ManualLayout = {
    accent,
    folio: pick(FOLIOS, random),
    header_order: random() < 0.5 ? 'title_left' : 'brand_left',
    header_title: title,
    footer_text: `${brand} · ${slug.toUpperCase()}`,
    // A manual that lists its codes in its contents always has contents.
    ...(random() < 0.5 || layout === 'navigation' ? { contents_title: words.words.contents } : {}),
    continued: words.words.continued,
  };
  const cover: ManualCover = {
    kicker: words.words.kicker,
    title: `${brand} ${models[0]} – ${models[2]}`,
    subtitle: words.words.subtitle,
    models_heading: words.words.models_heading,
    model_lines: models.map((m, i) => `${m} — ${[6, 9, 12][i]} kW`),
    notice: words.words.notice,
    company: `${brand} ${words.words.company}`,
    edition: '2025-06',
    illustration: pick(['monobloc', 'split_outdoor', 'wall_unit'] as const, random),
  };

  // The layer draws from a generator of its own, so that the plan's draws stay those of the seed.
  // A scanned manual shows its pages as images: the same manual drawn plainly, rasterised.
  const scans =
    textLayer === 'ocr_invisible' ? await scanPages((await zooManual(layout, language, seed)).pdf) : [];
  const layer = textLayer
    ? new TextLayer(
        textLayer,
        seededRandom(seed * 6151 + layoutIndex * 389 + language.charCodeAt(1)),
        chosen,
        scans,
      )
    : undefined;
  const pdf = openManualPdf(
    {
      Title: title,
      Author: brand,
      Creator: 'heatsource layout zoo',
      Producer: 'PDFKit',
      CreationDate: new Date(Date.UTC(2025, 5, 1)),
      ModDate: new Date(Date.UTC(2025, 5, 1)),
    },
    layer,
  );
  const painter = pdf.painter;
  const pagesOf = new Map<string, number[]>();
  /** The body in one language; `tag` marks the codes of a second language's pages for the key. */
  const bodyIn = (w: ZooWords, list: Entry[], tag: string): Box[] => {
    const ctx: BoxContext = { painter, width: CONTENT_WIDTH, accent, continued: w.words.continued };
    const blocks = (leaves: LeafBlock[]) => leaves.flatMap((b) => blockBoxes(b, ctx));
    const modelTable: TableSpec = {
      widths: [30, 35, 35],
      header: [w.words.model, w.words.capacity, w.words.supply],
      rows: models.map((m, i) => ({ codes: [], cells: [m, `${[6, 9, 12][i]} kW`, '230 V ~ 50 Hz'] })),
      ruling: 'grid',
      codeAlign: 'top',
      codeColumn: 0,
    };
    const section: ZooSection = isAdded(layout)
      ? addedCodeBoxes(layout, list, w, painter, ctx, g, random, (code) => pagesOf.get(code) ?? [], tag)
      : { boxes: codeBoxes(layout, list, w, painter, ctx, g, random) };
    return [
      ...blocks([{ heading: { n: '1', text: w.words.safety, new_page: tag !== '' } }, { p: w.prose.safety }]),
      ...blocks([{ heading: { n: '2', text: w.words.models } }]),
      ...tableBoxes(painter, modelTable, CONTENT_WIDTH * 0.7, { ...g, inset: 0 }).map((b) => ({
        ...b,
        codes: undefined,
      })),
      ...blocks([{ heading: { n: '3', text: w.words.operation } }, { p: w.prose.operation }]),
      ...blocks([{ heading: { n: '4', text: w.words.codes, new_page: true } }, { p: w.prose.codes }]),
      ...section.boxes,
      ...blocks([
        { heading: { n: '5', text: w.words.maintenance, new_page: layout === 'rotated' } },
        { p: w.prose.maintenance },
      ]),
      ...(section.after ?? []),
    ];
  };
  const body = bodyIn(words, entries, '');
  // A manual in two languages prints the same pages again in its second language.
  const second = layout === 'bilingual' ? secondLanguage(language) : undefined;
  const secondWords = second ? loadZooWords(second) : undefined;
  const secondEntries: Entry[] = secondWords
    ? chosen.map((code, i) => ({ code, fault: secondWords.faults[faultAt(i)]! }))
    : [];
  if (secondWords) body.push(...bodyIn(secondWords, secondEntries, `@${second}`));
  const hasContents = manualLayout.contents_title !== undefined;
  const firstBodyPage = hasContents ? 3 : 2;
  const laid = layoutBody([{ kind: 'full', boxes: body }], firstBodyPage);
  laid.pages.forEach((placements, index) => {
    for (const { box } of placements) {
      for (const code of box.codes ?? []) {
        const list = pagesOf.get(code) ?? [];
        if (!list.includes(firstBodyPage + index)) list.push(firstBodyPage + index);
        pagesOf.set(code, list);
      }
    }
  });
  drawManualPages(painter, pdf.addPage, {
    cover,
    layout: manualLayout,
    brand,
    body: laid,
    firstBodyPage,
  });
  const bytes = await pdf.finish();

  const sidecar = stringify(
    {
      title,
      brand,
      doc_type: 'service_manual',
      language,
      equipment: 'air_water',
      approved: true,
      edition: '2025-06',
      models: models.map((name) => ({ name, aliases: [] })),
    },
    { lineWidth: 0 },
  );
  const document = `${slug}.pdf`;
  const key: ZooKeyLine[] = [
    ...entries.map((e) => ({
      id: `${slug}#${e.code}`,
      document,
      brand,
      model: models[0]!,
      code: e.code,
      pages: pagesOf.get(e.code) ?? [],
      meaning: e.fault.meaning,
      expected_state: 'answer' as const,
    })),
    // The second language's pages, asked for in that language.
    ...secondEntries.map((e) => ({
      id: `${slug}#${e.code}@${second}`,
      document,
      brand,
      model: models[0]!,
      code: e.code,
      language: second,
      pages: pagesOf.get(`${e.code}@${second}`) ?? [],
      meaning: e.fault.meaning,
      expected_state: 'answer' as const,
    })),
    // A display code in mixed case asked in capitals, where the manual prints no capital twin: the code
    // that exists answers.
    ...(layout === 'mixed_case'
      ? entries
          .filter(
            (e) =>
              /[a-z]/.test(e.code) &&
              !pool.some((c) => c !== e.code && c.toUpperCase() === e.code.toUpperCase()),
          )
          .slice(0, 1)
          .map((e) => ({
            id: `${slug}#${e.code}~${e.code.toUpperCase()}`,
            document,
            brand,
            model: models[0]!,
            code: e.code.toUpperCase(),
            pages: pagesOf.get(e.code) ?? [],
            meaning: e.fault.meaning,
            expected_state: 'answer' as const,
          }))
      : []),
    ...negatives.map((code, i) => ({
      id: `${slug}#neg-${i + 1}`,
      document,
      brand,
      model: models[0]!,
      code,
      pages: [],
      meaning: null,
      expected_state: 'unknown_code' as const,
    })),
  ];
  for (const k of key) {
    if (k.expected_state === 'answer' && k.pages.length === 0)
      throw new Error(`${slug}: ${k.code} placed on no page`);
  }
  return {
    slug,
    layout,
    language,
    pdf: bytes,
    sidecar: `# Layout zoo (generated)\n${sidecar}`,
    key,
  };
}

/**
 * Writes the zoo to `<dir>/corpus` (PDF + sidecar per manual) and `<dir>/answers` (one key file per
 * manual), in the format of the shared answer keys, so that bench:quality reads it like any corpus.
 */
export async function writeZoo(
  dir: string,
  options: {
    layouts: readonly ZooLayout[];
    languages: readonly ZooLanguage[];
    seed: number;
    textLayer?: TextLayerVariant;
  },
): Promise<ZooManual[]> {
  const corpus = path.join(dir, 'corpus');
  const answers = path.join(dir, 'answers');
  await mkdir(corpus, { recursive: true });
  await mkdir(answers, { recursive: true });
  const out: ZooManual[] = [];
  for (const layout of options.layouts) {
    for (const language of options.languages) {
      const m = await zooManual(layout, language, options.seed, options.textLayer);
      await writeFile(path.join(corpus, `${m.slug}.pdf`), m.pdf);
      await writeFile(path.join(corpus, `${m.slug}.yaml`), m.sidecar);
      await writeFile(
        path.join(answers, `${m.slug}.jsonl`),
        m.key.map((k) => JSON.stringify(k)).join('\n') + '\n',
      );
      out.push(m);
    }
  }
  return out;
}
