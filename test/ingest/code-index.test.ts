import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import { runCli } from '../helpers/cli.js';
import { CODE_TABLE, renderPdf, sidecarYaml, VALID_SIDECAR, writeManual } from '../helpers/pdf-fixtures.js';

/**
 * The code index and the maintainer's corrections, through the built CLI (ingest, then look-ups that run
 * `Services.invoke` over the bundle): a fault table the reader reads, a list of display messages on a page
 * that never speaks of faults (the reader leaves it; the index keeps each line), a code named only inside
 * a sentence, and a sidecar listing corrections.
 */
let tmp: string;
let bundle: string;
let warnings: string[];

const PAGES = [
  {
    heading: '1 Operation',
    lines: [
      'Switch the unit on at the controller. When the display shows E44 the unit',
      'waits for the water to warm up before it starts the pump again.',
      'After a power cut the display may show F17 for a few seconds.',
      'The pump restarts once the controller clears the code',
      'F18 after five minutes of normal flow.',
    ],
  },
  { heading: '2 Error codes', lines: ['The controller shows the following codes.'], table: CODE_TABLE },
  {
    heading: '3 Display messages',
    lines: [
      'The display may show these messages during start-up.',
      'L21: Pump blocked, restart the unit',
      'L22: Inlet strainer clogged',
      'L23: Outdoor air too cold for heating',
    ],
  },
];

/**
 * A sidecar with corrections: H5 given another text of its row as its meaning (what a maintainer does when
 * the reader took the wrong cell), and E44, which the manual only names in a sentence.
 */
function sidecarWith(corrections: string): string {
  return `${sidecarYaml(VALID_SIDECAR)}corrections:\n${corrections}`;
}

function lookup(code: string, file = bundle): DiagnosticResponse {
  const r = runCli([
    'lookup',
    '--brand',
    'Demotherm',
    '--model',
    'FX-100',
    '--code',
    code,
    '--json',
    '--bundle',
    file,
  ]);
  return JSON.parse(r.stdout) as DiagnosticResponse;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-code-index-'));
  const corpus = path.join(tmp, 'corpus');
  writeManual(
    corpus,
    'messages',
    await renderPdf({ title: 'Fixture manual with messages', pages: PAGES }),
    sidecarWith(
      [
        '  - code: H5',
        '    page: 2',
        '    meaning: Low refrigerant charge',
        '  - code: E44',
        '    page: 1',
        '    meaning: waits for the water to warm up',
      ].join('\n'),
    ),
  );
  bundle = path.join(tmp, 'messages.bundle');
  const r = runCli(['ingest', corpus, '--bundle', bundle, '--no-snapshots', '--json']);
  expect(r.status, r.stderr).toBe(0);
  warnings = (JSON.parse(r.stdout) as { files: { warnings: string[] }[] }).files[0]!.warnings;
}, 120_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the code index', () => {
  it("answers from the table reader's row first, with origin reader", () => {
    const body = lookup('E9');
    expect(body.state).toBe('answer');
    expect(body.origin).toBe('reader');
    expect(body.confidence.band).toBe('high');
    expect(body.citation?.page).toBe(2);
  });

  it('answers a code the reader did not read from its line, verbatim, with a low confidence', () => {
    const body = lookup('L22');
    expect(body.state).toBe('answer');
    expect(body.origin).toBe('code_index');
    expect(body.confidence.band).toBe('low');
    expect(body.citation?.page).toBe(3);
    expect(body.excerpt?.text).toBe('L22: Inlet strainer clogged');
    expect(body.title).toBe('Inlet strainer clogged');
    // The terminal says so beside the confidence.
    const text = runCli([
      'lookup',
      '--brand',
      'Demotherm',
      '--model',
      'FX-100',
      '--code',
      'L22',
      '--bundle',
      bundle,
    ]);
    expect(text.stdout).toContain('confidence low · from the line the code opens, not read as a table row');
  });

  it('never answers a code printed only inside running text, nor a code the manual lacks', () => {
    // F17 stands inside a sentence; F18 opens a line that goes on from the sentence above it.
    for (const code of ['F17', 'F18', 'E99', 'L29']) {
      const body = lookup(code);
      expect(body.state, code).toBe('unknown_code');
      expect(body.origin, code).toBeNull();
    }
  });

  it('names the codes the index holds but the table reader did not read, in the ingest warnings', () => {
    const audit = warnings.find((w) => w.startsWith('codes indexed'));
    expect(audit).toContain('p3: L21 L22 L23');
    expect(audit).not.toContain('E9');
  });

  it('keeps every indexed line verbatim on its page (bundle verify checks them)', () => {
    const r = runCli(['bundle', 'verify', bundle, '--json']);
    expect(r.status, r.stdout).toBe(0);
    const report = JSON.parse(r.stdout) as { checks: { name: string; ok: boolean }[] };
    expect(report.checks.find((c) => c.name.startsWith('indexed code lines'))?.ok).toBe(true);
  });
});

