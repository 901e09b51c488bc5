import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompleteOutcome } from '../../src/state/records.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import type { CompleteInput } from '../../src/state/types.js';

/**
 * Completions queued in one turn of the event loop are written as one group (a single pass, or one by
 * one with a savepoint each when one of them fails). Whatever the grouping, each caller must get the
 * outcome, and the state must hold the rows, that the same completions awaited one at a time give.
 */
const open: SqliteStateStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function fileStore(): SqliteStateStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-completions-'));
  const s = new SqliteStateStore(path.join(dir, 'state.sqlite'), {
    now: () => Date.parse('2026-03-10T12:00:00Z'),
  });
  open.push(s);
  return s;
}

type Scenario = (ids: { limited: string; free: string }) => CompleteInput[];

/** An outcome as the caller sees it: ok, the quota that refused it, or the class of the error thrown. */
async function settle(p: Promise<CompleteOutcome>): Promise<string> {
  try {
    const o = await p;
    return o.ok ? 'ok' : `refused ${o.quota.used}/${o.quota.limit}`;
  } catch (err) {
    return `error ${(err as Error).name}`;
  }
}

/** Runs the scenario on a fresh store, all queued in one turn or each awaited; returns what it left. */
async function run(scenario: Scenario, grouped: boolean) {
  const s = fileStore();
  const limited = (await s.createAccount({ name: 'limited', quota_limit: 3 })).id;
  const free = (await s.createAccount({ name: 'free', quota_limit: null })).id;
  const inputs = scenario({ limited, free });
  const outcomes: string[] = [];
  if (grouped) {
    outcomes.push(...(await Promise.all(inputs.map((input) => settle(s.complete(input))))));
  } else {
    for (const input of inputs) outcomes.push(await settle(s.complete(input)));
  }
  const ledger = (await s.ledger()).map((e) => `${e.account_id === limited ? 'L' : 'F'} ${e.request_id}`);
  const usage = async (id: string) => {
    const u = await s.usage(id);
    return { used: u.quota.used, by_operation: u.by_operation };
  };
  return {
    outcomes,
    ledger: ledger.sort(),
    limited: await usage(limited),
    free: await usage(free),
    sessions: (await s.sessions(free)).map((x) => `${x.id} v${x.version}`).sort(),
  };
}

const charge = (account_id: string, n: number, operation = 'diagnose') => ({
  account_id,
  key_id: null,
  operation,
  request_id: `r${n}`,
  idempotency_key: null,
});

const session = (id: string, account_id: string, expected_version: number | null) => ({
  id,
  account_id,
  status: 'active',
  equipment: 'air_water',
  expected_version,
  model: '{"m":1}',
  state: `{"v":${expected_version}}`,
});

describe('completions queued in one turn', () => {
  it('charge up to the quota in order, per account and operation, as one at a time does', async () => {
    const scenario: Scenario = ({ limited, free }) => [
      { charge: charge(limited, 1) },
      { charge: charge(free, 2) },
      { charge: charge(limited, 3, 'search') },
      { charge: charge(free, 4, 'search') },
      { charge: charge(limited, 5) },
      { charge: charge(limited, 6) },
      { charge: charge(free, 7) },
      { charge: charge(limited, 8, 'search') },
    ];
    const grouped = await run(scenario, true);
    expect(grouped).toEqual(await run(scenario, false));
    expect(grouped.outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'refused 3/3', 'ok', 'refused 3/3']);
    expect(grouped.limited).toEqual({
      used: 3,
      by_operation: [
        { operation: 'diagnose', units: 2 },
        { operation: 'search', units: 1 },
      ],
    });
    expect(grouped.free.by_operation).toEqual([
      { operation: 'diagnose', units: 2 },
      { operation: 'search', units: 1 },
    ]);
  });

  it('leave the others whole when one fails, and roll back the failing one with its charge', async () => {
    const scenario: Scenario = ({ limited, free }) => [
      { charge: charge(free, 1), session: session('ds_a', free, null) },
      { charge: charge(limited, 2) },
      // The same new session again: its insert conflicts, and its charge must not stay.
      { charge: charge(free, 3), session: session('ds_a', free, null) },
      { charge: charge(limited, 4) },
      { charge: charge(free, 5), session: session('ds_b', free, null) },
      { charge: charge(limited, 6) },
      // Refused by the quota: its session is not written.
      { charge: charge(limited, 7), session: session('ds_c', limited, null) },
      { session: session('ds_a', free, 1) },
      // A version that no longer matches (ds_a is at 2 once the write above is in).
      { charge: charge(free, 9), session: session('ds_a', free, 1) },
    ];
    const grouped = await run(scenario, true);
    expect(grouped).toEqual(await run(scenario, false));
    expect(grouped.outcomes).toEqual([
      'ok',
      'ok',
      'error SessionConflictError',
      'ok',
      'ok',
      'ok',
      'refused 3/3',
      'ok',
      'error SessionConflictError',
    ]);
    expect(grouped.ledger).toEqual(['F r1', 'F r5', 'L r2', 'L r4', 'L r6']);
    expect(grouped.free.used).toBe(2);
    expect(grouped.sessions).toEqual(['ds_a v2', 'ds_b v1']);
  });
});
