import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../api/build.js';
import { runCli, runCliAsync } from '../helpers/cli.js';
import {
  asciiHex,
  deflateRepeated,
  deflateSpaces,
  encryptedPdf,
  endstreamInsideFlate,
  filteredStreamPdf,
  lzwSpaces,
} from '../helpers/hostile-pdfs.js';
import { manualPages, renderPdf, sidecarYaml, VALID_SIDECAR, writeManual } from '../helpers/pdf-fixtures.js';

/**
 * Decompression bombs through every byte filter pdfjs decodes, alone, chained and nested, each ingested
 * beside a sound manual. Each is written at test time from a few hundred KB of codes; nothing large is
 * kept on disk. The memory figure is the ingest process's own peak (getrusage maxRSS), read at its exit.
 */

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
let tmp: string;

beforeAll(() => {
  ensureBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bombs-'));
}, 300_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Report {
  written: boolean;
  files: { file: string; status: string; problems: { reason: string }[]; kept_previous: boolean }[];
}

/** Runs `heatsource ingest --json` with a preload that writes the process's maxRSS (KiB) at exit. */
async function ingestWithMaxRss(
  args: string[],
): Promise<{ status: number | null; report: Report; maxRss: number }> {
  const preload = path.join(tmp, 'max-rss.mjs');
  const out = path.join(tmp, 'max-rss.txt');
  fs.writeFileSync(
    preload,
    "import fs from 'node:fs';\n" +
      "process.on('exit', () => fs.writeFileSync(process.env.MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  fs.rmSync(out, { force: true });
  const run = await runCliAsync(['ingest', ...args, '--json'], {
    nodeArgs: ['--import', preload],
    env: { ...process.env, NO_COLOR: '1', MAX_RSS_FILE: out },
  });
  try {
    return {
      status: run.status,
      report: JSON.parse(run.stdout) as Report,
      maxRss: Number(fs.readFileSync(out, 'utf8')) * 1024,
    };
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${run.stderr.slice(-2000)}`);
  }
}

const fileOf = (report: Report, name: string) => {
  const f = report.files.find((x) => path.basename(x.file) === `${name}.pdf`);
  if (!f) throw new Error(`no result for ${name}`);
  return f;
};

const PER_STREAM = /\(object \d+\) decodes to more than 128 MiB, the limit per stream/;

describe.skipIf(process.platform !== 'linux')(
  'heatsource ingest: decode bounds for every filter chain',
  () => {
    let corpus: string;
    let bundle: string;
    let before: Buffer;
    let run: Awaited<ReturnType<typeof ingestWithMaxRss>>;

    beforeAll(async () => {
      corpus = path.join(tmp, 'corpus');
      bundle = path.join(tmp, 'corpus.bundle');
      writeManual(
        corpus,
        'good',
        await renderPdf({ title: 'Good manual', pages: manualPages() }),
        sidecarYaml(VALID_SIDECAR),
      );
      // A sound manual whose next version is a bomb: the bundle must keep the version it has.
      writeManual(
        corpus,
        'replaced',
        await renderPdf({ title: 'Was fine', pages: manualPages('was fine') }),
        sidecarYaml(VALID_SIDECAR),
      );
      const first = runCli(['ingest', corpus, '--bundle', bundle, '--no-snapshots']);
      expect(first.status, first.stderr).toBe(0);
      before = fs.readFileSync(bundle);

      const sidecar = sidecarYaml(VALID_SIDECAR);
      const flateGiB = await deflateSpaces(GiB);
      writeManual(corpus, 'replaced', filteredStreamPdf('/LZWDecode', lzwSpaces(GiB)), sidecar);
      writeManual(corpus, 'lzw', filteredStreamPdf('/LZW', lzwSpaces(GiB)), sidecar);
      // 100 MiB of `z` passes Flate, then ASCII85 makes four zero bytes of each.
      writeManual(
        corpus,
        'flate-ascii85',
        filteredStreamPdf(
          '[/FlateDecode /ASCII85Decode]',
          await deflateRepeated(Buffer.from('z'), 100 * MiB),
        ),
        sidecar,
      );
      // RunLength: each pair (129, byte) is 128 bytes.
      writeManual(
        corpus,
        'flate-runlength',
        filteredStreamPdf('[/Fl /RL]', await deflateRepeated(Buffer.from([129, 0x20]), 8 * MiB)),
        sidecar,
      );
      writeManual(
        corpus,
        'runlength',
        filteredStreamPdf('/RunLengthDecode', Buffer.alloc(4 * MiB, Buffer.from([129, 0x41]))),
        sidecar,
      );
      // The bomb under a first filter that is not Flate.
      writeManual(corpus, 'hex-flate', filteredStreamPdf('[/AHx /FlateDecode]', asciiHex(flateGiB)), sidecar);
      // Flate inside Flate inside Flate: the stored stream is a few KB.
      const twice = await deflateRepeated(flateGiB, flateGiB.length);
      const thrice = await deflateRepeated(twice, twice.length);
      writeManual(
        corpus,
        'nested-flate',
        filteredStreamPdf('[/FlateDecode /FlateDecode /FlateDecode]', thrice),
        sidecar,
      );
      writeManual(
        corpus,
        'many-filters',
        filteredStreamPdf(`[${'/AHx '.repeat(5)}]`, Buffer.from('20>')),
        sidecar,
      );
      // `endstream` inside the compressed data, the real end given by /Length.
      writeManual(
        corpus,
        'endstream-inside',
        filteredStreamPdf('/FlateDecode', await endstreamInsideFlate(GiB)),
        sidecar,
      );
      // The filter more than 4 KiB before `stream`, behind arrays nested 3,000 deep.
      writeManual(
        corpus,
        'deep-dictionary',
        filteredStreamPdf('/FlateDecode', flateGiB, `/X ${'['.repeat(3000)}${']'.repeat(3000)}`),
        sidecar,
      );
      // An image codec on a stream that is not an image.
      writeManual(
        corpus,
        'image-filter-content',
        filteredStreamPdf('/DCTDecode', Buffer.from('not a jpeg')),
        sidecar,
      );
      // Encrypted with the standard handler and no user password: a bomb, and a sound page of text.
      writeManual(corpus, 'encrypted-bomb', encryptedPdf(flateGiB), sidecar);
      const text = Array.from(
        { length: 12 },
        (_, i) =>
          `BT /F1 10 Tf 40 ${780 - i * 14} Td (E${i + 1} water flow error: check the flow switch and the filter.) Tj ET`,
      ).join('\n');
      writeManual(
        corpus,
        'encrypted-text',
        encryptedPdf(zlib.deflateSync(Buffer.from(text, 'latin1'))),
        sidecar,
      );
      // 200,000 objects each opening an array the next one sits in: read one by one, quadratic.
      writeManual(
        corpus,
        'overlapping-objects',
        Buffer.from(`%PDF-1.7\n${'0 0 obj [\n'.repeat(200_000)}${']'.repeat(200_000)}\n%%EOF\n`, 'latin1'),
        sidecar,
      );
      // Twenty streams of 110 MiB each: each under the limit per stream, 2.1 GiB in all.
      writeManual(corpus, 'many-streams', await manyStreamsPdf(20, 110 * MiB), sidecar);

      run = await ingestWithMaxRss([corpus, '--bundle', bundle, '--no-snapshots']);
    }, 600_000);

    it('refuses LZW, RunLength, ASCII85, ASCIIHex and Flate bombs, alone and chained, by the limit per stream', () => {
      for (const name of [
        'lzw',
        'flate-ascii85',
        'flate-runlength',
        'runlength',
        'hex-flate',
        'nested-flate',
      ]) {
        expect(fileOf(run.report, name).problems[0]?.reason, name).toMatch(PER_STREAM);
      }
    });

    it('reads the stream to its /Length, a dictionary nested thousands deep, and the per-PDF limit', () => {
      expect(fileOf(run.report, 'endstream-inside').problems[0]?.reason).toMatch(PER_STREAM);
      expect(fileOf(run.report, 'deep-dictionary').problems[0]?.reason).toMatch(PER_STREAM);
      expect(fileOf(run.report, 'many-streams').problems[0]?.reason).toBe(
        'the compressed streams decode to more than 2 GiB in all, the limit per PDF (a decompression bomb?)',
      );
    });

    it('decrypts a PDF encrypted without a user password before measuring it, and still reads a sound one', () => {
      expect(fileOf(run.report, 'encrypted-bomb').problems[0]?.reason).toMatch(PER_STREAM);
      // pdfjs opens the sound one without a password and reads its text: it is ingested.
      const sound = fileOf(run.report, 'encrypted-text');
      expect(sound.problems).toEqual([]);
      expect(sound.status).not.toBe('failed');
    });

    it('bounds the reading of objects nested inside one another to two passes over the file', () => {
      expect(fileOf(run.report, 'overlapping-objects').problems[0]?.reason).toMatch(
        /objects are nested inside one another so that reading them takes more than 2 passes over the file, the limit per PDF/,
      );
    });

    it('refuses a chain longer than the limit, and an image codec on a stream that is not an image', () => {
      expect(fileOf(run.report, 'many-filters').problems[0]?.reason).toMatch(
        /\(object \d+\) has 5 filters, more than the limit of 4 per stream/,
      );
      expect(fileOf(run.report, 'image-filter-content').problems[0]?.reason).toMatch(
        /uses the image filter DCTDecode but is not an image/,
      );
    });

    it('keeps the sound manual and the previous version of the replaced one, under 1 GiB of memory', () => {
      expect(run.maxRss).toBeGreaterThan(0);
      expect(run.maxRss).toBeLessThan(GiB);
      expect(run.report.written).toBe(true);
      expect(fileOf(run.report, 'good').status).toBe('reused');
      expect(fileOf(run.report, 'replaced').problems[0]?.reason).toMatch(PER_STREAM);
      expect(fileOf(run.report, 'replaced').kept_previous).toBe(true);
      const info = JSON.parse(runCli(['bundle', 'info', bundle, '--json']).stdout) as {
        documents: { id: string }[];
      };
      expect(info.documents.map((d) => d.id).sort()).toEqual(['encrypted-text', 'good', 'replaced']);
      expect(runCli(['bundle', 'verify', bundle]).status).toBe(0);
    });

    it('leaves the previous bundle byte for byte when --strict refuses the run', () => {
      // The sound manuals and one bomb: what --strict refuses is the run, whatever the bomb.
      const strictCorpus = path.join(tmp, 'strict');
      fs.mkdirSync(strictCorpus, { recursive: true });
      for (const f of fs.readdirSync(corpus).filter((name) => /^(good|replaced)\./.test(name)))
        fs.copyFileSync(path.join(corpus, f), path.join(strictCorpus, f));
      const copy = path.join(tmp, 'strict.bundle');
      fs.writeFileSync(copy, before);
      const r = runCli(['ingest', strictCorpus, '--bundle', copy, '--no-snapshots', '--strict']);
      expect(r.status).not.toBe(0);
      expect(fs.readFileSync(copy).equals(before)).toBe(true);
    }, 300_000);
  },
);

/** One page, and `count` more content streams each inflating to `each` bytes of spaces. */
async function manyStreamsPdf(count: number, each: number): Promise<Buffer> {
  const data = await deflateSpaces(each);
  const extra = Array.from({ length: count }, (_, i) => `/S${i} ${i + 6} 0 R`).join(' ');
  const base = filteredStreamPdf('/FlateDecode', data, `/Extra << ${extra} >>`).toString('latin1');
  // The same stream again as objects 6.., appended as an incremental update would write them.
  const objects = Array.from(
    { length: count },
    (_, i) =>
      `${i + 6} 0 obj\n<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream\nendobj\n`,
  ).join('');
  return Buffer.from(base + objects, 'latin1');
}
