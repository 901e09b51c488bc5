import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { BundleBuilder, type SnapshotImage } from '../../pipeline/bundle/writer.js';
import { EXTRACTOR_VERSION } from '../../pipeline/extract-document.js';
import type { ChunkRecord, ErrorCodeRecord, ExtractedDocument, PageRecord } from '../../pipeline/types.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { BrandAliases } from '../../src/catalog/brands.js';
import type { Sidecar } from '../../src/contract/sidecar.js';
import { type BuildAppOptions, buildApp } from '../../src/serve/app.js';
import { type SqliteStateOptions, SqliteStateStore } from '../../src/state/sqlite-store.js';
import type { KeyMode } from '../../src/state/types.js';
import { type HttpReply, type HttpRequest, LoopbackClient } from '../helpers/http-request.js';

/**
 * A small bundle written through the real bundle writer, with every situation the lookup must tell
 * apart: one model in two manuals (EN, NL), a range, an alias, a code printed with two meanings in one
 * manual, a manual not approved, a zero-padded code, an extracted row whose excerpt is not on its page,
 * and snapshots for some pages only.
 */
export const FIX = {
  brand: 'Demotherm',
  alpha: 'alpha-service-en',
  alphaNl: 'alpha-service-nl',
  beta: 'beta-install-fr',
  gamma: 'gamma-guide-en',
  procedureChunk: 'alpha-service-en.p3.1',
  e9Excerpt: 'E9 Water flow error: flow switch FS1 open for 15 s while the circulator runs.',
  e9NlExcerpt: 'E9 Waterdebietfout: stromingsschakelaar FS1 15 s open terwijl de circulatiepomp draait.',
} as const;

export interface DocSpec {
  id: string;
  sidecar: Sidecar;
  pages: string[][];
  chunks: {
    page: number;
    pageEnd?: number;
    section: string[];
    kind?: ChunkRecord['kind'];
    lines: string[];
  }[];
  codes: (Omit<ErrorCodeRecord, 'chunkId' | 'pages' | 'causes' | 'steps' | 'part' | 'procedure'> &
    Partial<ErrorCodeRecord>)[];
  snapshots: number[];
  /** Each page's own language (a manual printed in several); the sidecar's language by default. */
  pageLanguages?: string[];
}

export const sidecar = (s: Partial<Sidecar> & Pick<Sidecar, 'title' | 'models'>): Sidecar => ({
  brand: FIX.brand,
  doc_type: 'service_manual',
  language: 'en',
  equipment: 'air_water',
  approved: true,
  ...s,
});

/**
 * A second brand's manual, an Air/Air split with one fault code (U4), for tests that need a brand other
 * than the fixture's own; `models` lets a test give it a model name Demotherm uses as well.
 */
export function coldwaveSplit(models: Sidecar['models'] = [{ name: 'CW-S25', aliases: [] }]): DocSpec {
  return {
    id: 'coldwave-service-en',
    sidecar: sidecar({
      brand: 'Coldwave',
      title: 'Coldwave Split Service Manual',
      equipment: 'air_air',
      models,
    }),
    pages: [['Error codes', 'U4 Communication error between indoor and outdoor unit.']],
    chunks: [{ page: 1, section: ['Error codes'], kind: 'table', lines: [] }],
    codes: [
      {
        code: 'U4',
        title: 'Communication error between indoor and outdoor unit',
        excerpt: 'U4 Communication error between indoor and outdoor unit.',
        page: 1,
      },
    ],
    snapshots: [],
  };
}

