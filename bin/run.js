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
} else {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
