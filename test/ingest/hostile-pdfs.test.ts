import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../api/build.js';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { deepArraysPdf, emptyPagesPdf, flateBombPdf, pageTreeCyclePdf } from '../helpers/hostile-pdfs.js';
import { manualPages, renderPdf, sidecarYaml, VALID_SIDECAR, writeManual } from '../helpers/pdf-fixtures.js';

let tmp: string;
const GiB = 1024 ** 3;

beforeAll(() => {
  ensureBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-hostile-'));
}, 300_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Report {
  written: boolean;
  files: {
    file: string;
    status: string;
    problems: { field: string; reason: string }[];
    kept_previous: boolean;
  }[];
}

/**
 * Runs `heatsource ingest --json` as a child process and reads its peak resident memory (VmHWM) from /proc
 * while it runs: memory is what a hostile file attacks, and only the process itself can say what it used.
 */
function ingestMeasured(
  args: string[],
): Promise<{ status: number | null; report: Report; peakBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'ingest', ...args, '--json'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let peakBytes = 0;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.resume();
    const poll = setInterval(() => {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
        peakBytes = Math.max(peakBytes, kb * 1024);
      } catch {
        // The process has exited.
      }
    }, 50);
    child.on('error', reject);
    child.on('close', (status) => {
      clearInterval(poll);
      try {
        resolve({ status, report: JSON.parse(stdout) as Report, peakBytes });
      } catch (err) {
        reject(err);
      }
    });
  });
}

const reasonOf = (report: Report, name: string) => {
  const f = report.files.find((x) => path.basename(x.file) === name);
  if (!f) throw new Error(`no result for ${name}`);
  return f;
};

describe.skipIf(process.platform !== 'linux')('heatsource ingest: hostile PDFs', () => {
  let corpus: string;
  let bundle: string;
  let before: Buffer;
  let run: Awaited<ReturnType<typeof ingestMeasured>>;

  beforeAll(async () => {
    corpus = path.join(tmp, 'corpus');
    bundle = path.join(tmp, 'corpus.bundle');
    const good = await renderPdf({ title: 'Good manual', pages: manualPages() });
    writeManual(corpus, 'good', good, sidecarYaml(VALID_SIDECAR));
    // A sound manual under the name the page-tree cycle takes next: its previous version must survive.
    writeManual(
      corpus,
      'cycle',
      await renderPdf({ title: 'Was fine', pages: manualPages('was fine') }),
      sidecarYaml(VALID_SIDECAR),
    );
    const first = runCli(['ingest', corpus, '--bundle', bundle, '--no-snapshots']);
    expect(first.status, first.stderr).toBe(0);
    before = fs.readFileSync(bundle);

    writeManual(corpus, 'cycle', pageTreeCyclePdf(), sidecarYaml(VALID_SIDECAR));
    writeManual(corpus, 'bomb', await flateBombPdf(GiB), sidecarYaml(VALID_SIDECAR));
    writeManual(corpus, 'deep', deepArraysPdf(200_000), sidecarYaml(VALID_SIDECAR));
    writeManual(corpus, 'pages-5000', emptyPagesPdf(5000), sidecarYaml(VALID_SIDECAR));
    writeManual(corpus, 'pages-300', emptyPagesPdf(300), sidecarYaml(VALID_SIDECAR));
    // With snapshots: the workers must never see the bomb, and the empty pages must never be drawn.
    run = await ingestMeasured([corpus, '--bundle', bundle, '--jobs', '2']);
  }, 600_000);

  it('refuses a Flate bomb by the decoded-size limit, under 1 GB of memory for the whole ingest', () => {
    expect(reasonOf(run.report, 'bomb.pdf').problems[0]!.reason).toMatch(
      /decodes to more than 128 MiB, the limit per stream/,
    );
    expect(run.peakBytes).toBeGreaterThan(0);
    expect(run.peakBytes).toBeLessThan(GiB);
  });

  it('names a page tree that loops as unreadable, not as a scan, and keeps the previous version', () => {
    const f = reasonOf(run.report, 'cycle.pdf');
    expect(f.problems[0]!.reason).toMatch(/cannot be read .*circular/i);
    expect(f.problems[0]!.reason).not.toMatch(/scan/);
    expect(f.kept_previous).toBe(true);
  });

  it('says arrays nested 200,000 deep leave neither text nor images, not that the PDF is a scan', () => {
    const reason = reasonOf(run.report, 'deep.pdf').problems[0]!.reason;
    expect(reason).toMatch(/no text and no images/);
    expect(reason).not.toMatch(/scan/);
  });

  it('refuses 5,000 pages by the page limit, and 300 empty pages as empty', () => {
    expect(reasonOf(run.report, 'pages-5000.pdf').problems[0]!.reason).toBe(
      '5000 pages, more than the limit of 3000 pages per PDF',
    );
    expect(reasonOf(run.report, 'pages-300.pdf').problems[0]!.reason).toMatch(/no text and no images/);
  });

  it('still ingests the sound manual, and writes a bundle that verifies', () => {
    expect(run.status).toBe(7);
    expect(run.report.written).toBe(true);
    expect(reasonOf(run.report, 'good.pdf').status).toBe('reused');
    const info = JSON.parse(runCli(['bundle', 'info', bundle, '--json']).stdout) as {
      documents: { id: string }[];
    };
    expect(info.documents.map((d) => d.id).sort()).toEqual(['cycle', 'good']);
    expect(runCli(['bundle', 'verify', bundle]).status).toBe(0);
  });

  it('leaves the previous bundle as it was when every new file is hostile and --strict refuses', () => {
    const copy = path.join(tmp, 'strict.bundle');
    fs.writeFileSync(copy, before);
    const r = runCli(['ingest', corpus, '--bundle', copy, '--no-snapshots', '--strict']);
    expect(r.status).not.toBe(0);
    expect(fs.readFileSync(copy).equals(before)).toBe(true);
  });
});

describe.skipIf(process.platform !== 'linux' || !fs.existsSync('/usr/bin/script'))(
  'heatsource ingest on a terminal: the text check comes before any snapshot',
  () => {
    it('draws snapshots of a sound manual, and none of a PDF refused for its text layer', async () => {
      const corpus = path.join(tmp, 'order');
      writeManual(
        corpus,
        'sound',
        await renderPdf({ title: 'Sound', pages: manualPages('sound') }),
        sidecarYaml(VALID_SIDECAR),
      );
      writeManual(corpus, 'blank', emptyPagesPdf(40), sidecarYaml(VALID_SIDECAR));
      const bundle = path.join(tmp, 'order.bundle');
      // `script` gives the ingest a terminal, where it draws a progress bar naming each file's stage.
      const command = [process.execPath, BIN, 'ingest', corpus, '--bundle', bundle, '--jobs', '1']
        .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
        .join(' ');
      const r = spawnSync('/usr/bin/script', ['-qfec', command, '/dev/null'], {
        cwd: ROOT,
        env: { ...process.env, TERM: 'xterm', COLUMNS: '120' },
        encoding: 'utf8',
        timeout: 300_000,
      });
      const screen = r.stdout.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
      expect(screen).toMatch(/sound\.pdf\s+snapshots/);
      expect(screen).toMatch(/blank\.pdf: no text and no images/);
      expect(screen).toMatch(/blank\.pdf\s+text/);
      expect(screen).not.toMatch(/blank\.pdf\s+snapshots/);
    }, 300_000);
  },
);
