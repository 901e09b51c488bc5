import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, findNginx, startCluster } from '../../bench/cluster.js';
import type { Session } from '../../src/contract/sessions.js';
import { PgStateStore } from '../../src/state/pg-store.js';
import { buildFixtureBundle } from '../api/fixture.js';
import { hasPg, pgSchema } from '../helpers/pg.js';
import { ensureBuiltOnce } from '../sessions-api/built.js';
import { answerFor, UNIT } from '../sessions-api/helpers.js';

/**
 * Three `serve` processes on one PostgreSQL state, behind nginx configured as docs/DEPLOY.md says. Every
 * rule that used to hold within one process must hold across them.
 */
const nginx = findNginx();
if ('missing' in nginx) console.warn(`[skip] replica tests: ${nginx.missing}`);
const ready = hasPg && 'bin' in nginx;

let cluster: Cluster;
let store: PgStateStore;
let dropSchema: () => Promise<void> = async () => {};

async function keyFor(name: string, quota: number | null, rate: number | null = null): Promise<string> {
  const account = await store.createAccount({ name, quota_limit: quota, rate_limit_per_minute: rate });
  return (await store.createKey(account.id, 'live')).secret;
}

beforeAll(async () => {
  if (!ready || !('bin' in nginx)) return;
  await ensureBuiltOnce();
  const bundle = await buildFixtureBundle();
  const pg = pgSchema('replicas');
  dropSchema = pg.drop;
  store = await PgStateStore.open(pg.url, { poolMax: 4 });
  // An account before the replicas start, so that none of them prints a local key.
  await store.createAccount({ name: 'local' });
  cluster = await startCluster(nginx.bin, bundle, pg.url);
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await store?.close();
  await dropSchema();
});

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  base: string,
  method: string,
  url: string,
  secret: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const r = await fetch(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: r.status, body: parsed };
}

