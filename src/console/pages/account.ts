import { type Html, html } from '../html.js';
import { type LayoutContext, layout, notice } from '../layout.js';
import { MIN_PASSWORD } from '../passwords.js';

export function signInPage(
  ctx: LayoutContext,
  v: { csrf: string; email?: string; error?: string | null; info?: string | null },
): string {
  return layout(ctx, {
    title: 'Sign in',
    body: html`<section class="card narrow">
<h1>Sign in</h1>
${notice(v.error, 'error')}${notice(v.info)}
<form method="post" action="${ctx.base}/sign-in">
  <input type="hidden" name="csrf" value="${v.csrf}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${v.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<p class="muted">No password yet? Use the invitation link you were sent.</p>
</section>`,
  });
}

export function invitationPage(
  ctx: LayoutContext,
  v: { csrf: string; token: string; email: string; account: string; error?: string | null },
): string {
  return layout(ctx, {
    title: 'Set your password',
    body: html`<section class="card narrow">
<h1>Set your password</h1>
<p>You are invited to hold the account <strong>${v.account}</strong> as <strong>${v.email}</strong>.</p>
${notice(v.error, 'error')}
<form method="post" action="${ctx.base}/invitation">
  <input type="hidden" name="csrf" value="${v.csrf}">
  <input type="hidden" name="token" value="${v.token}">
  <input type="hidden" name="email" value="${v.email}" autocomplete="username">
  <label for="password">New password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD}" aria-describedby="password-help">
  <p id="password-help" class="help">At least ${MIN_PASSWORD} characters; a few unrelated words work well.</p>
  <label for="confirm">New password again</label>
  <input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD}">
  <button type="submit">Set password and sign in</button>
</form>
</section>`,
  });
}

export function messagePage(ctx: LayoutContext, title: string, body: Html): string {
  return layout(ctx, { title, body: html`<section class="card narrow"><h1>${title}</h1>${body}</section>` });
}
