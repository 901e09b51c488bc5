import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureBundle, type TestApi, testApi } from './fixture.js';

/**
 * Requests repeated over one keep-alive connection, as a client library sends them: the key is
 * recognised by the connection it came over and a cached answer is written as the bytes kept for it,
 * and neither may change what the client gets: a revocation or a quota still refuses the very next
 * request, another key is judged on its own, every answer is the same bytes and billed once.
 */
let api: TestApi;
let base: string;
const answer = { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' };

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle());
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => api.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  socket: Socket;
}

/** One POST over the agent's connection (the agent keeps a single one alive). */
function post(agent: http.Agent, authorization: string, payload: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/v1/diagnostic`,
      { method: 'POST', agent, headers: { authorization, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            socket: res.socket as Socket,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(payload));
  });
}

function oneConnection(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

describe('requests over one keep-alive connection', () => {
  it('answer a repeat with the same bytes, billed each time, and refuse the key once revoked', async () => {
    const k = await api.key('keep-alive');
    const agent = oneConnection();
    try {
      const first = await post(agent, k.authorization, answer);
      const second = await post(agent, k.authorization, answer);
      const third = await post(agent, k.authorization, answer);
      expect(second.socket).toBe(first.socket);
      expect(third.socket).toBe(first.socket);
      for (const a of [first, second, third]) {
        expect(a.status).toBe(200);
        expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(Number(a.headers['content-length'])).toBe(a.body.length);
      }
      expect(second.body.equals(first.body)).toBe(true);
      expect(third.body.equals(first.body)).toBe(true);
      expect(JSON.parse(first.body.toString('utf8'))).toMatchObject({ billable: true });
      expect(await api.state.ledger({ account_id: k.accountId })).toHaveLength(3);

      // Another key over the same connection is judged on its own.
      const wrong = `${k.authorization.slice(0, -1)}${k.authorization.endsWith('A') ? 'B' : 'A'}`;
      const refused = await post(agent, wrong, answer);
      expect(refused.socket).toBe(first.socket);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body.toString('utf8')).code).toBe('invalid_api_key');

      await api.state.revokeKey(k.keyId);
      const revoked = await post(agent, k.authorization, answer);
      expect(revoked.socket).toBe(first.socket);
      expect(revoked.status).toBe(401);
      expect(JSON.parse(revoked.body.toString('utf8')).code).toBe('api_key_revoked');
      expect(await api.state.ledger({ account_id: k.accountId })).toHaveLength(3);
    } finally {
      agent.destroy();
    }
  });

  it('refuse the request past the quota, and see a raised quota at once', async () => {
    const k = await api.key('keep-alive-quota', { quota: 2 });
    const agent = oneConnection();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await post(agent, k.authorization, answer)).status);
      expect(statuses).toEqual([200, 200, 429]);
      await api.state.updateAccount(k.accountId, { quota_limit: 3 });
      const raised = await post(agent, k.authorization, answer);
      expect(raised.status).toBe(200);
      expect((await post(agent, k.authorization, answer)).status).toBe(429);
      expect(await api.state.ledger({ account_id: k.accountId })).toHaveLength(3);
    } finally {
      agent.destroy();
    }
  });
});