/** Requests each replica served on a route, from its own /metrics. */
async function servedBy(route: string): Promise<number[]> {
  return Promise.all(
    cluster.replicas.map(async (r) => {
      const text = await (await fetch(`${r.url}/metrics`)).text();
      return text
        .split('\n')
        .filter((l) => l.startsWith('heatsource_http_requests_total') && l.includes(`route="${route}"`))
        .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    }),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!ready)('three replicas behind nginx on one PostgreSQL state', () => {
  it('charge 300 concurrent same-key turns once, wherever they land', async () => {
    const secret = await keyFor('turns', null);
    const turn = { brand: UNIT.brand, model: UNIT.model, error_code: UNIT.error_code };
    const idem = 'turn-key-300';
    const one = async (): Promise<Reply> => {
      for (let attempt = 0; attempt < 400; attempt++) {
        const r = await call(cluster.front, 'POST', '/v1/diagnostic/turn', secret, turn, {
          'idempotency-key': idem,
        });
        if (r.status !== 409) return r;
        await sleep(20 + Math.random() * 40);
      }
      throw new Error('still in progress after 400 attempts');
    };
    const replies = await Promise.all(Array.from({ length: 300 }, one));
    expect(replies.map((r) => r.status)).toEqual(Array(300).fill(200));
    const conversations = new Set(replies.map((r) => r.body.conversation_id));
    expect(conversations.size).toBe(1);
    const account = (await store.accountByName('turns'))!;
    const charges = await store.ledger({ account_id: account.id });
    expect(charges).toHaveLength(1);
    expect(charges[0]!.idempotency_key).toBe(idem);
    expect(await store.sessions(account.id)).toHaveLength(1);
    // The balancer spread them: every replica saw some of the 300.
    expect((await servedBy('/v1/diagnostic/turn')).every((n) => n > 0)).toBe(true);
  });

  it('allow exactly 50 of 200 concurrent calls against a quota of 50', async () => {
    const secret = await keyFor('quota', 50);
    const lookup = { brand: UNIT.brand, model: UNIT.model, error_code: UNIT.error_code };
    const replies = await Promise.all(
      Array.from({ length: 200 }, () => call(cluster.front, 'POST', '/v1/diagnostic', secret, lookup)),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
    const problem = replies.find((r) => r.status === 429)!.body;
    expect(problem.error_code ?? problem.code).toBe('quota_exceeded');
    const account = (await store.accountByName('quota'))!;
    expect((await store.quota(account.id)).used).toBe(50);
    expect(await store.ledger({ account_id: account.id })).toHaveLength(50);
  });

  it('count a key rate limit across replicas, not per replica', async () => {
    const secret = await keyFor('rate', null, 30);
    const replies = await Promise.all(
      Array.from({ length: 60 }, () => call(cluster.front, 'GET', '/v1/me', secret)),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(30);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(30);
  });

  it('answer a session created on one replica on another, and summarise it on the third', async () => {
    const secret = await keyFor('sessions', null);
    const [a, b, c] = cluster.replicas;
    const created = await call(a!.url, 'POST', '/v2/diagnostic-sessions', secret, UNIT);
    expect(created.status).toBe(201);
    const session = created.body as unknown as Session;
    const action = session.next_action!;
    const answered = await call(b!.url, 'POST', `/v2/diagnostic-sessions/${session.id}/responses`, secret, {
      action_id: action.id,
      value: answerFor(action),
    });
    expect(answered.status).toBe(200);
    expect((answered.body as unknown as Session).history).toHaveLength(1);
    const summary = await call(c!.url, 'GET', `/v2/diagnostic-sessions/${session.id}/summary`, secret);
    expect(summary.status).toBe(200);
    expect(JSON.stringify(summary.body)).toContain(action.id);
    // The same answer again, on the third replica, is refused: the step is no longer the pending one.
    const stale = await call(c!.url, 'POST', `/v2/diagnostic-sessions/${session.id}/responses`, secret, {
      action_id: action.id,
      value: answerFor(action),
    });
    expect(stale.status).toBe(409);
  });

  it('refuse a revoked key on every replica within a second', async () => {
    const secret = await keyFor('revoked', null);
    for (const r of cluster.replicas) expect((await call(r.url, 'GET', '/v1/me', secret)).status).toBe(200);
    const key = (await store.keys((await store.accountByName('revoked'))!.id))[0]!;
    await store.revokeKey(key.id);
    const revokedAt = Date.now();
    const seen = await Promise.all(
      cluster.replicas.map(async (r) => {
        for (;;) {
          if ((await call(r.url, 'GET', '/v1/me', secret)).status === 401) return Date.now() - revokedAt;
          if (Date.now() - revokedAt > 3_000) return Number.POSITIVE_INFINITY;
          await sleep(20);
        }
      }),
    );
    expect(Math.max(...seen)).toBeLessThan(1_000);
  });

  it('lose no acknowledged write when a replica is killed with SIGKILL under load', async () => {
    const secret = await keyFor('crash', null);
    // Each replica loads the troubleshooting knowledge on its first session; not part of the load.
    for (const r of cluster.replicas) await call(r.url, 'POST', '/v2/diagnostic-sessions', secret, UNIT);
    const acknowledged: { id: string; key: string }[] = [];
    let failed = 0;
    let afterKill = 0;
    let killed = false;
    // Load runs until 3 s after the kill, which comes once some writes were acknowledged (20 s at most).
    let stopAt = Date.now() + 30_000;
    let n = 0;
    const worker = async () => {
      while (Date.now() < stopAt && n < 3_000) {
        const key = `crash-${n++}`;
        try {
          const r = await call(cluster.front, 'POST', '/v2/diagnostic-sessions', secret, UNIT, {
            'idempotency-key': key,
          });
          if (r.status === 201) {
            acknowledged.push({ id: String(r.body.id), key });
            if (killed) afterKill++;
          } else failed++;
        } catch {
          failed++;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, worker));
    const waitUntil = Date.now() + 20_000;
    while (acknowledged.length < 10 && Date.now() < waitUntil) await sleep(50);
    const before = acknowledged.length;
    const victim = cluster.replicas[1]!;
    victim.child.kill('SIGKILL');
    killed = true;
    stopAt = Date.now() + 3_000;
    await load;
    expect(before).toBeGreaterThanOrEqual(10);
    expect(afterKill).toBeGreaterThan(0);
    const account = (await store.accountByName('crash'))!;
    const ledger = await store.ledger({ account_id: account.id, limit: 10_000 });
    const charged = new Map<string, number>();
    for (const e of ledger.filter((x) => x.idempotency_key))
      charged.set(e.idempotency_key!, (charged.get(e.idempotency_key!) ?? 0) + 1);
    for (const { id, key } of acknowledged) {
      expect(await store.session(id), `session ${id}`).toBeDefined();
      expect(charged.get(key), `charge of ${key}`).toBe(1);
    }
    // Nothing was charged twice, acknowledged or not.
    expect([...charged.values()].every((c) => c === 1)).toBe(true);
    console.info(
      `kill -9 under load: ${acknowledged.length} acknowledged (${afterKill} after the kill), ${failed} failed`,
    );
  });
});
