// Builds the field app served at /app (src/app/browser) into dist/app: the engine and the app bundled for
// the browser with esbuild, SQLite's WebAssembly build beside it, the static files and the icons. Run by
// `npm run build`; the server only ever serves these files, so the app needs nothing from elsewhere.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import sharp from 'sharp';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT as ROOT } from '../src/project-path.js';

const SRC = path.join(ROOT, 'src', 'app');
const shim = (name: string) => path.join(SRC, 'browser', 'shims', name);

/** Node modules the shared engine code imports, replaced in the browser (see each shim for why). */
const ALIASES: Record<string, string> = {
  'better-sqlite3': shim('unavailable.ts'),
  'node:fs': shim('unavailable.ts'),
  'node:path': shim('unavailable.ts'),
  'node:url': shim('unavailable.ts'),
  'node:crypto': shim('crypto.ts'),
  yaml: shim('unavailable.ts'),
};

export interface AppBuild {
  dir: string;
  /** Content hash of every file: the service worker's cache version. */
  version: string;
  files: string[];
}

export async function buildFieldApp(outDir = path.join(ROOT, 'dist', 'app')): Promise<AppBuild> {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const common: esbuild.BuildOptions = {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    alias: ALIASES,
    inject: [shim('buffer.ts')],
    define: {
      'process.env.NODE_ENV': '"production"',
      __HEATSOURCE_UNITS__: JSON.stringify(
        parseYaml(fs.readFileSync(path.join(ROOT, 'data', 'units.yaml'), 'utf8')),
      ),
      __HEATSOURCE_GLOSSARY__: fs.readFileSync(path.join(ROOT, 'data', 'search', 'glossary.json'), 'utf8'),
      __HEATSOURCE_QUESTION_TYPES__: fs.readFileSync(
        path.join(ROOT, 'data', 'search', 'question-types.json'),
        'utf8',
      ),
      __HEATSOURCE_STOP_WORDS__: fs.readFileSync(path.join(ROOT, 'data', 'text', 'stop-words.json'), 'utf8'),
      __HEATSOURCE_SESSION_WORDS__: fs.readFileSync(
        path.join(ROOT, 'data', 'cli', 'session-words.json'),
        'utf8',
      ),
      __HEATSOURCE_COMPOUND_PARTS__: fs.readFileSync(
        path.join(ROOT, 'data', 'search', 'compound-parts.json'),
        'utf8',
      ),
    },
    // The engine reads its data files from data/ on the server; the browser gets them at build time, in
    // place of the modules that read them.
    plugins: [
      {
        name: 'data-files',
        setup(build) {
          build.onResolve(
            {
              filter:
                /\/(units-table|glossary-source|question-types-source|stop-words-source|compound-parts-source|session-words-source)\.js$/,
            },
            (args) => ({
              path: shim(`${path.basename(args.path, '.js')}.ts`),
            }),
          );
        },
      },
    ],
    logLevel: 'warning',
  };
  // The page's script is split: the engine and SQLite load as a chunk when a pack is first opened.
  await esbuild.build({
    ...common,
    entryPoints: { app: path.join(SRC, 'browser', 'main.ts') },
    outdir: outDir,
    splitting: true,
    chunkNames: 'chunk-[hash]',
  });
  const wasm = path.join(ROOT, 'node_modules', '@sqlite.org', 'sqlite-wasm', 'dist', 'sqlite3.wasm');
  fs.copyFileSync(wasm, path.join(outDir, 'sqlite3.wasm'));
  for (const file of fs.readdirSync(path.join(SRC, 'static'))) {
    fs.copyFileSync(path.join(SRC, 'static', file), path.join(outDir, file));
  }
  const svg = fs.readFileSync(path.join(SRC, 'static', 'icon.svg'));
  for (const size of [192, 512]) {
    await sharp(svg, { density: 300 })
      .resize(size, size)
      .png()
      .toFile(path.join(outDir, `icon-${size}.png`));
  }
  const shell = fs.readdirSync(outDir).sort();
  const hash = crypto.createHash('sha256');
  for (const f of shell) hash.update(f).update(fs.readFileSync(path.join(outDir, f)));
  const version = hash.digest('hex').slice(0, 12);
  // The worker lists the shell it keeps and carries its version, so a new build replaces the old cache.
  await esbuild.build({
    ...common,
    inject: [],
    entryPoints: [path.join(SRC, 'browser', 'sw.ts')],
    outfile: path.join(outDir, 'sw.js'),
    define: { __APP_VERSION__: JSON.stringify(version), __APP_SHELL__: JSON.stringify(shell) },
  });
  return { dir: outDir, version, files: [...shell, 'sw.js'] };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const built = await buildFieldApp();
  const bytes = built.files.reduce((n, f) => n + fs.statSync(path.join(built.dir, f)).size, 0);
  process.stdout.write(
    `field app: ${built.files.length} files, ${(bytes / 1024).toFixed(0)} KiB -> ${path.relative(ROOT, built.dir)}\n`,
  );
}
