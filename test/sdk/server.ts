import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildFixtureBundle, type TestApi, testApi } from '../api/fixture.js';

export interface ListeningApi {
  api: TestApi;
  baseUrl: string;
  apiKey: string;
  accountId: string;
  close(): Promise<void>;
}

/** The REST API over the fixture bundle, listening on 127.0.0.1 with a fresh state and one test key. */
export async function listeningApi(): Promise<ListeningApi> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-sdk-'));
  const api = await testApi(await buildFixtureBundle(), { stateFile: path.join(dir, 'state.sqlite') });
  const key = await api.key('sdk');
  const baseUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    api,
    baseUrl,
    apiKey: key.secret,
    accountId: key.accountId,
    async close() {
      await api.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