const SPECS: DocSpec[] = [
  {
    id: FIX.alpha,
    sidecar: sidecar({
      title: 'Alpha Monobloc Service Manual',
      edition: '2024-03',
      models: [
        { name: 'DT-A100-E', range: 'Alpha', aliases: ['DT-A100-TR'] },
        { name: 'DT-A200-E', range: 'Alpha', aliases: [] },
      ],
    }),
    pages: [
      ['Alpha Monobloc Service Manual', 'Models DT-A100-E and DT-A200-E'],
      [
        '5 Error codes',
        FIX.e9Excerpt,
        'E01 Outdoor air sensor open circuit: thermistor TA reads below -40 °C.',
        'P1 High pressure switch open.',
        'P1 Pump relay welded.',
        'X1 Fan blocked.',
      ],
      [
        '6 Troubleshooting procedures',
        '6.2 Procedure E9: isolate the power supply, check the strainer, then check FS1 continuity.',
      ],
      ['6.2 (continued) Replace the flow switch FS1 (part 4711) if it stays open.'],
    ],
    chunks: [
      { page: 2, section: ['5 Error codes'], kind: 'table', lines: [] },
      {
        page: 3,
        pageEnd: 4,
        section: ['6 Troubleshooting procedures', '6.2 Procedure E9'],
        kind: 'procedure',
        lines: [
          '6.2 Procedure E9: isolate the power supply, check the strainer, then check FS1 continuity.',
          '6.2 (continued) Replace the flow switch FS1 (part 4711) if it stays open.',
        ],
      },
    ],
    codes: [
      {
        code: 'E9',
        title: 'Water flow error',
        excerpt: FIX.e9Excerpt,
        page: 2,
        pages: [2, 3, 4],
        causes: ['flow switch FS1 open for 15 s'],
        steps: [
          { order: 1, text: 'Check the strainer', safety: 'Isolate the power supply first' },
          { order: 2, text: 'Check FS1 continuity', safety: null },
        ],
        part: { name: 'flow switch FS1', reference: '4711' },
        procedure: { chunkId: 'alpha-service-en.p3.1', pageStart: 3, pageEnd: 4 },
      },
      {
        code: 'E01',
        title: 'Outdoor air sensor open circuit',
        excerpt: 'E01 Outdoor air sensor open circuit: thermistor TA reads below -40 °C.',
        page: 2,
      },
      { code: 'P1', title: 'High pressure switch open', excerpt: 'P1 High pressure switch open.', page: 2 },
      { code: 'P1', title: 'Pump relay welded', excerpt: 'P1 Pump relay welded.', page: 2 },
      // Extracted with an excerpt that is not on its page: must never be served.
      { code: 'X1', title: 'Fan blocked', excerpt: 'X1 Fan motor blocked by ice.', page: 2 },
    ],
    snapshots: [1, 2, 3],
  },
  {
    id: FIX.alphaNl,
    sidecar: sidecar({
      title: 'Alpha Monobloc Servicehandleiding',
      language: 'nl',
      models: [{ name: 'DT-A100-E', range: 'Alpha', aliases: ['DT-A100-TR'] }],
    }),
    pages: [['Foutcodes', FIX.e9NlExcerpt]],
    chunks: [{ page: 1, section: ['Foutcodes'], kind: 'table', lines: [] }],
    codes: [{ code: 'E9', title: 'Waterdebietfout', excerpt: FIX.e9NlExcerpt, page: 1 }],
    snapshots: [],
  },
  {
    id: FIX.beta,
    sidecar: sidecar({
      title: 'Beta Manuel d’installation',
      doc_type: 'installer_manual',
      language: 'fr',
      models: [{ name: 'DT-B300', aliases: [] }],
    }),
    pages: [
      [
        'Codes défaut',
        'E9 Débit d’eau insuffisant : contrôler le circulateur.',
        'C4 Sonde ballon ECS débranchée.',
      ],
    ],
    chunks: [{ page: 1, section: ['Codes défaut'], kind: 'table', lines: [] }],
    codes: [
      {
        code: 'E9',
        title: 'Débit d’eau insuffisant',
        excerpt: 'E9 Débit d’eau insuffisant : contrôler le circulateur.',
        page: 1,
      },
      {
        code: 'C4',
        title: 'Sonde ballon ECS débranchée',
        excerpt: 'C4 Sonde ballon ECS débranchée.',
        page: 1,
      },
    ],
    snapshots: [],
  },
  {
    id: FIX.gamma,
    sidecar: sidecar({
      title: 'Gamma Quick Guide',
      doc_type: 'user_manual',
      approved: false,
      models: [{ name: 'DT-C400-M', aliases: [] }],
    }),
    pages: [['Display messages', 'H7 Defrost in progress.']],
    chunks: [{ page: 1, section: ['Display messages'], kind: 'text', lines: [] }],
    codes: [{ code: 'H7', title: 'Defrost in progress', excerpt: 'H7 Defrost in progress.', page: 1 }],
    snapshots: [],
  },
];

async function snapshot(page: number, shade: number): Promise<SnapshotImage> {
  const webp = await sharp({
    create: { width: 400, height: 566, channels: 3, background: { r: shade, g: 200, b: 255 - shade } },
  })
    .webp()
    .toBuffer();
  return { page, webp, width: 400, height: 566 };
}

