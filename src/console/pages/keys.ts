import type { ApiKey } from '../../state/types.js';
import { html } from '../html.js';
import { dateTime, type LayoutContext, layout, notice } from '../layout.js';
import type { SignedIn } from '../session.js';

export function keysPage(
  ctx: LayoutContext,
  v: {
    session: SignedIn;
    keys: ApiKey[];
    secret?: string | null;
    info?: string | null;
    error?: string | null;
  },
): string {
  const active = v.keys.filter((k) => !k.revoked_at);
  const revoked = v.keys.filter((k) => k.revoked_at);
  return layout(ctx, {
    title: 'API keys',
    section: 'keys',
    session: v.session,
    body: html`<h1>API keys</h1>
${notice(v.info)}${notice(v.error, 'error')}
${
  v.secret
    ? html`<section class="card secret" aria-labelledby="new-key">
  <h2 id="new-key">Your new key</h2>
  <p><strong>Copy it now: it is shown this once and never again.</strong> Only its hash is kept.</p>
  <div class="copy-row">
    <label class="visually-hidden" for="secret">New API key</label>
    <textarea id="secret" class="mono key-text" readonly rows="2" spellcheck="false" autocomplete="off" data-new-key>${v.secret}</textarea>
    <button type="button" data-copy="secret" hidden>Copy</button>
  </div>
  <p class="muted copy-status" aria-live="polite" data-copy-status></p>
  <p class="muted">Send it as <code>Authorization: Bearer ${v.secret.slice(0, 8)}…</code></p>
</section>`
    : ''
}
<section class="card" aria-labelledby="create">
  <h2 id="create">Create a key</h2>
  <form method="post" action="${ctx.base}/keys" class="inline">
    <input type="hidden" name="csrf" value="${v.session.csrf}">
    <div>
      <label for="label">Label</label>
      <input id="label" name="label" maxlength="100" placeholder="e.g. workshop tablet" aria-describedby="label-help">
      <p id="label-help" class="help">A note to tell your keys apart.</p>
    </div>
    <fieldset aria-describedby="mode-help">
      <legend>Mode</legend>
      <label class="choice"><input type="radio" name="mode" value="live" checked> Live</label>
      <label class="choice"><input type="radio" name="mode" value="test"> Test</label>
      <p id="mode-help" class="help">Live keys (<code>ak_live_…</code>) are for your production systems. Test keys
      (<code>ak_test_…</code>) are for building and trying an integration: they get the same answers and
      <strong>count against the quota like live keys</strong> (the usage ledger names the key), and can be
      revoked without touching production.</p>
    </fieldset>
    <button type="submit">Create key</button>
  </form>
</section>
<section aria-labelledby="active">
  <h2 id="active">Active keys (${active.length})</h2>
  ${
    active.length === 0
      ? html`<p class="muted">No active key.</p>`
      : html`<div class="table-wrap"><table class="stack">
  <thead><tr><th scope="col">Key</th><th scope="col">Mode</th><th scope="col">Label</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${active.map(
    (k) => html`<tr>
    <td class="mono" data-label="Key">${k.prefix}…</td><td data-label="Mode">${k.mode}</td><td data-label="Label">${k.label ?? ''}</td>
    <td data-label="Created">${dateTime(k.created_at)}</td><td data-label="Last used">${dateTime(k.last_used_at)}</td>
    <td data-label=""><a class="danger" href="${ctx.base}/keys/${k.id}/revoke" aria-label="Revoke ${k.prefix}…">Revoke</a></td>
  </tr>`,
  )}</tbody></table></div>`
  }
</section>
${
  revoked.length > 0
    ? html`<section aria-labelledby="revoked">
  <h2 id="revoked">Revoked keys (${revoked.length})</h2>
  <div class="table-wrap"><table class="stack">
  <thead><tr><th scope="col">Key</th><th scope="col">Mode</th><th scope="col">Label</th><th scope="col">Revoked</th></tr></thead>
  <tbody>${revoked.map(
    (k) =>
      html`<tr><td class="mono" data-label="Key">${k.prefix}…</td><td data-label="Mode">${k.mode}</td><td data-label="Label">${k.label ?? ''}</td><td data-label="Revoked">${dateTime(k.revoked_at)}</td></tr>`,
  )}</tbody></table></div>
</section>`
    : ''
}`,
  });
}

export function revokePage(ctx: LayoutContext, v: { session: SignedIn; key: ApiKey }): string {
  return layout(ctx, {
    title: 'Revoke key',
    section: 'keys',
    session: v.session,
    body: html`<section class="card narrow">
<h1>Revoke key <span class="mono">${v.key.prefix}…</span>?</h1>
<p>${v.key.label ? html`“${v.key.label}”, ` : ''}${v.key.mode} key. Requests with it are refused within a second of revoking. This cannot be undone.</p>
<form method="post" action="${ctx.base}/keys/${v.key.id}/revoke" class="actions">
  <input type="hidden" name="csrf" value="${v.session.csrf}">
  <button type="submit" class="danger">Revoke key</button>
  <a href="${ctx.base}/keys">Cancel</a>
</form>
</section>`,
  });
}
