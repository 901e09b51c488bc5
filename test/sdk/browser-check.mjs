// Loads the built SDK the way a browser would see it: its whole import graph (zod included) is linked as
// ES modules inside a vm context whose only globals are web platform ones, then it calls a live server.
// Run with --experimental-vm-modules; prints a JSON report on stdout.
//   node --experimental-vm-modules browser-check.mjs <sdk entry> <base url> <api key>
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const [entry, baseUrl, apiKey] = process.argv.slice(2);
const IMPORT =
  /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** The file a package's export condition names, for a browser (browser, then import, then default). */
function exportTarget(value) {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    for (const condition of ['browser', 'import', 'default']) {
      if (condition in value) {
        const found = exportTarget(value[condition]);
        if (found) return found;
      }
    }
  }
  return null;
}

function resolve(specifier, fromFile) {
  if (specifier.startsWith('.') || specifier.startsWith('/'))
    return path.resolve(path.dirname(fromFile), specifier);
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const subpath = `.${specifier.slice(name.length)}`;
  for (let dir = path.dirname(fromFile); ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(pkgDir, 'package.json'))) {
      const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
      const target = pkg.exports
        ? exportTarget(pkg.exports[subpath] ?? (subpath === '.' ? pkg.exports : undefined))
        : null;
      const file = target ?? (subpath === '.' ? (pkg.module ?? pkg.main ?? 'index.js') : subpath);
      return path.join(pkgDir, file);
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot resolve ${specifier} from ${fromFile}`);
  }
}

// 1. The static import graph: every module reachable from the entry, and any Node builtin it names.
const graph = new Map();
const nodeImports = [];
const pending = [path.resolve(entry)];
while (pending.length > 0) {
  const file = pending.pop();
  if (graph.has(file)) continue;
  const source = fs.readFileSync(file, 'utf8');
  const deps = [];
  for (const m of source.matchAll(IMPORT)) {
    const specifier = m[1] ?? m[2];
    if (BUILTINS.has(specifier) || specifier.startsWith('node:')) {
      nodeImports.push(`${path.relative(process.cwd(), file)} imports ${specifier}`);
      continue;
    }
    const target = resolve(specifier, file);
    deps.push([specifier, target]);
    pending.push(target);
  }
  graph.set(file, { source, deps });
}

// Node-only globals named in the SDK's own code (zod is checked by running it).
const sdkDir = path.dirname(path.resolve(entry));
const nodeGlobals = [];
for (const [file, { source }] of graph) {
  if (!file.startsWith(sdkDir)) continue;
  for (const word of ['process', 'Buffer', 'require', '__dirname', '__filename', 'global']) {
    if (new RegExp(`\\b${word}\\b(?!:)`).test(source.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''))) {
      nodeGlobals.push(`${path.relative(process.cwd(), file)} uses ${word}`);
    }
  }
}

const report = {
  modules: graph.size,
  files: [...graph.keys()].map((f) => path.relative(process.cwd(), f)),
  nodeImports,
  nodeGlobals,
};
if (nodeImports.length > 0 || !baseUrl) {
  // A Node builtin cannot be linked here; the static report is the verdict.
  process.stdout.write(JSON.stringify({ ...report, globalsPresent: null, exports: null, result: null }));
  process.exit(0);
}

// 2. Link and run it in a context with web globals only.
const globals = {
  fetch,
  AbortController,
  AbortSignal,
  crypto: globalThis.crypto,
  URL,
  URLSearchParams,
  TextEncoder,
  TextDecoder,
  setTimeout,
  clearTimeout,
};
const context = vm.createContext({ ...globals });
const modules = new Map();
function moduleOf(file) {
  let mod = modules.get(file);
  if (!mod) {
    mod = new vm.SourceTextModule(graph.get(file).source, { identifier: file, context });
    modules.set(file, mod);
  }
  return mod;
}
const root = moduleOf(path.resolve(entry));
await root.link((specifier, referencing) => {
  const dep = graph.get(referencing.identifier).deps.find(([s]) => s === specifier);
  if (!dep) throw new Error(`unexpected import ${specifier} in ${referencing.identifier}`);
  return moduleOf(dep[1]);
});
await root.evaluate();

context.__sdk = root.namespace;
context.__args = { baseUrl, apiKey };
const absent = vm.runInContext(
  "['process', 'Buffer', 'require', 'global'].filter((name) => typeof globalThis[name] !== 'undefined')",
  context,
);
const run = vm.runInContext(
  `(async () => {
    const { createClient, HeatsourceError } = __sdk;
    const hs = createClient({ baseUrl: __args.baseUrl, apiKey: __args.apiKey });
    const answer = await hs.diagnose({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' });
    const image = await hs.getPdfSnapshot({ document_id: 'alpha-service-en', page: 2 });
    let problem = null;
    try { await hs.getErrorCode({ brand: 'Nobrand', code: 'E9' }); } catch (e) {
      problem = { isHeatsourceError: e instanceof HeatsourceError, code: e.code, status: e.status };
    }
    return { state: answer.state, page: answer.citation && answer.citation.page, imageBytes: image.data.byteLength,
      imageIsUint8Array: image.data instanceof Uint8Array, problem };
  })()`,
  context,
);
const result = await run;
process.stdout.write(
  JSON.stringify({
    ...report,
    globalsPresent: absent,
    exports: Object.keys(root.namespace).sort(),
    result,
  }),
);
