import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-layering-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Files of a project laid out as ours, each importing one module, linted with our biome.json. */
function lint(files: Record<string, string>, rule = 'lint/style/noRestrictedImports'): Set<string> {
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
    if (d.category !== rule) continue;
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
      'src/cli/b.ts': '../http/index.js',
      'src/client/a.ts': '../serve/server.js',
      'src/engine/b.ts': '../mcp/index.js',
      'src/engine/c.ts': '../edge/auth.js',
      'src/state/a.ts': '../console/index.js',
      'src/bundle/a.ts': '../cli/style.js',
      'src/contract/a.ts': '../http/index.js',
      'src/search/a.ts': '../serve/server.js',
      'src/serve/a.ts': '../cli/style.js',
      'src/project-path-b.ts': './http/index.js',
      'pipeline/a.ts': '../commands/ingest.js',
      'pipeline/b.ts': '../src/http/index.js',
      'pipeline/c.ts': '../src/serve/server.js',
    };
    const allowed = {
      'src/mcp/ok.ts': '../edge/auth.js',
      'src/http/ok.ts': '../edge/problem.js',
      'src/serve/ok.ts': '../mcp/index.js',
      'src/serve/ok2.ts': '../http/index.js',
      'src/engine/ok.ts': '../contract/common.js',
      'src/app/ok.ts': '../engine/diagnostic.js',
      'src/cli/ok.ts': '../client/local.js',
      'src/client/ok.ts': '../contract/openapi.js',
      'src/engine/ok2.ts': '../state/types.js',
      'src/serve/ok3.ts': '../console/index.js',
      'pipeline/ok2.ts': '../src/text/normalise.js',
      'pipeline/ok.ts': '../src/bundle/reader.js',
      'commands/ok.ts': '../src/serve/server.js',
    };
    const flagged = lint({ ...forbidden, ...allowed });
    expect([...flagged].sort()).toEqual(Object.keys(forbidden).sort());
  });
});

describe('the import-cycle lint (biome.json noImportCycles)', () => {
  it('flags two modules that import each other', () => {
    const flagged = lint(
      { 'src/engine/cycle-a.ts': './cycle-b.js', 'src/engine/cycle-b.ts': './cycle-a.js' },
      'lint/suspicious/noImportCycles',
    );
    expect(flagged.size).toBeGreaterThan(0);
  });
});

/** Relative imports of every .ts file under the given folders, type-only ones included, as file -> files. */
function importGraph(folders: string[]): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const folder of folders) walk(path.join(ROOT, folder));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imports = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles;
    const targets: string[] = [];
    for (const { fileName } of imports) {
      if (!fileName.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '');
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
      if (target) targets.push(path.relative(ROOT, target));
    }
    graph.set(path.relative(ROOT, file), targets);
  }
  return graph;
}

/** Strongly connected components of more than one node (Tarjan): each is an import cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The room of a file: the top-level folder of src/ it lies in (src itself for files at its root), or pipeline. */
function roomOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length > 2 ? `src/${parts[1]}` : 'src';
}

describe('the import graph of src/ and pipeline/', () => {
  const graph = importGraph(['src', 'pipeline']);

  it('finds cycles when there are some (the check itself can fail)', () => {
    const sample = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(sample)).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads the real graph', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join('src', 'http', 'index.ts'))).toContain(
      path.join('src', 'contract', 'openapi.ts'),
    );
  });

  it('has no cycle between files, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between rooms (the top-level folders of src/, and pipeline)', () => {
    const rooms = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      const from = roomOf(file);
      const into = rooms.get(from) ?? [];
      for (const target of targets) if (roomOf(target) !== from) into.push(roomOf(target));
      rooms.set(from, into);
    }
    expect(cycles(rooms)).toEqual([]);
  });
});

describe('the size of a module', () => {
  it('keeps every file under src/ and pipeline/ to 500 lines or fewer', () => {
    const long: string[] = [];
    for (const file of importGraph(['src', 'pipeline']).keys()) {
      const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;
      if (lines > 500) long.push(`${file}: ${lines} lines`);
    }
    expect(long).toEqual([]);
  });
});
