import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-layering-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Files of a project laid out as ours, each importing one module, linted with our biome.json. */
function lint(files: Record<string, string>): Set<string> {
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'biome.json'), 'utf8'));
  config.vcs = { enabled: false };
  fs.writeFileSync(path.join(dir, 'biome.json'), JSON.stringify(config));
  for (const [file, from] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), `import { x } from '${from}';\n\nexport const y = x;\n`);
  }
  const run = spawnSync(BIOME, ['lint', '--reporter=json', '--max-diagnostics=1000', ...Object.keys(files)], {
    cwd: dir,
    encoding: 'utf8',
  });
  const report = JSON.parse(run.stdout) as {
    diagnostics: { category: string; location: { path: { file: string } | string } }[];
  };
  const flagged = new Set<string>();
  for (const d of report.diagnostics) {
    if (d.category !== 'lint/style/noRestrictedImports') continue;
    const p = d.location.path;
    flagged.add(typeof p === 'string' ? p : p.file);
  }
  return flagged;
}

describe('the layering lint (biome.json noRestrictedImports)', () => {
  it('refuses imports across adapters, from src into pipeline or commands, and into commands', () => {
    const forbidden = {
      'src/mcp/a.ts': '../http/auth.js',
      'src/mcp/b.ts': '../serve/app.js',
      'src/http/a.ts': '../mcp/index.js',
      'src/http/b.ts': '../console/index.js',
      'src/console/a.ts': '../mcp/index.js',
      'src/console/b.ts': '../http/routes.js',
      'src/app/a.ts': '../console/index.js',
      'src/app/b.ts': '../../pipeline/ingest/run.js',
      'src/edge/a.ts': '../http/routes.js',
      'src/engine/a.ts': '../../pipeline/ingest/run.js',
      'src/cli/a.ts': '../../commands/serve.js',
      'pipeline/a.ts': '../commands/ingest.js',
    };
    const allowed = {
      'src/mcp/ok.ts': '../edge/auth.js',
      'src/http/ok.ts': '../edge/problem.js',
      'src/serve/ok.ts': '../mcp/index.js',
      'src/serve/ok2.ts': '../http/index.js',
      'src/engine/ok.ts': '../contract/common.js',
      'src/app/ok.ts': '../engine/diagnostic.js',
      'pipeline/ok.ts': '../src/bundle/reader.js',
      'commands/ok.ts': '../src/serve/server.js',
    };
    const flagged = lint({ ...forbidden, ...allowed });
    expect([...flagged].sort()).toEqual(Object.keys(forbidden).sort());
  });
});
