import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { holderStoreContract } from './holder-store-contract.js';

holderStoreContract('SQLite', async () => new SqliteStateStore(':memory:'));
