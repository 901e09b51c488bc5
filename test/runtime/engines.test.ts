import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../sdk/build.js';

// The supported Node floor is package.json's `engines.node`: it must be true of every installed package
// (so that `npm ci` on the floor raises no EBADENGINE warning), of the SDK, and be the floor CI runs on.

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const floor: string = read('package.json').engines.node;

describe('the supported Node versions', () => {
  it('the lowest version the floor admits is one every installed package accepts', () => {
    const lowest = semver.minVersion(floor);
    expect(lowest).not.toBeNull();
    const lock = read('package-lock.json') as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refused: string[] = [];
    for (const [where, pkg] of Object.entries(lock.packages)) {
      const wants = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      // Only what is installed here: platform packages for other systems are in the lockfile too.
      if (!wants || (where && !fs.existsSync(path.join(ROOT, where)))) continue;
      if (lowest && !semver.satisfies(lowest, wants))
        refused.push(`${where || 'heatsource'} wants node ${wants}`);
    }
    expect(refused).toEqual([]);
    expect(read('sdk/package.json').engines.node).toBe(floor);
  });

  it('CI runs the whole suite on the floor and on the current LTS, installed from the registry', () => {
    const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    const list = ci.match(/NODE_VERSIONS="\$\{HEATSOURCE_CI_NODE_VERSIONS:-([\d. ]+)\}"/)?.[1]?.split(' ');
    // The floor exactly as engines states it (not a later release of its major), then the LTS.
    const lowest = semver.minVersion(floor);
    expect(list).toEqual([`${lowest?.major}.${lowest?.minor}`, '24']);
    expect(lowest?.major).toBe(22);
    expect(ci).toMatch(/npm install --prefix "\$prefix" [^\n]*"node@\$version"/);
    // What README tells a newcomer to run is what CI runs, on each version.
    expect(ci).toMatch(/npm ci\n\s*PATH="\$bin:\$PATH" npm test\n/);
  });

  // A Node older than the floor (the machine's own, where it has one) is told which Node to use, in one
  // line and with status 4, instead of crashing as it loads the SQLite binary.
  const older = ['/usr/bin/node', '/usr/local/bin/node'].find((node) => {
    if (!fs.existsSync(node)) return false;
    return Number(execFileSync(node, ['-p', 'process.versions.napi'], { encoding: 'utf8' })) < 10;
  });
  it.skipIf(!older)(
    `an older Node is told the floor (${older ?? 'no Node older than the floor here'})`,
    () => {
      const run = spawnSync(older!, [path.join(ROOT, 'bin', 'run.js'), 'lookup', '--brand', 'Demotherm'], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(4);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^heatsource: this is Node v\d+\.\d+\.\d+; heatsource needs Node >=22\.14 \(Node-API 10\)\n$/,
      );
    },
  );
});
