import crypto from 'node:crypto';
import os from 'node:os';
import Database from 'better-sqlite3';
import { FORMAT_VERSION } from '../../src/bundle/schema.js';
import { projectPath } from '../../src/project-path.js';
import { demoSourcesHash, generateDemoCorpus } from '../demo/generate.js';
import { EXTRACTOR_VERSION } from '../extract-document.js';
import { type IngestEvent, type IngestReport, ingest } from './run.js';

export const DEMO_BUNDLE = projectPath('data', 'demo.bundle');
const DEMO_BUILD_DIR = projectPath('data', 'demo', 'build');
const STAMP_KEY = 'demo_stamp';

export interface DemoBundle {
  bundle: string;
  rebuilt: boolean;
  report: IngestReport | null;
}

/**
 * Makes sure data/demo.bundle matches the demo sources, the extractor and the bundle format: when any of
 * them changed (or the bundle is missing or unreadable), regenerates the demo PDFs and ingests them.
 */
export async function ensureDemoBundle(
  options: { bundle?: string; jobs?: number; force?: boolean; onEvent?: (e: IngestEvent) => void } = {},
): Promise<DemoBundle> {
  const bundle = options.bundle ?? DEMO_BUNDLE;
  const stamp = crypto
    .createHash('sha256')
    .update(`${demoSourcesHash()}:extractor=${EXTRACTOR_VERSION}:format=${FORMAT_VERSION}`)
    .digest('hex');
  if (!options.force && readStamp(bundle) === stamp) return { bundle, rebuilt: false, report: null };
  await generateDemoCorpus(DEMO_BUILD_DIR);
  const report = await ingest(
    {
      paths: [DEMO_BUILD_DIR],
      bundle,
      jobs: options.jobs ?? os.availableParallelism(),
      snapshots: true,
      strict: true,
      reuse: !options.force,
      meta: { [STAMP_KEY]: stamp },
    },
    options.onEvent,
  );
  if (!report.written) throw new Error(`demo bundle could not be built: ${report.reason}`);
  return { bundle, rebuilt: true, report };
}

function readStamp(bundle: string): string | undefined {
  try {
    const db = new Database(bundle, { readonly: true, fileMustExist: true });
    try {
      return (
        db.prepare('SELECT value FROM meta WHERE key = ?').get(STAMP_KEY) as { value: string } | undefined
      )?.value;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}
