import { periodOf } from './period.js';
import type { Account, ApiKey, KeyMode, StateStore, UsageSummary } from './types.js';

export const DEFAULT_ACCOUNT = 'default';

export interface CreatedKeyReport {
  account: Account;
  key: ApiKey;
  /** Shown once; only its hash is stored. */
  secret: string;
  account_created: boolean;
}

/**
 * Creates a key for an account, creating the account when it does not exist. A quota or rate limit
 * given here is set on the account (new or existing).
 */
export async function createKeyFor(
  state: StateStore,
  input: {
    account?: string;
    mode: KeyMode;
    quota?: number | null;
    rateLimit?: number | null;
    label?: string | null;
  },
): Promise<CreatedKeyReport> {
  const name = input.account?.trim() || DEFAULT_ACCOUNT;
  let account = await state.accountByName(name);
  const created = !account;
  if (!account) {
    account = await state.createAccount({
      name,
      quota_limit: input.quota ?? null,
      ...(input.rateLimit !== undefined ? { rate_limit_per_minute: input.rateLimit } : {}),
    });
  } else if (input.quota !== undefined || input.rateLimit !== undefined) {
    account = await state.updateAccount(account.id, {
      ...(input.quota !== undefined ? { quota_limit: input.quota } : {}),
      ...(input.rateLimit !== undefined ? { rate_limit_per_minute: input.rateLimit } : {}),
    });
  }
  const { key, secret } = await state.createKey(account.id, input.mode, input.label ?? null);
  return { account, key, secret, account_created: created };
}

export interface KeyListing extends ApiKey {
  account: string;
}

export async function listKeys(state: StateStore, accountName?: string): Promise<KeyListing[]> {
  const accounts = await state.accounts();
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  let accountId: string | undefined;
  if (accountName) {
    const account = accounts.find((a) => a.name === accountName.trim());
    if (!account) throw new Error(`no account "${accountName}"`);
    accountId = account.id;
  }
  return (await state.keys(accountId)).map((k) => ({
    ...k,
    account: names.get(k.account_id) ?? k.account_id,
  }));
}

export async function usageReport(
  state: StateStore,
  accountName?: string,
  period?: string,
): Promise<UsageSummary[]> {
  const accounts = await state.accounts();
  const chosen = accountName ? accounts.filter((a) => a.name === accountName.trim()) : accounts;
  if (accountName && chosen.length === 0) throw new Error(`no account "${accountName}"`);
  return Promise.all(chosen.map((a) => state.usage(a.id, period)));
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function formatKeys(keys: KeyListing[]): string {
  if (keys.length === 0) return 'no keys';
  return table([
    ['ID', 'ACCOUNT', 'PREFIX', 'MODE', 'CREATED', 'LAST USED', 'REVOKED'],
    ...keys.map((k) => [
      k.id,
      k.account,
      `${k.prefix}…`,
      k.mode,
      k.created_at.slice(0, 19),
      k.last_used_at?.slice(0, 19) ?? '-',
      k.revoked_at?.slice(0, 19) ?? '-',
    ]),
  ]);
}

export function formatUsage(reports: UsageSummary[]): string {
  if (reports.length === 0) return 'no accounts';
  const period = reports[0]?.quota.period ?? periodOf(Date.now()).name;
  const lines = [`usage for ${period}`];
  lines.push(
    table([
      ['ACCOUNT', 'USED', 'LIMIT', 'REMAINING', 'RESETS', 'BY OPERATION'],
      ...reports.map((r) => [
        r.account.name,
        String(r.quota.used),
        r.quota.limit === null ? 'unlimited' : String(r.quota.limit),
        r.quota.remaining === null ? '-' : String(r.quota.remaining),
        r.quota.resets_at.slice(0, 10),
        r.by_operation.map((o) => `${o.operation}=${o.units}`).join(' ') || '-',
      ]),
    ]),
  );
  return lines.join('\n');
}
