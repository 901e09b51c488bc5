/**
 * The PDF-producer axis: each manual of a corpus re-produced through another PDF producer (the same
 * pages and printed text, written anew: fonts re-encoded, text re-positioned, objects renumbered), so the
 * same answer keys apply and the service is measured on how the file was made rather than what it says.
 * The re-produced PDFs go to a temporary folder at run time and are never kept (the manuals are their
 * makers' copyright). Each producer is a Debian tool; one that is absent is skipped with a message.
 *
 * The set-aside part (BENCHMARKS.md, "Manuals re-produced by other PDF producers") was drawn by seeded
 * hash before any manual was re-produced: one producer held out whole and a third of the manuals. The
 * report prints only totals for those; per-manual rows and misses are for the working part alone.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { QualityReport } from './quality-measure.js';

export const PRODUCERS = ['qpdf', 'pdftocairo', 'gs', 'mutool-convert', 'mutool-clean'] as const;
export type Producer = (typeof PRODUCERS)[number];

/** Structure only (object streams, renumbering): must read exactly as the original. */
export const CONTROL_PRODUCER: Producer = 'qpdf';

/** The seeds of the set-aside draw, as written in BENCHMARKS.md before anything was measured. */
export const PRODUCER_SEED = 'producer-axis-2026-11-26:';
export const MANUAL_SEED = 'producer-axis-manuals-2026-11-26:';

/** The tool each producer runs and its arguments, from `src` to `dst`. */
function command(producer: Producer, src: string, dst: string): [string, string[]] {
  switch (producer) {
    case 'qpdf':
      return ['qpdf', ['--object-streams=generate', src, dst]];
    case 'pdftocairo':
      return ['pdftocairo', ['-pdf', src, dst]];
    case 'gs':
      return [
        'gs',
        ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', `-sOutputFile=${dst}`, src],
      ];
    case 'mutool-convert':
      return ['mutool', ['convert', '-F', 'pdf', '-o', dst, src]];
    case 'mutool-clean':
      // -D writes it decrypted: mutool 1.21 otherwise renumbers an encrypted file's objects but keeps its
      // streams encrypted under an /Encrypt reference it dropped, a file no reader can decode.
      return ['mutool', ['clean', '-D', '-gggg', src, dst]];
  }
}

/** Whether the producer's tool is on PATH. */
export function producerAvailable(producer: Producer): boolean {
  const [tool] = command(producer, '', '');
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface Reproduced {
  /** File names written and kept. */
  produced: string[];
  /** Manuals the producer could not re-produce faithfully, with why: left out of the measure. */
  dropped: { file: string; reason: string }[];
}

/**
 * Whether a written file is a PDF another reader can decode: `qpdf --check` exits 2 on errors (0 clean,
 * 3 warnings, which several of the originals give too). A producer that writes an empty file or a file
 * with undecodable streams has not re-produced the manual; that is the tool's failure, not the reader's.
 */
function checkWritten(file: string): string | undefined {
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) return 'the tool wrote no file or an empty one';
  if (!producerAvailable('qpdf')) return undefined;
  try {
    execFileSync('qpdf', ['--check', file], { stdio: 'ignore' });
  } catch (err) {
    if ((err as { status?: number }).status === 2) return '`qpdf --check` finds errors in the written file';
  }
  return undefined;
}

/**
 * Re-produces every PDF of `corpus` into `out` through `producer`, with its sidecar copied beside it
 * unchanged (same file names, so the same answer keys apply). Manuals the tool fails on are dropped.
 */
export function reproduceCorpus(producer: Producer, corpus: string, out: string): Reproduced {
  fs.mkdirSync(out, { recursive: true });
  const result: Reproduced = { produced: [], dropped: [] };
  for (const name of fs.readdirSync(corpus).sort()) {
    const src = path.join(corpus, name);
    if (/\.pdf$/i.test(name)) {
      const dst = path.join(out, name);
      const [tool, argv] = command(producer, src, dst);
      let failed: string | undefined;
      try {
        execFileSync(tool, argv, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 24 });
      } catch (err) {
        // qpdf exits 3 on warnings with a file written; the written file's check decides.
        failed = `${tool} exited ${(err as { status?: number }).status ?? '?'}`;
      }
      const bad = checkWritten(dst);
      if (bad) {
        fs.rmSync(dst, { force: true });
        result.dropped.push({ file: name, reason: failed ? `${failed}; ${bad}` : bad });
      } else result.produced.push(name);
    } else if (/\.(ya?ml|json)$/i.test(name)) fs.copyFileSync(src, path.join(out, name));
  }
  return result;
}

