/** The structured source of one demo manual (data/demo/manuals/*.yaml) and how to find and load it. */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { Sidecar } from '../../src/contract/sidecar.js';

/** The demo sidecars are ordinary sidecars, held to what the demo corpus promises: en/fr and an edition. */
export const sidecarSchema = Sidecar.extend({
  language: z.enum(['en', 'fr']),
  edition: z.string().min(1),
});

export type DemoSidecar = z.infer<typeof sidecarSchema>;

const headingSchema = z
  .object({
    n: z.string().optional(),
    text: z.string().min(1),
    level: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
    /** 'bar' prints the heading on a shaded band, the way fault procedures are often set. */
    style: z.enum(['plain', 'bar']).optional(),
    new_page: z.boolean().optional(),
  })
  .strict();

const tableSchema = z
  .object({
    caption: z.string().optional(),
    widths: z.array(z.number().positive()),
    header: z.array(z.string()),
    rows: z.array(z.array(z.string())),
    bold_first: z.boolean().optional(),
    align: z.array(z.enum(['left', 'center'])).optional(),
  })
  .strict()
  .refine((t) => t.header.length === t.widths.length && t.rows.every((r) => r.length === t.widths.length), {
    message: 'every table row needs one cell per column',
  });

const figureSchema = z
  .object({
    caption: z.string(),
    height: z.number().positive(),
    /** Coordinates are fractions of the figure's width and height. */
    boxes: z.array(
      z
        .object({
          x: z.number(),
          y: z.number(),
          w: z.number(),
          h: z.number(),
          label: z.string(),
          round: z.boolean().optional(),
        })
        .strict(),
    ),
    lines: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])).optional(),
    labels: z.array(z.object({ x: z.number(), y: z.number(), text: z.string() }).strict()).optional(),
  })
  .strict();

const leafBlockSchema = z.union([
  z.object({ heading: headingSchema }).strict(),
  z.object({ p: z.string() }).strict(),
  z.object({ steps: z.array(z.string()).min(1) }).strict(),
  z.object({ bullets: z.array(z.string()).min(1) }).strict(),
  z
    .object({
      warning: z
        .object({
          label: z.string(),
          text: z.string(),
          kind: z.enum(['danger', 'caution', 'note']).optional(),
        })
        .strict(),
    })
    .strict(),
  z.object({ table: tableSchema }).strict(),
  z.object({ figure: figureSchema }).strict(),
  z.object({ page_break: z.literal(true) }).strict(),
  z.object({ spacer: z.number().positive() }).strict(),
]);

const blockSchema = z.union([
  leafBlockSchema,
  z.object({ columns: z.array(leafBlockSchema).min(1) }).strict(),
]);

export type LeafBlock = z.infer<typeof leafBlockSchema>;
export type Block = z.infer<typeof blockSchema>;
export type HeadingBlock = z.infer<typeof headingSchema>;
export type TableBlock = z.infer<typeof tableSchema>;
export type FigureBlock = z.infer<typeof figureSchema>;

const layoutSchema = z
  .object({
    accent: z.string().regex(/^#[0-9a-f]{6}$/i),
    /** page_of_total: "Page 3 / 12"; page_of: "Page 3 of 12"; dash: "- 3 -" centred. */
    folio: z.enum(['page_of_total', 'page_of', 'dash']),
    /** Running header: document title on the left and brand on the right, or the other way round. */
    header_order: z.enum(['title_left', 'brand_left']),
    header_title: z.string(),
    footer_text: z.string(),
    /** Title of the contents page; without it the manual has no contents page. */
    contents_title: z.string().optional(),
    continued: z.string(),
  })
  .strict();

const coverSchema = z
  .object({
    kicker: z.string(),
    title: z.string(),
    subtitle: z.string(),
    models_heading: z.string(),
    model_lines: z.array(z.string()).min(1),
    notice: z.string(),
    company: z.string(),
    edition: z.string(),
    illustration: z.enum(['monobloc', 'split_outdoor', 'wall_unit']),
    footnote: z.string().optional(),
  })
  .strict();

export const manualSourceSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9-]+$/),
    sidecar: sidecarSchema,
    layout: layoutSchema,
    cover: coverSchema,
    body: z.array(blockSchema).min(1),
  })
  .strict();

export type ManualSource = z.infer<typeof manualSourceSchema>;
export type ManualLayout = z.infer<typeof layoutSchema>;
export type ManualCover = z.infer<typeof coverSchema>;

/** Bumped whenever a change to the generator alters its output, so cached demo builds go stale. */
export const DEMO_GENERATOR_VERSION = 'demo-generator-1';

/** data/demo, found from this module whether it runs from the sources or from dist/. */
export function demoDataDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'data', 'demo', 'manuals');
    if (existsSync(candidate)) return path.dirname(candidate);
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error('data/demo/manuals not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

function manualFiles(): string[] {
  const dir = path.join(demoDataDir(), 'manuals');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => path.join(dir, name));
}

export function loadManualSources(): ManualSource[] {
  const sources = manualFiles().map((file) => {
    const result = manualSourceSchema.safeParse(parse(readFileSync(file, 'utf8')));
    if (!result.success) {
      const issues = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`${path.basename(file)}: invalid demo manual source (${issues})`);
    }
    return result.data;
  });
  const slugs = new Set(sources.map((s) => s.slug));
  if (slugs.size !== sources.length) throw new Error('two demo manuals share a slug');
  return sources;
}

/** sha256 over every manual source (path and bytes) and the generator version. */
export function hashDemoSources(): string {
  const root = path.join(demoDataDir(), 'manuals');
  const hash = createHash('sha256').update(DEMO_GENERATOR_VERSION).update('\0');
  for (const file of manualFiles()) {
    hash.update(path.relative(root, file).split(path.sep).join('/')).update('\0');
    hash.update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}
