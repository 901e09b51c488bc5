import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSdkBuilt, ROOT, SDK_DIR, SDK_ENTRY } from './build.js';
import { type ListeningApi, listeningApi } from './server.js';

interface Report {
  modules: number;
  files: string[];
  nodeImports: string[];
  nodeGlobals: string[];
  globalsPresent: string[];
  exports: string[];
  result: {
    state: string;
    page: number;
    imageBytes: number;
    imageIsUint8Array: boolean;
    problem: { isHeatsourceError: boolean; code: string; status: number } | null;
  };
}

/** Runs the check script in its own process (vm modules need a flag) while this process serves the API. */
function browserCheck(entry: string, baseUrl = '', apiKey = ''): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--experimental-vm-modules',
        '--no-warnings',
        path.join(ROOT, 'test', 'sdk', 'browser-check.mjs'),
        entry,
        baseUrl,
        apiKey,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`browser check failed (${code}): ${err}`));
      else resolve(JSON.parse(out) as Report);
    });
  });
}

let server: ListeningApi;
let report: Report;

beforeAll(async () => {
  ensureSdkBuilt();
  server = await listeningApi();
  report = await browserCheck(SDK_ENTRY, server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

describe('the SDK in a browser-like runtime', () => {
  it('imports no Node builtin anywhere in its module graph, zod included', () => {
    expect(report.files).toContain('node_modules/zod/index.js');
    // Self-contained: nothing outside the package and its one dependency.
    expect(
      report.files.filter((f) => !f.startsWith('sdk/dist/') && !f.startsWith('node_modules/zod/')),
    ).toEqual([]);
    expect(report.modules).toBeGreaterThan(10);
    expect(report.nodeImports).toEqual([]);
    expect(report.nodeGlobals).toEqual([]);
  });

  it('the check itself catches a Node import, directly or deep in the graph', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-browser-check-'));
    fs.writeFileSync(path.join(dir, 'index.js'), "export * from './inner.js';\n");
    fs.writeFileSync(
      path.join(dir, 'inner.js'),
      "import { readFileSync } from 'fs';\nexport const x = readFileSync;\n",
    );
    const bad = await browserCheck(path.join(dir, 'index.js'));
    expect(bad.nodeImports).toEqual([expect.stringMatching(/inner\.js imports fs$/)]);
    expect(bad.nodeGlobals).toEqual([]);
  });

  it('loads and answers in a context with web globals only', () => {
    expect(report.globalsPresent).toEqual([]);
    expect(report.exports).toEqual(
      expect.arrayContaining(['createClient', 'HeatsourceError', 'startDiagnosticSession']),
    );
    expect(report.result).toMatchObject({ state: 'answer', page: 2, imageIsUint8Array: true });
    expect(report.result.imageBytes).toBeGreaterThan(100);
    expect(report.result.problem).toEqual({ isHeatsourceError: true, code: 'brand_not_found', status: 404 });
  });
});

describe('the package', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(SDK_DIR, 'package.json'), 'utf8'));

  it('is a beta ESM package with types, published under the beta tag, depending on zod only', () => {
    expect(pkg.version).toMatch(/^0\.\d+\.\d+-beta\.\d+$/);
    expect(pkg.publishConfig.tag).toBe('beta');
    expect(pkg.type).toBe('module');
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(Object.keys(pkg.dependencies)).toEqual(['zod']);
    expect(fs.existsSync(path.join(SDK_DIR, 'dist', 'index.d.ts'))).toBe(true);
  });

  it('holds its own copy of the contract, identical to the server’s', () => {
    const copied = path.join(SDK_DIR, 'src', 'contract');
    for (const file of fs.readdirSync(path.join(ROOT, 'src', 'contract'))) {
      const original = fs.readFileSync(path.join(ROOT, 'src', 'contract', file), 'utf8');
      expect(fs.readFileSync(path.join(copied, file), 'utf8').endsWith(original), file).toBe(true);
      expect(fs.existsSync(path.join(SDK_DIR, 'dist', 'contract', file.replace(/\.ts$/, '.js'))), file).toBe(
        true,
      );
    }
    const dts = fs.readFileSync(path.join(SDK_DIR, 'dist', 'types.d.ts'), 'utf8');
    expect(dts).toContain("from './contract/diagnostic.js'");
    expect(dts).not.toMatch(/\.\.\/\.\.\/src/);
  });
});
