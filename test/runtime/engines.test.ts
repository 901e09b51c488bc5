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

  it('CI can run the whole suite on the floor, installed from the registry', () => {
    const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/NODE_VERSIONS="\$\{HEATSOURCE_CI_NODE_VERSIONS:-[\d ]*\}"/);
    expect(ci).toMatch(/npm install --prefix "\$prefix" [^\n]*"node@\$major"/);
    expect(semver.minVersion(floor)?.major).toBe(22);
    // What README tells a newcomer to run is what CI runs, on each version.
    expect(ci).toMatch(/npm ci\n\s*PATH="\$bin:\$PATH" npm test\n/);
  });
});
