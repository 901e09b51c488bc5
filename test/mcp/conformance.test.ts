import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../api/build.js';

const SKIP = process.env.HEATSOURCE_SKIP_CONFORMANCE === '1';
if (SKIP) {
  console.warn(
    'MCP conformance suite skipped: HEATSOURCE_SKIP_CONFORMANCE=1 (it installs node@24, Inspector and ' +
      '@modelcontextprotocol/conformance from the npm registry; run .ci/mcp-conformance.sh to run it alone)',
  );
}

function run(script: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe.skipIf(SKIP)('the official MCP conformance suite', () => {
  it(
    'passes every scenario that applies, the others being listed with their reason',
    async () => {
      ensureBuilt();
      const { status, output } = await run(path.join(ROOT, '.ci', 'mcp-conformance.sh'), {
        ...process.env,
        HEATSOURCE_CONFORMANCE_BUILD: '0',
        // The suite, Inspector and node@24 are kept between runs; the script installs them when missing.
        HEATSOURCE_CONFORMANCE_TOOLS: path.join(os.tmpdir(), 'heatsource-mcp-conformance-tools'),
      });
      expect(status, output).toBe(0);
      for (const scenario of [
        'server-initialize',
        'ping',
        'tools-list',
        'resources-list',
        'dns-rebinding-protection',
        'prompts-list',
      ]) {
        expect(output).toMatch(new RegExp(`^PASS +${scenario}$`, 'm'));
      }
      // MCP Inspector's CLI lists the tools and calls one in each protocol era.
      for (const era of ['modern', 'auto', 'legacy']) {
        for (const method of ['tools/list', 'tools/call']) {
          expect(output).toMatch(new RegExp(`^INSPECTOR +${era} ${method} OK$`, 'm'));
        }
      }
      expect(output).toMatch(/unexpected failures: 0, stale entries: 0, suite exit status: 0/);
    },
    15 * 60_000,
  );
});
