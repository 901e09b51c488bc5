import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import type { SearchResponse } from '../../src/contract/search.js';
import { runCli } from '../helpers/cli.js';
import { CODE_TABLE, renderPdf, sidecarYaml, VALID_SIDECAR, writeManual } from '../helpers/pdf-fixtures.js';

/**
 * A manual whose first page is a table of contents that lists fault codes with dot leaders and page
 * numbers, laid out like a fault table (a code column under a header naming faults). One code, E7, is
 * printed only there. Ingested and asked through the built CLI, as a maintainer and a technician would.
 */
let tmp: string;
let bundle: string;
let ingestWarnings: string[];

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return runCli([...args, '--bundle', bundle]);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-navigation-'));
  const pdf = await renderPdf({
    title: 'Fixture manual with contents',
    pages: [
      {
        heading: 'Contents',
        table: [
          ['Code', 'Fault', 'Page'],
          ['E1', 'Sensor fault ..........', '2'],
          ['E7', 'Defrost failure ..........', '2'],
          ['E9', 'Low water flow ..........', '2'],
          ['H5', 'Overheat ..........', '2'],
          ['P 12', 'High pressure ..........', '2'],
        ],
      },
      { heading: '2 Error codes', lines: ['The controller shows the following codes.'], table: CODE_TABLE },
      {
        heading: '3 Defrost',
        lines: ['The unit defrosts the outdoor coil when ice builds up.', 'Defrost failure is rare.'],
      },
      {
        heading: '4 Settings',
        table: [
          ['Parameter', 'Range', 'Default'],
          ['F01', '0-10', '5'],
          ['F02', '0-1', '0'],
          ['F03', '1-9', '3'],
        ],
      },
    ],
  });
  const corpus = path.join(tmp, 'corpus');
  writeManual(corpus, 'contents', pdf, sidecarYaml(VALID_SIDECAR));
  bundle = path.join(tmp, 'contents.bundle');
  const r = runCli(['ingest', corpus, '--bundle', bundle, '--no-snapshots', '--json']);
  expect(r.status, r.stderr).toBe(0);
  ingestWarnings = (JSON.parse(r.stdout) as { files: { warnings: string[] }[] }).files[0]!.warnings;
}, 120_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('navigation pages (tables of contents) at ingest', () => {
  it('never answers a code from a contents page: a code printed only there is unknown', () => {
    const r = cli(['lookup', '--brand', 'Demotherm', '--model', 'FX-100', '--code', 'E7', '--json']);
    const body = JSON.parse(r.stdout) as DiagnosticResponse;
    expect(body.state).toBe('unknown_code');
    expect(body.citation).toBeNull();
  });

  it('answers a code listed in the contents from its fault table page', () => {
    const r = cli(['lookup', '--brand', 'Demotherm', '--model', 'FX-100', '--code', 'E1', '--json']);
    const body = JSON.parse(r.stdout) as DiagnosticResponse;
    expect(body.state).toBe('answer');
    expect(body.citation?.page).toBe(2);
    expect(body.alternatives.map((a) => a.citation.page)).not.toContain(1);
  });

  it('ranks the contents page after the pages it points to', () => {
    const r = cli(['search', 'defrost failure', '--brand', 'Demotherm', '--json']);
    const body = JSON.parse(r.stdout) as SearchResponse;
    const pages = body.results.map((x) => x.page);
    expect(pages).toContain(3);
    if (pages.includes(1)) expect(pages.indexOf(1)).toBeGreaterThan(pages.indexOf(3));
  });
});

describe('heatsource bundle codes', () => {
  it('lists every code read, with its page and meaning, none from the contents page', () => {
    const r = runCli(['bundle', 'codes', bundle, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const { codes } = JSON.parse(r.stdout) as {
      codes: { document_id: string; code: string; page: number; meaning: string }[];
    };
    expect(codes.map((c) => `${c.code}@${c.page}`).sort()).toEqual(['E1@2', 'E9@2', 'H5@2', 'P 12@2']);
    expect(codes.find((c) => c.code === 'E9')?.meaning).toBe('Water flow too low');
    const text = runCli(['bundle', 'codes', bundle, '--document', 'contents']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/E9\s+p2\s+Water flow too low/);
  });

  it('refuses a document the bundle does not hold, in one line, exit 3', () => {
    const r = runCli(['bundle', 'codes', bundle, '--document', 'nope']);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no document "nope"');
  });
});

describe('the ingest audit', () => {
  it('never names the contents page, nor codes followed by values only (a settings table)', () => {
    // The audit lists the codes the code index holds but the table reader did not read; the contents page
    // is not indexed, and `F01 | 0-10 | 5` has no words for a meaning (test/ingest/code-index.test.ts
    // has a page the audit names).
    const text = ingestWarnings.join('\n');
    expect(ingestWarnings.length, text).toBeGreaterThan(0);
    expect(text).not.toMatch(/codes indexed[^\n]*\bp1:/);
    expect(text).not.toMatch(/codes indexed[^\n]*\b(?:E7|F01)\b/);
  });
});
