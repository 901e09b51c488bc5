import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleReader } from '../../src/bundle/reader.js';
import { buildApp } from '../../src/serve/app.js';
import { openStateStore } from '../../src/state/open.js';
import type { StateStore } from '../../src/state/types.js';
import { buildFixtureBundle } from '../api/fixture.js';
import { hasPg, pgSchema } from '../helpers/pg.js';
import { connectClient } from '../mcp/harness.js';
import { UNIT } from './helpers.js';

/**
 * The cap on open sessions per API key (serve --max-open-sessions), through a listening server on each
 * store: one start too many answers 409 too_many_open_sessions and is not charged; closing one frees a place;
 * another key of the same account keeps its own count.
 */
let bundle: string;
const drops: (() => Promise<void>)[] = [];
beforeAll(async () => {
  bundle = await buildFixtureBundle();
}, 120_000);
afterAll(async () => {
  for (const drop of drops.splice(0)) await drop();
});

const backends = [
  {
    name: 'SQLite',
    skip: false,
    spec: () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-cap-')), 'state.sqlite'),
  },
  {
    name: 'PostgreSQL',
    skip: !hasPg,
    spec: () => {
      const { url, drop } = pgSchema('cap');
      drops.push(drop);
      return url;
    },
  },
];

describe.each(backends)('open sessions per key on $name', ({ skip, spec }) => {
  it.skipIf(skip)(
    'refuses one start too many with a problem document until one is closed',
    async () => {
      const state: StateStore = await openStateStore(spec());
      const reader = new BundleReader(bundle);
      let app: FastifyInstance | undefined;
      try {
        app = await buildApp({ bundle: reader, state, maxOpenSessions: 2, logger: false });
        const base = await app.listen({ host: '127.0.0.1', port: 0 });
        const account = await state.createAccount({ name: 'cap-co' });
        const a = await state.createKey(account.id, 'test');
        const b = await state.createKey(account.id, 'test');
        const start = (secret: string) =>
          fetch(`${base}/v2/diagnostic-sessions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: JSON.stringify(UNIT),
          });

        const first = await start(a.secret);
        const second = await start(a.secret);
        expect([first.status, second.status]).toEqual([201, 201]);
        const refused = await start(a.secret);
        expect(refused.status).toBe(409);
        expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const problem = (await refused.json()) as Record<string, unknown>;
        expect(problem).toMatchObject({
          type: 'urn:heatsource:problem:too_many_open_sessions',
          code: 'too_many_open_sessions',
          status: 409,
        });
        expect(problem.detail).toMatch(/2 open sessions/);
        expect(problem.detail).toMatch(/close/);
        // The same refusal, from the same problem table, over MCP.
        const mcp = await connectClient(`${base}/mcp`, { authorization: `Bearer ${a.secret}` });
        try {
          const viaMcp = (await mcp.callTool({ name: 'start_diagnostic_session', arguments: UNIT })) as {
            isError?: boolean;
            structuredContent?: Record<string, unknown>;
          };
          expect(viaMcp.isError).toBe(true);
          expect(viaMcp.structuredContent).toMatchObject({ code: 'too_many_open_sessions', status: 409 });
        } finally {
          await mcp.close();
        }
        // The refused starts were not charged: two units so far.
        expect((await state.quota(account.id)).used).toBe(2);

        // Another key of the same account counts its own sessions.
        expect((await start(b.secret)).status).toBe(201);

        // Closing one of the first key's sessions frees a place.
        const { id } = (await first.json()) as { id: string };
        const closed = await fetch(`${base}/v2/diagnostic-sessions/${id}/close`, {
          method: 'POST',
          headers: { authorization: `Bearer ${a.secret}`, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(closed.status).toBe(200);
        expect((await start(a.secret)).status).toBe(201);
        expect((await start(a.secret)).status).toBe(409);
        expect((await state.quota(account.id)).used).toBe(4);
      } finally {
        await app?.close();
        await state.close();
        reader.close();
      }
    },
    60_000,
  );
});
