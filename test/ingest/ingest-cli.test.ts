import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import {
  manualPages,
  renderImageOnlyPdf,
  renderPdf,
  sidecarYaml,
  VALID_SIDECAR,
  writeManual,
} from '../helpers/pdf-fixtures.js';

let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-ingest-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function sha(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

interface JsonReport {
  written: boolean;
  reason: string | null;
  files: {
    file: string;
    status: string;
    problems: { field: string; reason: string }[];
    warnings: string[];
    error_codes: number;
  }[];
  totals: { ingested: number; reused: number; failed: number };
}

function ingestJson(args: string[]): { status: number | null; report: JsonReport; stderr: string } {
  const r = runCli(['ingest', ...args, '--json']);
  return { status: r.status, report: JSON.parse(r.stdout) as JsonReport, stderr: r.stderr };
}

function fileResult(report: JsonReport, name: string) {
  const f = report.files.find((x) => path.basename(x.file) === name);
  if (!f) throw new Error(`no result for ${name}`);
  return f;
}

describe('heatsource ingest: bad input is reported per file, the rest still ingests', () => {
  let corpus: string;
  let bundle: string;
  let result: ReturnType<typeof ingestJson>;

  beforeAll(async () => {
    corpus = path.join(tmp, 'mixed');
    bundle = path.join(tmp, 'mixed.bundle');
    const good = await renderPdf({ title: 'Good manual', pages: manualPages() });
    writeManual(corpus, 'good', good, sidecarYaml(VALID_SIDECAR));
    // The same bytes under another name: a duplicate document.
    writeManual(corpus, 'good-copy', good, sidecarYaml(VALID_SIDECAR));
    writeManual(
      corpus,
      'corrupt',
      Buffer.from('%PDF-1.7\nthis is not a pdf at all\n%%EOF'),
      sidecarYaml(VALID_SIDECAR),
    );
    const other = await renderPdf({ title: 'Truncated', pages: manualPages('truncated') });
    writeManual(
      corpus,
      'truncated',
      other.subarray(0, Math.floor(other.length / 3)),
      sidecarYaml(VALID_SIDECAR),
    );
    const encrypted = await renderPdf({ title: 'Locked', pages: manualPages('locked'), password: 'secret' });
    writeManual(corpus, 'encrypted', encrypted, sidecarYaml(VALID_SIDECAR));
    writeManual(corpus, 'scan', await renderImageOnlyPdf(), sidecarYaml(VALID_SIDECAR));
    const bad = await renderPdf({ title: 'Bad sidecar', pages: manualPages('bad sidecar') });
    writeManual(
      corpus,
      'bad-sidecar',
      bad,
      sidecarYaml({ ...VALID_SIDECAR, doc_type: 'brochure', title: '' }),
    );
    const broken = await renderPdf({ title: 'Broken yaml', pages: manualPages('broken yaml') });
    writeManual(corpus, 'broken-yaml', broken, 'title: "unclosed\nbrand: [\n');
    const latin = await renderPdf({ title: 'Latin-1 sidecar', pages: manualPages('latin-1 sidecar') });
    writeManual(corpus, 'latin1', latin);
    // "Manuel de dépannage" saved in Latin-1: é is the single byte 0xE9, not UTF-8.
    fs.writeFileSync(
      path.join(corpus, 'latin1.yaml'),
      Buffer.from(sidecarYaml({ ...VALID_SIDECAR, title: 'Manuel de dépannage' }), 'latin1'),
    );
    const lonely = await renderPdf({ title: 'No sidecar', pages: manualPages('Demotherm without sidecar') });
    writeManual(corpus, 'no-sidecar', lonely);
    result = ingestJson([corpus, '--bundle', bundle, '--no-snapshots']);
  });

  it('writes the bundle from the valid manuals and exits 7, done in part', () => {
    expect(result.status).toBe(7);
    expect(result.report.written).toBe(true);
    // Files are taken in path order, so "good-copy.pdf" comes first and "good.pdf" is its duplicate.
    expect(fileResult(result.report, 'good-copy.pdf').status).toBe('ingested');
    expect(fileResult(result.report, 'good-copy.pdf').error_codes).toBeGreaterThanOrEqual(3);
    const verify = runCli(['bundle', 'verify', bundle]);
    expect(verify.status).toBe(0);
    // Built with --no-snapshots: a fact, never a pass.
    expect(verify.stdout).toContain(
      '– every page has a snapshot: not checked, the bundle was built without snapshots',
    );
    expect(verify.stdout).not.toContain('✓ every page has a snapshot');
  });

  it('keeps the previous version of a manual whose new copy is broken, and names what the bundle lost', async () => {
    const copy = path.join(tmp, 'shrunk.bundle');
    fs.copyFileSync(bundle, copy);
    const ids = (file: string) =>
      (
        JSON.parse(runCli(['bundle', 'info', file, '--json']).stdout) as { documents: { id: string }[] }
      ).documents
        .map((d) => d.id)
        .sort();
    expect(ids(copy)).toContain('good-copy');
    // good-copy.pdf is now broken, no-sidecar.pdf is gone from the folder, and one new broken file.
    const next = path.join(tmp, 'broken-upload');
    writeManual(
      next,
      'good-copy',
      Buffer.from('%PDF-1.7\ntruncated upload\n%%EOF'),
      sidecarYaml(VALID_SIDECAR),
    );
    writeManual(next, 'corrupt', Buffer.from('%PDF-1.7\nnot a pdf\n%%EOF'), sidecarYaml(VALID_SIDECAR));
    const fresh = await renderPdf({ title: 'Another manual', pages: manualPages('another manual') });
    writeManual(next, 'another', fresh, sidecarYaml(VALID_SIDECAR));
    const r = runCli(['ingest', next, '--bundle', copy, '--no-snapshots']);
    expect(r.status, r.stderr).toBe(7);
    expect(r.stderr).toMatch(
      /✗ good-copy\.pdf: .*\(the previous version of good-copy is kept in the bundle\)/,
    );
    expect(r.stderr).toMatch(/✗ corrupt\.pdf: /);
    expect(r.stderr).toMatch(
      /the new bundle no longer holds 1 document\(s\) of the previous one: no-sidecar/,
    );
    expect(r.stdout).toMatch(/2 failed \(1 kept their previous version\)/);
    expect(ids(copy)).toEqual(['another', 'good-copy']);
    expect(runCli(['bundle', 'verify', copy]).status).toBe(0);
  });

  it('reports a duplicate document', () => {
    const f = fileResult(result.report, 'good.pdf');
    expect(f.status).toBe('failed');
    expect(f.problems[0]!.reason).toMatch(/duplicate document: same content as .*good-copy\.pdf/);
  });

  it('reports corrupt and truncated PDFs', () => {
    for (const name of ['corrupt.pdf', 'truncated.pdf']) {
      const f = fileResult(result.report, name);
      expect(f.status, name).toBe('failed');
      expect(f.problems[0]!.field).toBe('(pdf)');
    }
  });

  it('reports an encrypted PDF as password-protected', () => {
    const f = fileResult(result.report, 'encrypted.pdf');
    expect(f.status).toBe('failed');
    expect(f.problems[0]!.reason).toMatch(/password/);
  });

  it('reports an image-only PDF as having no text layer', () => {
    const f = fileResult(result.report, 'scan.pdf');
    expect(f.status).toBe('failed');
    expect(f.problems[0]!.reason).toMatch(/no text layer/);
  });

  it('refuses a sidecar that is not UTF-8, naming the line, instead of ingesting U+FFFD', () => {
    const f = fileResult(result.report, 'latin1.pdf');
    expect(f.status).toBe('failed');
    expect(f.problems[0]).toEqual({
      field: '(file)',
      reason: 'not UTF-8: line 1 holds the byte 0xe9; save the sidecar as UTF-8',
    });
  });

  it('reports each invalid sidecar field by name', () => {
    const f = fileResult(result.report, 'bad-sidecar.pdf');
    expect(f.status).toBe('failed');
    const fields = f.problems.map((p) => p.field).sort();
    expect(fields).toEqual(['doc_type', 'title']);
    const yaml = fileResult(result.report, 'broken-yaml.pdf');
    expect(yaml.status).toBe('failed');
    expect(yaml.problems[0]!.field).toBe('(yaml)');
  });

  it('ingests a PDF without sidecar with detected fields, not approved', () => {
    const f = fileResult(result.report, 'no-sidecar.pdf');
    expect(f.status).toBe('ingested');
    expect(f.warnings.join(' ')).toMatch(/no sidecar/);
    const info = JSON.parse(runCli(['bundle', 'info', bundle, '--json']).stdout) as {
      documents: { id: string; brand: string; approved: boolean; language: string }[];
    };
    const doc = info.documents.find((d) => d.id === 'no-sidecar');
    expect(doc).toMatchObject({ brand: 'Demotherm', approved: false, language: 'en' });
  });

  it('with --strict, fails and leaves the existing bundle untouched', () => {
    const before = sha(bundle);
    const strict = ingestJson([corpus, '--bundle', bundle, '--no-snapshots', '--strict']);
    expect(strict.status).not.toBe(0);
    expect(strict.report.written).toBe(false);
    expect(strict.report.reason).toMatch(/--strict/);
    expect(sha(bundle)).toBe(before);
  });

  it('exits non-zero and writes nothing when no manual is valid', () => {
    const onlyBad = path.join(tmp, 'only-bad');
    writeManual(onlyBad, 'corrupt', Buffer.from('not a pdf'), sidecarYaml(VALID_SIDECAR));
    const target = path.join(tmp, 'only-bad.bundle');
    const r = runCli(['ingest', onlyBad, '--bundle', target, '--no-snapshots']);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/no valid manual/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses a path that does not exist beside good ones as a usage error, writing nothing', () => {
    const missing = path.join(tmp, 'nowhere');
    const target = path.join(tmp, 'x.bundle');
    const r = runCli(['ingest', missing, corpus, '--bundle', target, '--no-snapshots']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(`heatsource: no such file or folder: ${missing}; nothing was ingested`);
    expect(fs.existsSync(target)).toBe(false);
  });
});

describe('heatsource ingest: incremental and atomic', () => {
  let corpus: string;
  let bundle: string;

  beforeAll(async () => {
    corpus = path.join(tmp, 'incremental');
    bundle = path.join(tmp, 'incremental.bundle');
    writeManual(
      corpus,
      'one',
      await renderPdf({ title: 'One', pages: manualPages('one') }),
      sidecarYaml(VALID_SIDECAR),
    );
    writeManual(
      corpus,
      'two',
      await renderPdf({ title: 'Two', pages: manualPages('two') }),
      sidecarYaml({ ...VALID_SIDECAR, models: [{ name: 'FX-200' }] }),
    );
  });

  it('builds with snapshots, then reuses unchanged manuals and re-extracts a changed one', async () => {
    const first = ingestJson([corpus, '--bundle', bundle, '--jobs', '2']);
    expect(first.report.totals).toMatchObject({ ingested: 2, reused: 0, failed: 0 });
    const second = ingestJson([corpus, '--bundle', bundle, '--jobs', '2']);
    expect(second.report.totals).toMatchObject({ ingested: 0, reused: 2, failed: 0 });
    writeManual(corpus, 'two', await renderPdf({ title: 'Two', pages: manualPages('two, revised') }));
    const third = ingestJson([corpus, '--bundle', bundle, '--jobs', '2']);
    expect(third.report.totals).toMatchObject({ ingested: 1, reused: 1, failed: 0 });
    const rebuilt = ingestJson([corpus, '--bundle', bundle, '--jobs', '2', '--rebuild']);
    expect(rebuilt.report.totals).toMatchObject({ ingested: 2, reused: 0, failed: 0 });
    const verify = JSON.parse(runCli(['bundle', 'verify', bundle, '--json']).stdout) as { ok: boolean };
    expect(verify.ok).toBe(true);
    const info = JSON.parse(runCli(['bundle', 'info', bundle, '--json']).stdout) as {
      totals: { snapshots: number; pages: number };
    };
    expect(info.totals.snapshots).toBe(info.totals.pages);
  });

  it('leaves the previous bundle intact when the ingest is killed (kill -9)', async () => {
    runCli(['ingest', corpus, '--bundle', bundle, '--no-snapshots']);
    const before = sha(bundle);
    // A larger corpus so the run is still going when the signal lands.
    const big = path.join(tmp, 'big');
    for (let i = 0; i < 6; i++) {
      const pages = Array.from({ length: 8 }, () => manualPages(`copy ${i}`)).flat();
      writeManual(big, `m${i}`, await renderPdf({ title: `Big ${i}`, pages }), sidecarYaml(VALID_SIDECAR));
    }
    const child = spawnCli(['ingest', big, corpus, '--bundle', bundle, '--jobs', '2']);
    const dir = path.dirname(bundle);
    const tempSeen = await waitFor(() =>
      fs.readdirSync(dir).some((f) => f.startsWith(`${path.basename(bundle)}.`) && f.endsWith('.tmp')),
    );
    expect(tempSeen).toBe(true);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(sha(bundle)).toBe(before);
    expect(runCli(['bundle', 'verify', bundle]).status).toBe(0);
    // The next run cleans up what the killed one left behind.
    runCli(['ingest', corpus, '--bundle', bundle, '--no-snapshots']);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves the previous bundle intact on Ctrl-C (SIGINT) and exits 130', async () => {
    const before = sha(bundle);
    const child = spawnCli(['ingest', path.join(tmp, 'big'), '--bundle', bundle, '--jobs', '1']);
    let progressed = false;
    child.stderr.on('data', (d: Buffer) => {
      if (d.toString().includes('✓')) progressed = true;
    });
    await waitFor(() => progressed);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(130);
    expect(sha(bundle)).toBe(before);
    expect(fs.readdirSync(path.dirname(bundle)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

async function waitFor(check: () => boolean, ms = 60_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}
