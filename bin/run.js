#!/usr/bin/env node
// `heatsource --version` is answered before oclif loads: scripts and shell prompts call it often, and it
// needs nothing but package.json. The line is the one oclif prints.
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(
    `${pkg.oclif.bin}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`,
  );
} else if (Number(process.versions.napi) < 10) {
  // better-sqlite3's binary needs Node-API 10 (Node 22.14): an older Node crashes (SIGSEGV) as it loads
  // it, so say which Node is needed first. Status 4: bundle and state files cannot be read here.
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stderr.write(
    `heatsource: this is Node ${process.version}; heatsource needs Node ${pkg.engines.node} (Node-API 10)\n`,
  );
  process.exitCode = 4;
} else {
  // Most of a start is compiling modules (oclif, fastify, zod and the contract, the MCP SDK): V8's code
  // cache, kept by Node in the system's temporary folder and checked against each file's contents, lets
  // every start after the first skip that. NODE_COMPILE_CACHE=DIR moves it, NODE_DISABLE_COMPILE_CACHE=1
  // turns it off; a folder that cannot be written leaves it off, and nothing else changes.
  const { enableCompileCache } = await import('node:module');
  enableCompileCache();
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
