import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CORPUS, hasCorpus, noteSkip } from '../helpers/shared.js';

noteSkip('real corpus ingest', CORPUS);

describe.skipIf(!hasCorpus)(
  'real corpus: every manual ingests, with snapshots, and the bundle verifies',
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-real-'));
    const bundle = path.join(dir, 'real.bundle');
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('ingests all manuals without a failure', { timeout: 900_000 }, () => {
      const r = runCli(['ingest', CORPUS, '--bundle', bundle, '--json']);
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as {
        files: { file: string; status: string; problems: unknown[] }[];
      };
      const pdfs = fs.readdirSync(CORPUS).filter((f) => f.toLowerCase().endsWith('.pdf'));
      expect(report.files).toHaveLength(pdfs.length);
      const failed = report.files.filter((f) => f.status !== 'ingested');
      expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    });

    it('passes bundle verify', { timeout: 300_000 }, () => {
      const r = runCli(['bundle', 'verify', bundle, '--json']);
      const report = JSON.parse(r.stdout) as {
        ok: boolean;
        checks: { name: string; ok: boolean; failures: string[] }[];
      };
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      expect(r.status).toBe(0);
    });

    it('holds a snapshot for every page and error codes for the manuals that have code tables', () => {
      const info = JSON.parse(runCli(['bundle', 'info', bundle, '--json']).stdout) as {
        totals: { pages: number; snapshots: number; error_codes: number };
      };
      expect(info.totals.snapshots).toBe(info.totals.pages);
      expect(info.totals.error_codes).toBeGreaterThan(100);
    });
  },
);
