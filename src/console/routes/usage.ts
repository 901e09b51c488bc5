import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { periodOf } from '../../state/period.js';
import { LEDGER_ROWS_SHOWN, ledgerCsv, usagePage } from '../pages/usage.js';
import type { ConsoleKit } from './kit.js';

/** The month's usage and quota, and the ledger as CSV. */
export function usageRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { ctx, state, sendPage, signedIn } = kit;

  const periodParam = z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional()
    .catch(undefined);

  app.get('/usage', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    const id = session.account.id;
    const period = periodOf(Date.now()).name;
    const [quota, daily, ledger, keys] = await Promise.all([
      state.quota(id),
      state.accountHolders.dailyUsage(id, period),
      state.ledger({ account_id: id, period, limit: LEDGER_ROWS_SHOWN + 1 }),
      state.keys(id),
    ]);
    return sendPage(reply, usagePage(ctx, { session, quota, daily, ledger, keys }));
  });

  app.get('/usage.csv', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    const period = periodParam.parse((req.query as { period?: string }).period) ?? periodOf(Date.now()).name;
    const id = session.account.id;
    const [ledger, keys] = await Promise.all([
      state.ledger({ account_id: id, period, limit: 1_000_000 }),
      state.keys(id),
    ]);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="heatsource-usage-${period}.csv"`)
      .send(ledgerCsv(ledger, keys));
  });
}
