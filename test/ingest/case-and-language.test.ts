import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import { runCli } from '../helpers/cli.js';
import { renderPdf, sidecarYaml, VALID_SIDECAR, writeManual } from '../helpers/pdf-fixtures.js';

/**
 * Generated manuals through the built CLI (ingest, then look-ups over `Services.invoke`): a display that
 * prints `Eb` beside `EB` (two codes), and a manual printed in Spanish, then the same pages in English.
 */
let tmp: string;
let bundle: string;

const DISPLAY_TABLE: string[][] = [
  ['Display', 'Description', 'Remedy'],
  ['E1', 'Outdoor sensor fault', 'Check the sensor'],
  ['Eb', 'Flow sensor fault', 'Check the flow sensor'],
  ['EB', 'Low pressure protection', 'Check for leaks'],
  ['Ed', 'Tank sensor fault', 'Check the tank sensor'],
  ['ED', 'Heater overheated', 'Reset the thermostat'],
  ['Fd', 'Fan speed feedback missing', 'Check the fan motor'],
];

const SPANISH = {
  heading: '4 Códigos de error',
  lines: [
    'Cuando la unidad detecta un fallo, para el compresor y muestra un código en la pantalla del',
    'controlador. Anote el código antes de apagar la unidad y consulte la tabla de la página.',
  ],
  table: [
    ['Código', 'Descripción', 'Solución'],
    ['F01', 'Fallo de la sonda de la salida', 'Medir la sonda'],
    ['F02', 'Caudal de agua insuficiente', 'Limpiar el filtro de agua'],
    ['F03', 'Protección de baja presión', 'Buscar fugas de gas'],
    ['F04', 'Fallo de la sonda del depósito', 'Revisar la sonda'],
  ],
};

const ENGLISH = {
  heading: '4 Error codes',
  lines: [
    'When the unit detects a fault it stops the compressor and shows a code on the display of the',
    'controller. Note the code before switching the unit off, then look it up in the table.',
  ],
  table: [
    ['Code', 'Description', 'Remedy'],
    ['F01', 'Outdoor sensor fault', 'Check the sensor'],
    ['F02', 'Water flow too low', 'Clean the filter'],
    ['F03', 'Low pressure protection', 'Look for leaks'],
    ['F04', 'Hot water tank sensor fault', 'Check the sensor plug'],
  ],
};

function lookup(model: string, code: string, language?: string): DiagnosticResponse {
  const r = runCli([
    'lookup',
    '--brand',
    'Demotherm',
    '--model',
    model,
    '--code',
    code,
    ...(language ? ['--language', language] : []),
    '--json',
    '--bundle',
    bundle,
  ]);
  return JSON.parse(r.stdout) as DiagnosticResponse;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-case-language-'));
  const corpus = path.join(tmp, 'corpus');
  writeManual(
    corpus,
    'display',
    await renderPdf({
      title: 'Fixture display manual',
      pages: [
        {
          heading: '2 Error codes',
          lines: ['The display shows the following codes when the unit stops with a fault.'],
          table: DISPLAY_TABLE,
        },
      ],
    }),
    sidecarYaml({ ...VALID_SIDECAR, models: [{ name: 'FX-300', aliases: [] }] }),
  );
  writeManual(
    corpus,
    'twice',
    await renderPdf({ title: 'Fixture manual in two languages', pages: [SPANISH, ENGLISH] }),
    sidecarYaml({ ...VALID_SIDECAR, language: 'es', models: [{ name: 'FX-400', aliases: [] }] }),
  );
  bundle = path.join(tmp, 'fixture.bundle');
  const r = runCli(['ingest', corpus, '--bundle', bundle, '--no-snapshots', '--json']);
  expect(r.status, r.stderr).toBe(0);
}, 120_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('display codes in two cases', () => {
  it('answers `Eb` and `EB` each with its own reading, not ambiguous between them', () => {
    const small = lookup('FX-300', 'Eb');
    expect(small.state).toBe('answer');
    expect(small.title).toBe('Flow sensor fault');
    const capital = lookup('FX-300', 'EB');
    expect(capital.state).toBe('answer');
    expect(capital.title).toBe('Low pressure protection');
    expect(lookup('FX-300', 'ED').title).toBe('Heater overheated');
  });

  it('finds a code asked in the other case where the manual prints it in one case only', () => {
    const r = lookup('FX-300', 'FD');
    expect(r.state).toBe('answer');
    expect(r.title).toBe('Fan speed feedback missing');
  });

  it('stays ambiguous when asked in a case the manual prints neither way', () => {
    expect(lookup('FX-300', 'eb').state).toBe('ambiguous');
  });
});

describe('a manual printed in Spanish, then in English', () => {
  it('answers in the language asked, and in the sidecar language when none is asked', () => {
    const es = lookup('FX-400', 'F02', 'es');
    expect(es.state).toBe('answer');
    expect(es.title).toBe('Caudal de agua insuficiente');
    expect(es.citation?.page).toBe(1);
    const en = lookup('FX-400', 'F02', 'en');
    expect(en.state).toBe('answer');
    expect(en.title).toBe('Water flow too low');
    expect(en.citation?.page).toBe(2);
    expect(lookup('FX-400', 'F03').title).toBe('Protección de baja presión');
  });

  it("ends the first language's table at its last row: the next language's header is no part of it", () => {
    const last = lookup('FX-400', 'F04', 'es');
    expect(last.title).toBe('Fallo de la sonda del depósito');
    expect(last.excerpt?.text).not.toMatch(/Description/);
  });
});