function toExtracted(spec: DocSpec): ExtractedDocument {
  const pages: PageRecord[] = spec.pages.map((lines, i) => ({
    page: i + 1,
    width: 595,
    height: 842,
    text: lines.join('\n'),
    navigation: false,
    language: spec.pageLanguages?.[i] ?? spec.sidecar.language,
  }));
  const counters = new Map<number, number>();
  const chunks: ChunkRecord[] = spec.chunks.map((c) => {
    const n = (counters.get(c.page) ?? 0) + 1;
    counters.set(c.page, n);
    return {
      id: `${spec.id}.p${c.page}.${n}`,
      pageStart: c.page,
      pageEnd: c.pageEnd ?? c.page,
      sectionPath: c.section,
      kind: c.kind ?? 'text',
      text: c.lines.length > 0 ? c.lines.join('\n') : (spec.pages[c.page - 1] ?? []).join('\n'),
      boxes: [],
    };
  });
  const errorCodes: ErrorCodeRecord[] = spec.codes.map((c) => ({
    causes: [],
    steps: [],
    part: null,
    procedure: null,
    pages: [c.page],
    chunkId: chunks.find((ch) => ch.pageStart === c.page)?.id ?? null,
    ...c,
  }));
  return {
    id: spec.id,
    fileName: `${spec.id}.pdf`,
    sha256: crypto.createHash('sha256').update(spec.id).digest('hex'),
    sidecar: spec.sidecar,
    sidecarSource: 'file',
    extractorVersion: EXTRACTOR_VERSION,
    pageCount: pages.length,
    pages,
    chunks,
    errorCodes,
    codeLines: [],
    warnings: [],
  };
}

/**
 * Writes the fixture bundle into a fresh temporary folder and returns its path; `extra` documents join
 * the fixture's own (a second brand, for instance).
 */
export async function buildFixtureBundle(extra: DocSpec[] = []): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-api-'));
  const file = path.join(dir, 'fixture.bundle');
  const builder = new BundleBuilder(file, BrandAliases.load());
  for (const spec of [...SPECS, ...extra]) {
    const shots =
      spec.snapshots.length > 0 ? await Promise.all(spec.snapshots.map((p) => snapshot(p, p * 60))) : null;
    builder.addDocument(toExtracted(spec), shots);
  }
  builder.finish('fixture');
  return file;
}

export interface TestApi {
  app: FastifyInstance;
  /** A request over a real loopback socket to the app (listening from the first request). */
  request(req: HttpRequest): Promise<HttpReply>;
  state: SqliteStateStore;
  reader: BundleReader;
  /** Creates an account (when new) and a key for it; returns the Authorization header. */
  key(
    account?: string,
    options?: { quota?: number | null; rate?: number | null; mode?: KeyMode },
  ): Promise<{
    authorization: string;
    secret: string;
    keyId: string;
    accountId: string;
  }>;
  close(): Promise<void>;
}

/** An app over the fixture bundle with a fresh in-memory (or given) state. */
export async function testApi(
  bundle: string,
  options: Partial<BuildAppOptions> & {
    stateOptions?: SqliteStateOptions;
    stateFile?: string;
    readerOptions?: ConstructorParameters<typeof BundleReader>[2];
  } = {},
): Promise<TestApi> {
  const state = new SqliteStateStore(options.stateFile ?? ':memory:', options.stateOptions);
  const reader = new BundleReader(bundle, undefined, options.readerOptions);
  const { stateOptions: _s, stateFile: _f, readerOptions: _r, ...rest } = options;
  const app = await buildApp({ bundle: reader, state, ...rest });
  const client = new LoopbackClient(app);
  return {
    app,
    request: (req) => client.request(req),
    state,
    reader,
    async key(account = 'acme', o = {}) {
      let acc = await state.accountByName(account);
      acc ??= await state.createAccount({
        name: account,
        quota_limit: o.quota ?? null,
        rate_limit_per_minute: o.rate === undefined ? null : o.rate,
      });
      const { key, secret } = await state.createKey(acc.id, o.mode ?? 'test');
      return { authorization: `Bearer ${secret}`, secret, keyId: key.id, accountId: acc.id };
    },
    async close() {
      client.close();
      await app.close();
      await state.close();
      reader.close();
    },
  };
}
