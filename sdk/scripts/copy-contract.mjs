// Copies the server's zod contract (../src/contract/*.ts) into src/contract/ so that the published
// package is self-contained and its types are the server's own. The contract may import only zod and
// its sibling modules: anything else would drag server code into the package, so it fails the build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdkDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.resolve(sdkDir, '..', 'src', 'contract');
const targetDir = path.join(sdkDir, 'src', 'contract');
const distDir = path.join(sdkDir, 'dist', 'contract');

const HEADER =
  '// Generated from src/contract by sdk/scripts/copy-contract.mjs: edit the original, not this copy.\n';
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const sources = fs
  .readdirSync(sourceDir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .sort();
if (sources.length === 0) throw new Error(`no contract modules in ${sourceDir}`);

const problems = [];
for (const file of sources) {
  const text = fs.readFileSync(path.join(sourceDir, file), 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (spec === 'zod') continue;
    const sibling = /^\.\/([A-Za-z0-9_-]+)\.js$/.exec(spec);
    if (sibling && sources.includes(`${sibling[1]}.ts`)) continue;
    problems.push(`${file} imports "${spec}"`);
  }
}
if (problems.length > 0) {
  console.error(`the contract must import only zod and its sibling modules:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

fs.mkdirSync(targetDir, { recursive: true });
for (const file of sources) {
  const text = fs.readFileSync(path.join(sourceDir, file), 'utf8');
  const target = path.join(targetDir, file);
  const next = HEADER + text;
  if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== next) fs.writeFileSync(target, next);
}
// A module removed from the contract must not survive in the copy or in the compiled package.
for (const file of fs.readdirSync(targetDir)) {
  if (!sources.includes(file)) fs.rmSync(path.join(targetDir, file));
}
if (fs.existsSync(distDir)) {
  const kept = new Set(sources.map((f) => f.replace(/\.ts$/, '')));
  for (const file of fs.readdirSync(distDir)) {
    if (!kept.has(file.split('.')[0])) fs.rmSync(path.join(distDir, file));
  }
}
