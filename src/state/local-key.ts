import type { Account, StateStore } from './types.js';

export const LOCAL_ACCOUNT = 'local';

/**
 * With an empty state, creates the `local` account (no quota) and one test key for it, and returns the
 * key so that it can be shown once. With any account present, does nothing and returns null.
 */
export async function ensureLocalKey(
  state: StateStore,
): Promise<{ account: Account; secret: string } | null> {
  if ((await state.accounts()).length > 0) return null;
  let account: Account;
  try {
    account = await state.createAccount({ name: LOCAL_ACCOUNT, quota_limit: null });
  } catch (err) {
    // Replicas started together on an empty shared state: one of them creates it, the others show nothing.
    if (await state.accountByName(LOCAL_ACCOUNT)) return null;
    throw err;
  }
  const { secret } = await state.createKey(account.id, 'test', 'created by serve on an empty state');
  return { account, secret };
}

/** The account requests run as when the server runs without keys (loopback only). */
export async function localAccount(state: StateStore): Promise<Account> {
  return (
    (await state.accountByName(LOCAL_ACCOUNT)) ??
    (await state.createAccount({ name: LOCAL_ACCOUNT, quota_limit: null, rate_limit_per_minute: null }))
  );
}

/** How to try a key against a local server, with a query the served bundle can answer when one is known. */
export function curlExample(
  baseUrl: string,
  secret: string,
  example: { brand: string; model: string; error_code: string } = {
    brand: 'BRAND',
    model: 'MODEL',
    error_code: 'CODE',
  },
): string {
  const body = JSON.stringify(example).replace(/'/g, "'\\''");
  return (
    // Double quotes around the header: a key given as $HEATSOURCE_API_KEY is expanded by the shell.
    `curl -s ${baseUrl}/v1/diagnostic -H "Authorization: Bearer ${secret}" ` +
    `-H 'Content-Type: application/json' -d '${body}'`
  );
}
