import type { DailyUsage } from '../../state/holders.js';
import { periodByName } from '../../state/period.js';
import type { ApiKey, LedgerEntry, QuotaStatus } from '../../state/types.js';
import { type Html, html } from '../html.js';
import { dateTime, type LayoutContext, layout } from '../layout.js';
import type { SignedIn } from '../session.js';

/** Ledger rows shown on the page; the CSV has them all. */
export const LEDGER_ROWS_SHOWN = 100;

/** Billable calls per day of the period as an SVG bar chart, with the figures as a table for screen readers. */
export function usageChart(period: string, days: DailyUsage[]): Html {
  const p = periodByName(period);
  const count = Math.round((p.end.getTime() - p.start.getTime()) / 86_400_000);
  const byDay = new Map(days.map((d) => [d.day, d.units]));
  const max = Math.max(1, ...days.map((d) => d.units));
  const W = 620;
  const H = 180;
  const left = 36;
  const bottom = 22;
  const plotH = H - bottom - 8;
  const bw = (W - left) / count;
  const bars: Html[] = [];
  for (let i = 0; i < count; i++) {
    const day = new Date(p.start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const n = byDay.get(day) ?? 0;
    const h = (n / max) * plotH;
    bars.push(
      html`<rect x="${(left + i * bw + 1).toFixed(1)}" y="${(8 + plotH - h).toFixed(1)}" width="${Math.max(1, bw - 2).toFixed(1)}" height="${h.toFixed(1)}"><title>${day}: ${n}</title></rect>`,
    );
    // A label every week, and the last day's when it stands clear of the previous label (29 and 31 collide).
    if (i % 7 === 0 || (i === count - 1 && i % 7 >= 4))
      bars.push(
        html`<text x="${(left + i * bw + bw / 2).toFixed(1)}" y="${H - 6}" text-anchor="middle">${Number(day.slice(8))}</text>`,
      );
  }
  return html`<figure class="chart">
<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title" data-chart>
  <title id="chart-title">Billable calls per day in ${period}, at most ${max} on one day</title>
  <line x1="${left}" y1="${8 + plotH}" x2="${W}" y2="${8 + plotH}" class="axis"/>
  <text x="${left - 6}" y="14" text-anchor="end">${max}</text>
  <text x="${left - 6}" y="${8 + plotH}" text-anchor="end">0</text>
  ${bars}
</svg>
<figcaption>Billable calls per day, ${period} (UTC)</figcaption>
</figure>`;
}

export function usagePage(
  ctx: LayoutContext,
  v: {
    session: SignedIn;
    quota: QuotaStatus;
    daily: DailyUsage[];
    ledger: LedgerEntry[];
    keys: ApiKey[];
  },
): string {
  const q = v.quota;
  const prefixes = new Map(v.keys.map((k) => [k.id, `${k.prefix}…`]));
  const pct = q.limit ? Math.min(100, Math.round((q.used / q.limit) * 100)) : null;
  return layout(ctx, {
    title: 'Usage',
    section: 'usage',
    session: v.session,
    body: html`<h1>Usage</h1>
<section class="card quota" aria-labelledby="quota">
  <h2 id="quota">Quota for ${q.period}</h2>
  <dl class="figures">
    <div><dt>Used</dt><dd data-used>${q.used}</dd></div>
    <div><dt>Remaining</dt><dd data-remaining>${q.remaining === null ? 'unlimited' : q.remaining}</dd></div>
    <div><dt>Limit</dt><dd>${q.limit === null ? 'none' : q.limit}</dd></div>
    <div><dt>Resets</dt><dd><time datetime="${q.resets_at}">${q.resets_at.slice(0, 10)}</time></dd></div>
  </dl>
  ${pct === null ? '' : html`<meter min="0" max="${q.limit}" value="${q.used}" aria-label="Quota used">${pct} %</meter>`}
</section>
<section class="card" aria-labelledby="daily">
  <h2 id="daily">Billable calls per day</h2>
  ${usageChart(q.period, v.daily)}
</section>
<section aria-labelledby="ledger">
  <h2 id="ledger">Ledger</h2>
  <p class="muted" data-test-keys>Calls with a test key (<code>ak_test_…</code>) are answered and counted like live ones;
  the Key column tells them apart.</p>
  <p><a href="${ctx.base}/usage.csv?period=${q.period}" download>Download the ledger of ${q.period} as CSV</a></p>
  ${
    v.ledger.length === 0
      ? html`<p class="muted">No billable call in ${q.period} yet.</p>`
      : html`<div class="table-wrap"><table class="stack" data-ledger>
  <caption class="visually-hidden">Billable calls, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">Operation</th><th scope="col">Units</th><th scope="col">Key</th><th scope="col">Request id</th></tr></thead>
  <tbody>${v.ledger.slice(0, LEDGER_ROWS_SHOWN).map(
    (
      e,
    ) => html`<tr><td data-label="Time">${dateTime(e.created_at)}</td><td data-label="Operation">${e.operation}</td><td data-label="Units">${e.units}</td>
    <td class="mono" data-label="Key">${e.key_id ? (prefixes.get(e.key_id) ?? e.key_id) : 'console'}</td><td class="mono small" data-label="Request id">${e.request_id}</td></tr>`,
  )}</tbody></table></div>
  ${v.ledger.length > LEDGER_ROWS_SHOWN ? html`<p class="muted">The newest ${LEDGER_ROWS_SHOWN} calls are shown; the CSV has them all.</p>` : ''}`
  }
</section>`,
  });
}

function csvCell(v: string | number | null): string {
  const s = v === null ? '' : String(v);
  // A leading =, +, - or @ would be a formula in a spreadsheet: prefix it so the cell stays text.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function ledgerCsv(ledger: LedgerEntry[], keys: ApiKey[]): string {
  const prefixes = new Map(keys.map((k) => [k.id, k.prefix]));
  const rows = [
    ['created_at', 'operation', 'units', 'key_prefix', 'request_id', 'idempotency_key', 'period'],
  ];
  for (const e of [...ledger].reverse()) {
    rows.push([
      e.created_at,
      e.operation,
      String(e.units),
      e.key_id ? (prefixes.get(e.key_id) ?? e.key_id) : '',
      e.request_id,
      e.idempotency_key ?? '',
      e.period,
    ]);
  }
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
