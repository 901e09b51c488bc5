/**
 * Quality against the answer keys, measured through the answer a client receives (the service layer):
 * right page and meaning, excerpt holding the meaning, negatives, free-text hit@1/hit@3; beside the
 * extractor's own recall, page accuracy, meaning match and precision.
 *
 *   npm run bench:quality -- [--corpus DIR] [--answers DIR] [--json] [--misses] [--write] [--bundle FILE]
 *   npm run bench:quality -- --zoo [--zoo-dir DIR] [--languages en,fr] [--layouts wrapped,cards] [--seed N]
 *                                  [--text-layer glyphs]
 *   npm run bench:quality -- --producer gs,mutool-convert|all [--producer-dir DIR] [--misses]
 *
 * `--origins` then measures what each source of code answers contributes (bench/quality-origins.ts): the
 * table reader alone, the code index alone and both, in sample and on the group set aside while the code
 * index was written.
 *
 * `--zoo` generates the layout zoo (pipeline/demo/zoo.ts: every layout in every language unless narrowed)
 * with its answer keys and measures on it, with figures per layout and per language; `--zoo-dir` keeps the
 * generated manuals there; `--text-layer NAME` writes every manual's text as that variant of
 * pipeline/demo/text-layer.ts says (same pages, same keys).
 *
 * `--producer` re-produces every manual of the corpus through each named PDF producer
 * (bench/quality-producers.ts; `none` is the corpus as it is), ingests and measures each apart with the same
 * keys, and prints per-producer figures, working part beside the part set aside; `--producer-dir` keeps the
 * re-produced PDFs there instead of a temporary folder.
 *
 * Defaults: ../shared/corpus and ../shared/eval/answers relative to the repository. `--write` records the
 * results in BENCHMARKS.md under "## Extraction quality"; `--misses` lists every failed key per manual,
 * except the questions of the held-out half (bench/quality-split.ts, `heldOutQuestions`), which are
 * only counted unless `--show-held-out` is given. `--reuse` with `--bundle` measures an existing bundle without ingesting.
 * `--translated` also asks the questions of data/search/eval/translated-questions.json (each a key's
 * question in another language than its manual's) without a brand, and prints hit@1/hit@3 per language.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  TEXT_LAYERS,
  type TextLayerVariant,
  writeZoo,
  ZOO_LANGUAGES,
  ZOO_LAYOUTS,
  type ZooLanguage,
  type ZooLayout,
} from '../pipeline/demo/zoo.js';
import { qualitySection, qualityTable, replaceSection } from './quality-format.js';
import { readManualGroups } from './quality-groups.js';
import { halvesTable, questionHalves } from './quality-halves.js';
import { readAnswerKeys } from './quality-keys.js';
import { measureQuality } from './quality-measure.js';
import { measureOrigins, originsTable } from './quality-origins.js';
import {
  CONTROL_PRODUCER,
  heldOutProducer,
  keysOf,
  PRODUCERS,
  type Producer,
  producerAvailable,
  producerTable,
  producerTotals,
  reproduceCorpus,
  setAsideManuals,
} from './quality-producers.js';
import { TRANSLATED_QUESTIONS, translatedTable } from './quality-translated.js';
import { zooRecorded, zooTable } from './quality-zoo.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Args {
  corpus: string;
  answers: string;
  json: boolean;
  misses: boolean;
  showHeldOut: boolean;
  reuse: boolean;
  write: boolean;
  origins: boolean;
  bundle?: string;
  zoo: boolean;
  zooDir?: string;
  languages: ZooLanguage[];
  layouts: ZooLayout[];
  seed: number;
  textLayer?: TextLayerVariant;
  translated: boolean;
  producers: (Producer | 'none')[];
  producerDir?: string;
}

function listOf<T extends string>(value: string | undefined, allowed: readonly T[], what: string): T[] {
  const items = (value ?? '').split(',').filter(Boolean);
  for (const item of items) if (!allowed.includes(item as T)) throw new Error(`unknown ${what}: ${item}`);
  return items as T[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    corpus: path.resolve(repoRoot, '../shared/corpus'),
    answers: path.resolve(repoRoot, '../shared/eval/answers'),
    json: false,
    misses: false,
    showHeldOut: false,
    reuse: false,
    write: false,
    origins: false,
    zoo: false,
    languages: [...ZOO_LANGUAGES],
    layouts: [...ZOO_LAYOUTS],
    seed: 1,
    translated: false,
    producers: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (!v) throw new Error(`${arg} needs a value`);
      return path.resolve(v);
    };
    if (arg === '--corpus') args.corpus = value();
    else if (arg === '--answers') args.answers = value();
    else if (arg === '--bundle') args.bundle = value();
    else if (arg === '--json') args.json = true;
    else if (arg === '--misses') args.misses = true;
    else if (arg === '--show-held-out') args.showHeldOut = true;
    else if (arg === '--reuse') args.reuse = true;
    else if (arg === '--translated') args.translated = true;
    else if (arg === '--write') args.write = true;
    else if (arg === '--origins') args.origins = true;
    else if (arg === '--zoo') args.zoo = true;
    else if (arg === '--zoo-dir') args.zooDir = value();
    else if (arg === '--producer') {
      const list = argv[++i] ?? '';
      args.producers =
        list === 'all' ? ['none', ...PRODUCERS] : listOf(list, ['none', ...PRODUCERS], 'producer');
    } else if (arg === '--producer-dir') args.producerDir = value();
    else if (arg === '--languages') args.languages = listOf(argv[++i], ZOO_LANGUAGES, 'language');
    else if (arg === '--layouts') args.layouts = listOf(argv[++i], ZOO_LAYOUTS, 'layout');
    else if (arg === '--text-layer') args.textLayer = listOf(argv[++i], TEXT_LAYERS, 'text layer')[0];
    else if (arg === '--seed') {
      const seed = argv[++i] ?? '';
      if (!/^\d{1,9}$/.test(seed)) throw new Error(`--seed takes a whole number, got "${seed}"`);
      args.seed = Number(seed);
    } else throw new Error(`unknown argument: ${arg}`);
  }
  return args;
}

let args: Args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (err) {
  // A wrong flag is the caller's to fix: one line and the usage status, not a stack trace.
  console.error(`bench:quality: ${(err as Error).message}`);
  process.exit(2);
}
let zooTemp: string | undefined;
if (args.zoo) {
  const dir = args.zooDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-zoo-'));
  if (!args.zooDir) zooTemp = dir;
  await writeZoo(dir, {
    layouts: args.layouts,
    languages: args.languages,
    seed: args.seed,
    ...(args.textLayer ? { textLayer: args.textLayer } : {}),
  });
  args.corpus = path.join(dir, 'corpus');
  args.answers = path.join(dir, 'answers');
  if (args.write)
    throw new Error('--write records the shared corpus; zoo figures go to BENCHMARKS.md by hand');
}
const absent = [args.corpus, args.answers].filter(
  (d) => !fs.statSync(d, { throwIfNoEntry: false })?.isDirectory(),
);
if (absent.length > 0) {
  console.log(`skipped: no corpus or answer keys at ${absent.join(', ')} (pass --corpus and --answers)`);
  process.exit(0);
}
if (args.producers.length > 0) {
  await measureProducers(args);
  process.exit(0);
}
if (args.reuse && !args.bundle) {
  console.error('bench:quality: --reuse needs --bundle FILE');
  process.exit(2);
}
// The origins measure reads the bundle the quality run built: kept in a temporary folder when not named.
const originsDir =
  args.origins && !args.bundle ? fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-origins-')) : undefined;
const bundleFile = args.bundle ?? (originsDir ? path.join(originsDir, 'quality.bundle') : undefined);
const report = await measureQuality({
  corpus: args.corpus,
  answers: args.answers,
  bundle: bundleFile,
  reuse: args.reuse,
  ...(args.translated ? { translated: TRANSLATED_QUESTIONS } : {}),
});
let origins: string | undefined;
if (args.origins && bundleFile) {
  // Every group set aside while the code index was written (ids starting `set-aside-code-index`).
  const setAside = readManualGroups().filter((g) => g.id.startsWith('set-aside-code-index'));
  origins = originsTable(await measureOrigins(bundleFile, readAnswerKeys(args.answers), setAside));
  if (originsDir) fs.rmSync(originsDir, { recursive: true, force: true });
}
if (zooTemp) fs.rmSync(zooTemp, { recursive: true, force: true });
if (args.json) {
  console.log(JSON.stringify(report));
} else {
  console.log(qualityTable(report));
  for (const g of report.groups)
    console.log(`\n${g.title} (${g.id}, gate ${g.gate}):\n${qualityTable(report, g)}`);
  console.log(`\n${halvesTable(questionHalves(report))}`);
  if (report.translated) console.log(`\n${translatedTable(report.translated, args.misses)}`);
  if (args.zoo) {
    console.log(`\n${zooTable(report)}`);
    console.log(
      `recorded figures (BENCHMARKS.md, "## Layout zoo"):\n${JSON.stringify(zooRecorded(report, args.seed))}`,
    );
  }
  if (origins) console.log(`\nWhat each source of code answers contributes:\n${origins}`);
  if (args.misses) {
    for (const m of report.manuals) {
      const a = m.answers;
      if (
        m.misses.length +
          m.extras.length +
          m.falseCodes.length +
          a.misses.length +
          a.questionMisses.length +
          a.openMisses.length +
          a.openNotFirst.length ===
        0
      )
        continue;
      console.log(`\n### ${m.document}`);
      for (const miss of a.misses) console.log(`- answer ${miss.code} ${miss.problem}: ${miss.detail}`);
      for (const miss of m.misses) console.log(`- extractor ${miss.code} ${miss.problem}: ${miss.detail}`);
      if (m.extras.length) console.log(`- not in key: ${m.extras.join(' ')}`);
      if (m.falseCodes.length) console.log(`- NEGATIVE EXTRACTED: ${m.falseCodes.join(' ')}`);
      // The held-out half of the questions is only counted (bench/quality-split.ts, heldOutQuestions).
      const held = new Set(args.showHeldOut ? [] : report.heldOutQuestions);
      const shown = <T extends { id: string }>(list: T[]): T[] => list.filter((q) => !held.has(q.id));
      const hidden = a.outcomes.filter((o) => held.has(o.id));
      if (hidden.length > 0)
        console.log(
          `- held-out half: ${hidden.length} question(s), ${hidden.filter((o) => !o.branded.at3).length} missed with the brand, ` +
            `${hidden.filter((o) => !o.open.at3).length} without (${hidden.filter((o) => o.open.at3 && !o.open.at1).length} more not first)`,
        );
      for (const q of shown(a.questionMisses))
        console.log(`- question "${q.query}" (p${q.pages.join(',')}): got ${q.got.join(', ')}`);
      for (const q of shown(a.openMisses))
        console.log(`- no brand: "${q.query}" (p${q.pages.join(',')}): got ${q.got.join(', ')}`);
      for (const q of shown(a.openNotFirst))
        console.log(`- no brand, not first: "${q.query}" (p${q.pages.join(',')}): got ${q.got.join(', ')}`);
    }
  }
}
if (args.write) {
  const file = path.join(repoRoot, 'BENCHMARKS.md');
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const machine = `${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.availableParallelism()} cores, Node ${process.version}`;
  fs.writeFileSync(
    file,
    replaceSection(before, qualitySection(report, machine, 'npm run bench:quality -- --write')),
  );
  if (!args.json) console.log(`\nrecorded in ${file}`);
}

/** The producer axis: each producer's re-produced corpus ingested and measured apart, with the same keys. */
async function measureProducers(args: Args): Promise<void> {
  const held = heldOutProducer();
  // Drawn over every manual with keys, before any producer runs (a dropped manual does not move the draw).
  const setAside = setAsideManuals(
    fs
      .readdirSync(args.answers)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => f.replace(/\.jsonl$/, '')),
  );
  const totals: unknown[] = [];
  for (const producer of args.producers) {
    if (producer !== 'none' && !producerAvailable(producer)) {
      console.log(`\n${producer}: skipped, its tool is not installed`);
      continue;
    }
    const dir = args.producerDir
      ? path.join(args.producerDir, producer)
      : fs.mkdtempSync(path.join(os.tmpdir(), `heatsource-producer-${producer}-`));
    try {
      const t0 = performance.now();
      const made =
        producer === 'none' ? undefined : reproduceCorpus(producer, args.corpus, path.join(dir, 'corpus'));
      const produceMs = Math.round(performance.now() - t0);
      if (made) keysOf(args.answers, made.produced, path.join(dir, 'answers'));
      const report = await measureQuality({
        corpus: made ? path.join(dir, 'corpus') : args.corpus,
        answers: made ? path.join(dir, 'answers') : args.answers,
      });
      const role =
        producer === 'none'
          ? 'the corpus as it is'
          : producer === CONTROL_PRODUCER
            ? 'control: structure only'
            : producer === held
              ? 'held out whole: totals only'
              : 'working';
      console.log(
        `\n${producer} (${role}; ingest ${report.ingestMs} ms wall, re-produced in ${produceMs} ms wall):`,
      );
      for (const d of made?.dropped ?? []) console.log(`not re-produced, left out: ${d.file} (${d.reason})`);
      console.log(producerTable(producer, report, setAside, producer === held, args.misses));
      totals.push({
        ...producerTotals(producer, report, setAside),
        dropped: made?.dropped.map((d) => d.file) ?? [],
      });
    } finally {
      if (!args.producerDir) fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`\ntotals:\n${totals.map((t) => JSON.stringify(t)).join('\n')}`);
}
