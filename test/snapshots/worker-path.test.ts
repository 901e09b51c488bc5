import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderWorkerUrl } from '../../pipeline/snapshots/worker-path.js';

describe('renderWorkerUrl', () => {
  it('uses the sibling worker when running compiled code', () => {
    const url = renderWorkerUrl('file:///srv/app/dist/pipeline/snapshots/pool.js');
    expect(url.href).toBe('file:///srv/app/dist/pipeline/snapshots/render-worker.js');
  });

  it('points TypeScript sources at the compiled worker under dist', () => {
    const url = renderWorkerUrl(new URL('../../pipeline/snapshots/pool.ts', import.meta.url).href);
    expect(url.pathname.endsWith('/dist/pipeline/snapshots/render-worker.js')).toBe(true);
  });

  it('asks for a build when the compiled worker is missing', () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'snapshots-'));
    const source = pathToFileURL(path.join(repo, 'pipeline/snapshots/pool.ts')).href;
    expect(() => renderWorkerUrl(source)).toThrow(/npm run build/);
  });
});
