import { afterEach, describe, expect, it } from 'vitest';
import {
  CONVERTER_ENV,
  CONVERTER_EXEC_ARGV,
  converterFlags,
  SnapshotConverter,
} from '../../src/engine/snapshot-convert.js';

/**
 * The snapshot converter process: conversions in a process of its own (started with the allocator
 * settings it needs), which stops when idle, and which a crash or a stop does not leave broken.
 */

// A 1 x 1 PNG: the converter reads PNG as well as WebP, so no image file is needed.
const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const converters: SnapshotConverter[] = [];
function converter(idleMs?: number): SnapshotConverter {
  const c = new SnapshotConverter(idleMs === undefined ? {} : { idleMs });
  converters.push(c);
  return c;
}
afterEach(() => {
  for (const c of converters.splice(0)) c.close();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the snapshot converter process', () => {
  it('converts in another process, with the allocator settings for it', async () => {
    const c = converter();
    const png = await c.convert({ webp: PNG_1x1, format: 'png' });
    expect(png.data.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.width, png.height]).toEqual([1, 1]);
    const pid = c.pid!;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    const env = (await import('node:fs')).readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    for (const [name, value] of Object.entries(CONVERTER_ENV)) expect(env).toContain(`${name}=${value}`);
    // Started without V8's compilers (they would only cost it memory): the flags are on its command line.
    const argv = (await import('node:fs')).readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    for (const flag of CONVERTER_EXEC_ARGV) expect(argv).toContain(flag);
  });

  it('starts the running Node with its flags, silently (each major takes other flags)', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [...CONVERTER_EXEC_ARGV, '-e', 'setTimeout(() => {}, 50)'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(converterFlags('22.14.0')).toEqual(['--jitless', '--no-expose-wasm']);
    expect(converterFlags('24.21.0')).toEqual(['--jitless']);
  });

  it('fails a conversion it cannot do, and goes on converting', async () => {
    const c = converter();
    await expect(c.convert({ webp: Buffer.from('not an image'), format: 'webp' })).rejects.toThrow();
    const webp = await c.convert({ webp: PNG_1x1, format: 'webp' });
    expect(webp.data.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('starts a new converter after one was killed', async () => {
    const c = converter();
    await c.convert({ webp: PNG_1x1, format: 'png' });
    const first = c.pid!;
    process.kill(first, 'SIGKILL');
    await expect.poll(() => alive(first)).toBe(false);
    const again = await c.convert({ webp: PNG_1x1, format: 'png' });
    expect(again.width).toBe(1);
    expect(c.pid).not.toBe(first);
  });

  it('stops when idle, and starts again on the next conversion', async () => {
    const c = converter(50);
    await c.convert({ webp: PNG_1x1, format: 'png' });
    const first = c.pid!;
    await expect.poll(() => c.pid, { timeout: 10_000 }).toBeUndefined();
    await expect.poll(() => alive(first), { timeout: 10_000 }).toBe(false);
    await c.convert({ webp: PNG_1x1, format: 'webp' });
    expect(c.pid).toBeGreaterThan(0);
  });
});
