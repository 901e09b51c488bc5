// Writes oclif.manifest.json at build time, so that `heatsource --help`, `--version` and every command start
// without importing all command modules to discover their flags. oclif's own generator lives in the `oclif`
// packaging tool, which brings a publishing tool chain this project does not use; @oclif/core's Plugin class
// builds the same manifest, and this script only writes it down.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Plugin } from '@oclif/core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const plugin = new Plugin({
  root,
  type: 'core',
  isRoot: true,
  ignoreManifest: true,
  errorOnManifestCreate: true,
});
await plugin.load();
const file = path.join(root, 'oclif.manifest.json');
writeFileSync(file, `${JSON.stringify(plugin.manifest)}\n`);
console.log(
  `oclif manifest: ${Object.keys(plugin.manifest.commands).length} commands -> ${path.relative(process.cwd(), file)}`,
);
