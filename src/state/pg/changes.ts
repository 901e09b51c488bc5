import pg from 'pg';
import type { AuthCache } from '../auth-cache.js';
import { TYPES } from './connection.js';

/** The channel every process listens on; the payload names the schema whose keys or accounts changed. */
const CHANGES_CHANNEL = 'heatsource_state_changes';
const RELISTEN_MS = 1_000;

/**
 * Revocations and account changes reach every process by NOTIFY: a connection of its own LISTENs and
 * clears the authentication cache on each change to this schema. While it is down, `listening` is false
 * (the accounts part then caches for a second only) and it reconnects every second.
 */
export class ChangeListener {
  private listener?: pg.Client;
  private relisten?: NodeJS.Timeout;
  private closed = false;
  listening = false;

  constructor(
    private readonly connectionString: string,
    private readonly schema: string,
    private readonly auth: AuthCache,
  ) {}

  async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString, types: TYPES });
    const lost = () => {
      if (this.listener !== client) return;
      this.listening = false;
      this.listener = undefined;
      this.auth.clear();
      client.end().catch(() => {});
      if (!this.closed) this.relisten = setTimeout(() => void this.listen().catch(lost), RELISTEN_MS);
      this.relisten?.unref();
    };
    this.listener = client;
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel === CHANGES_CHANNEL && n.payload === this.schema) this.auth.clear();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      this.listening = true;
      // Changes made while no one listened are not replayed: start from an empty cache.
      this.auth.clear();
    } catch (err) {
      lost();
      if (!this.relisten) throw err;
    }
  }

  /** Bumps the change stamp and tells every process, inside the caller's transaction. */
  async notify(c: pg.ClientBase): Promise<void> {
    await c.query('UPDATE state_changes SET stamp = stamp + 1 WHERE id = 1');
    await c.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, this.schema]);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relisten);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => {});
  }
}