describe("the maintainer's corrections", () => {
  it('answer before the reader, with origin maintainer and the meaning as listed', () => {
    const body = lookup('H5');
    expect(body.state).toBe('answer');
    expect(body.origin).toBe('maintainer');
    expect(body.title).toBe('Low refrigerant charge');
    expect(body.excerpt?.text).toContain('H5');
    expect(body.citation?.page).toBe(2);
    expect(body.confidence.band).toBe('high');
  });

  it('answer a code the manual names only in a sentence, from its page, verbatim', () => {
    const body = lookup('E44');
    expect(body.state).toBe('answer');
    expect(body.origin).toBe('maintainer');
    expect(body.citation?.page).toBe(1);
    expect(body.excerpt?.text).toBe(
      'Switch the unit on at the controller. When the display shows E44 the unit\nwaits for the water to warm up before it starts the pump again.',
    );
  });

  it('refuse the file, naming the field and the sidecar line at fault, when a meaning is not on its page', async () => {
    const corpus = path.join(tmp, 'bad');
    writeManual(
      corpus,
      'wrong',
      await renderPdf({ title: 'Fixture manual with a wrong correction', pages: PAGES }),
      sidecarWith(['  - code: E9', '    page: 2', '    meaning: Water flow far too high'].join('\n')),
    );
    const header = sidecarYaml(VALID_SIDECAR).split('\n').length; // the line after the sidecar's own fields
    const r = runCli([
      'ingest',
      corpus,
      '--bundle',
      path.join(tmp, 'bad.bundle'),
      '--no-snapshots',
      '--json',
    ]);
    expect(r.status).toBe(7);
    const report = JSON.parse(r.stdout) as {
      written: boolean;
      files: { status: string; problems: { field: string; reason: string }[] }[];
    };
    expect(report.written).toBe(false);
    expect(report.files[0]!.status).toBe('failed');
    expect(report.files[0]!.problems).toEqual([
      {
        field: 'corrections.0.meaning',
        reason: `line ${header + 3}: "Water flow far too high" does not stand verbatim on page 2`,
      },
    ]);
  });

  it('refuse a code that is not on the page named', async () => {
    const corpus = path.join(tmp, 'bad-code');
    writeManual(
      corpus,
      'wrong-code',
      await renderPdf({ title: 'Fixture manual with a misplaced correction', pages: PAGES }),
      sidecarWith(['  - code: L21', '    page: 2'].join('\n')),
    );
    const r = runCli(['ingest', corpus, '--bundle', path.join(tmp, 'bad2.bundle'), '--no-snapshots']);
    expect(r.status).toBe(7);
    expect(r.stderr).toContain('corrections.0.code');
    expect(r.stderr).toContain('"L21" does not stand on page 2');
  });

  it('are checked again when the PDF is unchanged and its previous extraction is reused', async () => {
    const corpus = path.join(tmp, 'reuse');
    const pdf = fs.readFileSync(path.join(tmp, 'corpus', 'messages.pdf'));
    const copy = path.join(tmp, 'reuse.bundle');
    fs.copyFileSync(bundle, copy);
    writeManual(corpus, 'messages', pdf, sidecarWith(['  - code: L21', '    page: 3'].join('\n')));
    const ok = runCli(['ingest', corpus, '--bundle', copy, '--no-snapshots', '--json']);
    expect(ok.status, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { totals: { reused: number } }).totals.reused).toBe(1);
    const listed = lookup('L21', copy);
    expect(listed.origin).toBe('maintainer');
    expect(listed.excerpt?.text).toBe('L21: Pump blocked, restart the unit');
    // The earlier corrections are gone with the sidecar that listed them: H5 is the reader's again.
    expect(lookup('H5', copy).origin).toBe('reader');

    writeManual(corpus, 'messages', pdf, sidecarWith(['  - code: L21', '    page: 1'].join('\n')));
    const bad = runCli(['ingest', corpus, '--bundle', copy, '--no-snapshots', '--json']);
    expect(bad.status).toBe(7);
    const report = JSON.parse(bad.stdout) as {
      files: { status: string; kept_previous: boolean; problems: { field: string }[] }[];
    };
    expect(report.files[0]).toMatchObject({ status: 'failed', kept_previous: true });
    expect(report.files[0]!.problems.map((p) => p.field)).toEqual(['corrections.0.code']);
    // The previous version is kept whole, its corrections with it.
    expect(lookup('L21', copy).origin).toBe('maintainer');
  });
});