/** The answer keys of the produced manuals only, copied to `out` (one JSONL file per manual). */
export function keysOf(answers: string, produced: string[], out: string): void {
  fs.mkdirSync(out, { recursive: true });
  const wanted = new Set(produced.map((f) => f.replace(/\.pdf$/i, '')));
  for (const name of fs.readdirSync(answers))
    if (wanted.has(name.replace(/\.jsonl$/i, '')))
      fs.copyFileSync(path.join(answers, name), path.join(out, name));
}

function digest(seed: string, key: string): string {
  return crypto.createHash('sha256').update(`${seed}${key}`).digest('hex');
}

/** The held-out producer: the lowest digest among the non-control producers. */
export function heldOutProducer(): Producer {
  return PRODUCERS.filter((p) => p !== CONTROL_PRODUCER).sort((a, b) =>
    digest(PRODUCER_SEED, a) < digest(PRODUCER_SEED, b) ? -1 : 1,
  )[0]!;
}

/**
 * The set-aside manuals among `documents` (every manual of the corpus, whether or not a producer could
 * re-produce it, so the draw never moves): a third (rounded), lowest digests.
 */
export function setAsideManuals(documents: readonly string[]): Set<string> {
  const count = Math.round(documents.length / 3);
  const ordered = [...documents].sort((a, b) => (digest(MANUAL_SEED, a) < digest(MANUAL_SEED, b) ? -1 : 1));
  return new Set(ordered.slice(0, count));
}

export interface PartFigures {
  part: string;
  codeKeys: number;
  right: number;
  wrong: number;
  unknown: number;
  ambiguous: number;
  excerptOk: number;
  negatives: number;
  negativesOk: number;
}

function partOf(part: string, manuals: QualityReport['manuals']): PartFigures {
  const out: PartFigures = {
    part,
    codeKeys: 0,
    right: 0,
    wrong: 0,
    unknown: 0,
    ambiguous: 0,
    excerptOk: 0,
    negatives: 0,
    negativesOk: 0,
  };
  for (const m of manuals) {
    const a = m.answers;
    out.codeKeys += a.codeKeys;
    out.right += a.answerOk;
    out.excerptOk += a.excerptOk;
    out.negatives += a.negatives;
    out.negativesOk += a.negativesOk;
    // Counted from the misses' kinds only, so a set-aside part is read as totals, never miss by miss.
    for (const miss of a.misses) {
      if (miss.problem === 'page' || miss.problem === 'meaning') out.wrong++;
      else if (miss.problem === 'state' && miss.detail.startsWith('unknown_code')) out.unknown++;
      else if (miss.problem === 'state' && !miss.detail.startsWith('negative')) out.ambiguous++;
    }
  }
  return out;
}

/**
 * The figures of one producer's run: per working manual (unless the producer is held out), then the
 * working and set-aside totals. `misses` lists the working manuals' failed keys.
 */
export function producerTable(
  producer: string,
  report: QualityReport,
  setAside: Set<string>,
  heldOut: boolean,
  misses: boolean,
) {
  const working = report.manuals.filter((m) => !setAside.has(m.document));
  const aside = report.manuals.filter((m) => setAside.has(m.document));
  const pct = (n: number, d: number) => (d > 0 ? `${Math.round((1000 * n) / d) / 10} %` : '–');
  const row = (f: PartFigures) =>
    `| ${producer} | ${f.part} | ${f.codeKeys} | ${pct(f.right, f.codeKeys)} | ${pct(f.excerptOk, f.codeKeys)} | ` +
    `${f.right} / ${f.wrong} / ${f.unknown} / ${f.ambiguous} | ${f.negativesOk}/${f.negatives} |`;
  const lines = [
    '| producer | manual or part | code keys | answer | excerpt | right / wrong / unknown / ambiguous | negatives |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  if (!heldOut) for (const m of working) if (m.codeKeys > 0) lines.push(row(partOf(m.document, [m])));
  lines.push(row(partOf(`working manuals (${working.length})`, working)));
  lines.push(row(partOf(`set-aside manuals (${aside.length}, totals only)`, aside)));
  lines.push(row(partOf('all', report.manuals)));
  if (misses && !heldOut)
    for (const m of working)
      for (const miss of m.answers.misses)
        lines.push(`- ${m.document}: ${miss.code} ${miss.problem}: ${miss.detail}`);
  return lines.join('\n');
}

/** The totals one producer's run gives, as a JSON line for BENCHMARKS.md. */
export function producerTotals(producer: string, report: QualityReport, setAside: Set<string>) {
  return {
    producer,
    working: partOf(
      'working',
      report.manuals.filter((m) => !setAside.has(m.document)),
    ),
    setAside: partOf(
      'set-aside',
      report.manuals.filter((m) => setAside.has(m.document)),
    ),
  };
}
