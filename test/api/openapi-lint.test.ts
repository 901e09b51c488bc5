import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { buildFixtureBundle, type TestApi, testApi } from './fixture.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const REDOCLY = path.join(ROOT, 'node_modules', '.bin', 'redocly');

let api: TestApi;
let dir: string;
let doc: Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
};

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle());
  const res = await api.request({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-openapi-'));
});

afterAll(async () => {
  await api?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Redocly CLI's lint with its recommended ruleset, offline and without telemetry; its JSON report. */
function lint(file: string): { totals: { errors: number; warnings: number }; problems: unknown[] } {
  const run = spawnSync(
    REDOCLY,
    ['lint', file, '--extends', 'recommended', '--format', 'json', '--max-problems', '1000'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      timeout: 120_000,
    },
  );
  const text = run.stdout;
  expect(text, `${run.stderr}`).toMatch(/"totals"/);
  return JSON.parse(text.slice(text.indexOf('{')));
}

describe('the served OpenAPI document', () => {
  it("passes Redocly's recommended ruleset with no error and no warning", () => {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    const report = lint(file);
    expect(report.problems, JSON.stringify(report.problems, null, 2).slice(0, 4000)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('is checked by a lint that can fail: an unused component and a missing server are reported', () => {
    const broken = {
      ...doc,
      servers: undefined,
      components: { ...doc.components, schemas: { ...doc.components.schemas, Orphan: { type: 'string' } } },
    };
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, JSON.stringify(broken));
    const report = lint(file);
    expect(report.totals.errors + report.totals.warnings).toBeGreaterThanOrEqual(2);
  });

  it('names its server, describes /mcp and /metrics, and holds only the components it uses', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.paths['/mcp']?.post).toMatchObject({ operationId: 'mcp' });
    expect(doc.paths['/mcp']?.get).toBeUndefined();
    expect(doc.paths['/metrics']?.get).toMatchObject({ operationId: 'metrics' });
    const { components: _components, ...rest } = doc;
    const referenced = new Set<string>();
    const walk = (schema: unknown) => {
      for (const m of JSON.stringify(schema).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
        if (referenced.has(m[1]!)) continue;
        referenced.add(m[1]!);
        walk(doc.components.schemas[m[1]!]);
      }
    };
    walk(rest);
    expect(new Set(Object.keys(doc.components.schemas))).toEqual(referenced);
    for (const op of OPERATIONS.filter((o) => o.method === 'POST' && !o.path.includes(':'))) {
      const body = (
        doc.paths[op.path]!.post as { requestBody: { content: Record<string, { schema: unknown }> } }
      ).requestBody.content['application/json']!.schema;
      expect(body, op.name).toHaveProperty('$ref');
    }
  });
});
