import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StateStore } from '../../src/state/types.js';

const hashOf = (s: string) => crypto.createHash('sha256').update(s).digest();
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

/**
 * What every StateStore must do for the console's account holders (the HolderStore group), whatever
 * holds the data: run it with a function that opens an empty store.
 */
export function holderStoreContract(name: string, open: () => Promise<StateStore>): void {
  describe(`${name}: account holders`, () => {
    let state: StateStore;
    beforeEach(async () => {
      state = await open();
    });
    afterEach(async () => {
      await state.close();
    });

    async function invite(accountName: string, email: string, token: string, expires = inAnHour()) {
      const account =
        (await state.accountByName(accountName)) ?? (await state.createAccount({ name: accountName }));
      const inv = await state.accountHolders.createInvitation({
        account_id: account.id,
        email,
        token_hash: hashOf(token),
        expires_at: expires,
      });
      return { account, inv };
    }

    it('uses an invitation once, creating the holder with a lower-cased email', async () => {
      const { account, inv } = await invite('acme', 'Ops@Acme.example', 'tok-1');
      expect(inv.email).toBe('ops@acme.example');
      expect(inv.used_at).toBeNull();
      expect((await state.accountHolders.openInvitation(hashOf('tok-1')))?.id).toBe(inv.id);
      const holder = await state.accountHolders.acceptInvitation(hashOf('tok-1'), '$argon2id$first');
      expect(holder).toMatchObject({ account_id: account.id, email: 'ops@acme.example' });
      expect(await state.accountHolders.openInvitation(hashOf('tok-1'))).toBeUndefined();
      expect(await state.accountHolders.acceptInvitation(hashOf('tok-1'), '$argon2id$again')).toBeUndefined();
      expect((await state.accountHolders.holderByEmail('OPS@acme.example'))?.password_hash).toBe(
        '$argon2id$first',
      );
      expect((await state.accountHolders.holders(account.id)).map((h) => h.email)).toEqual([
        'ops@acme.example',
      ]);
    });

    it('refuses expired and unknown invitations', async () => {
      await invite('acme', 'late@acme.example', 'tok-old', anHourAgo());
      expect(await state.accountHolders.openInvitation(hashOf('tok-old'))).toBeUndefined();
      expect(await state.accountHolders.acceptInvitation(hashOf('tok-old'), 'h')).toBeUndefined();
      expect(await state.accountHolders.acceptInvitation(hashOf('never issued'), 'h')).toBeUndefined();
      expect(await state.accountHolders.holderByEmail('late@acme.example')).toBeUndefined();
    });

    it('a new invitation for a holder replaces the password and ends their sessions', async () => {
      await invite('acme', 'ops@acme.example', 'tok-a');
      const holder = (await state.accountHolders.acceptInvitation(hashOf('tok-a'), 'first'))!;
      await state.accountHolders.createConsoleSession({
        token_hash: hashOf('s1'),
        holder_id: holder.id,
        expires_at: inAnHour(),
      });
      expect((await state.accountHolders.consoleSession(hashOf('s1')))?.holder.id).toBe(holder.id);
      await invite('acme', 'ops@acme.example', 'tok-b');
      const again = await state.accountHolders.acceptInvitation(hashOf('tok-b'), 'second');
      expect(again?.id).toBe(holder.id);
      expect((await state.accountHolders.holderByEmail('ops@acme.example'))?.password_hash).toBe('second');
      expect(await state.accountHolders.consoleSession(hashOf('s1'))).toBeUndefined();
    });

    it('a new invitation for an email ends the earlier links to it', async () => {
      await invite('acme', 'ops@acme.example', 'tok-leaked');
      await invite('acme', 'other@acme.example', 'tok-other');
      await invite('acme', 'OPS@acme.example', 'tok-new');
      expect(await state.accountHolders.openInvitation(hashOf('tok-leaked'))).toBeUndefined();
      expect(await state.accountHolders.openInvitation(hashOf('tok-other'))).toBeDefined();
      const holder = await state.accountHolders.acceptInvitation(hashOf('tok-new'), 'mine');
      expect(holder?.email).toBe('ops@acme.example');
      expect(await state.accountHolders.acceptInvitation(hashOf('tok-leaked'), 'stolen')).toBeUndefined();
      expect((await state.accountHolders.holderByEmail('ops@acme.example'))?.password_hash).toBe('mine');
    });

    it("an invitation of another account for a holder's email is void", async () => {
      await invite('acme', 'ops@acme.example', 'tok-a');
      await state.accountHolders.acceptInvitation(hashOf('tok-a'), 'first');
      await invite('other', 'ops@acme.example', 'tok-o');
      expect(await state.accountHolders.acceptInvitation(hashOf('tok-o'), 'stolen')).toBeUndefined();
      expect((await state.accountHolders.holderByEmail('ops@acme.example'))?.password_hash).toBe('first');
    });

    it('finds live console sessions with holder and account; expired and deleted ones are gone', async () => {
      const { account } = await invite('acme', 'ops@acme.example', 'tok');
      const holder = (await state.accountHolders.acceptInvitation(hashOf('tok'), 'h'))!;
      await state.accountHolders.createConsoleSession({
        token_hash: hashOf('live'),
        holder_id: holder.id,
        expires_at: inAnHour(),
      });
      await state.accountHolders.createConsoleSession({
        token_hash: hashOf('old'),
        holder_id: holder.id,
        expires_at: anHourAgo(),
      });
      const s = await state.accountHolders.consoleSession(hashOf('live'));
      expect(s?.account).toMatchObject({ id: account.id, name: 'acme' });
      expect(s?.holder).toMatchObject({ id: holder.id, email: 'ops@acme.example' });
      expect(await state.accountHolders.consoleSession(hashOf('old'))).toBeUndefined();
      await state.accountHolders.deleteConsoleSession(hashOf('live'));
      expect(await state.accountHolders.consoleSession(hashOf('live'))).toBeUndefined();
    });

    it('counts sign-in failures per scope since an instant, and clears one scope', async () => {
      const since = anHourAgo();
      await state.accountHolders.recordSignInFailure(['email:a', 'ip:1']);
      await state.accountHolders.recordSignInFailure(['email:b', 'ip:1']);
      expect(await state.accountHolders.signInFailures('email:a', since)).toBe(1);
      expect(await state.accountHolders.signInFailures('ip:1', since)).toBe(2);
      expect(await state.accountHolders.signInFailures('ip:1', inAnHour())).toBe(0);
      await state.accountHolders.clearSignInFailures('email:a');
      expect(await state.accountHolders.signInFailures('email:a', since)).toBe(0);
      expect(await state.accountHolders.signInFailures('ip:1', since)).toBe(2);
      // Withdrawing takes back one failure of that scope only.
      await state.accountHolders.withdrawSignInFailure('ip:1');
      expect(await state.accountHolders.signInFailures('ip:1', since)).toBe(1);
      expect(await state.accountHolders.signInFailures('email:b', since)).toBe(1);
      await state.accountHolders.withdrawSignInFailure('ip:9');
    });

    it('sums billable units per day of a period, per account', async () => {
      const a = await state.createAccount({ name: 'a' });
      const b = await state.createAccount({ name: 'b' });
      for (const [account, n] of [
        [a, 3],
        [b, 1],
      ] as const) {
        for (let i = 0; i < n; i++) {
          await state.complete({
            charge: {
              account_id: account.id,
              key_id: null,
              operation: 'diagnose',
              request_id: `r${i}`,
              idempotency_key: null,
            },
          });
        }
      }
      const period = (await state.quota(a.id)).period;
      const today = new Date().toISOString().slice(0, 10);
      expect(await state.accountHolders.dailyUsage(a.id, period)).toEqual([{ day: today, units: 3 }]);
      expect(await state.accountHolders.dailyUsage(b.id, period)).toEqual([{ day: today, units: 1 }]);
      expect(await state.accountHolders.dailyUsage(a.id, '2000-01')).toEqual([]);
    });
  });
}
