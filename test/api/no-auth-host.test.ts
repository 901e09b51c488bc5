import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureBundle, type TestApi, testApi } from './fixture.js';

describe('serving without keys answers loopback hosts only', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await testApi(await buildFixtureBundle(), { auth: false });
  });
  afterAll(() => api.close());

  it('answers a request addressed to 127.0.0.1 without a key', async () => {
    const res = await api.request({
      method: 'GET',
      url: '/v1/registry',
      headers: { host: '127.0.0.1:8080' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a request addressed to another host name (DNS rebinding) with a problem', async () => {
    const res = await api.request({
      method: 'GET',
      url: '/v1/registry',
      headers: { host: 'attacker.example:8080' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json()).toMatchObject({ code: 'host_not_allowed', status: 403 });
  });

  it('keeps health checks reachable whatever the host', async () => {
    const res = await api.request({ method: 'GET', url: '/healthz', headers: { host: 'lb.internal' } });
    expect(res.statusCode).toBe(200);
  });
});
