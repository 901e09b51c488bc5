import { afterAll } from 'vitest';
import { openStateStore } from '../../src/state/open.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { hasPg, pgSchema } from '../helpers/pg.js';
import { holderStoreContract } from './holder-store-contract.js';

holderStoreContract('SQLite', async () => new SqliteStateStore(':memory:'));

// The same contract on PostgreSQL, a schema of its own per store opened (skipped, saying why, without one).
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops.splice(0)) await drop();
});
if (hasPg) {
  holderStoreContract('PostgreSQL', async () => {
    const { url, drop } = pgSchema('holders');
    drops.push(drop);
    return openStateStore(url, { poolMax: 2 });
  });
}
