import { type Html, html } from './html.js';
import type { SignedIn } from './session.js';

export interface LayoutContext {
  /** Where the console is mounted: `/console`. */
  base: string;
  /** Hashed asset names by file. */
  asset: (file: 'console.css' | 'console.js') => string;
}

export type Section = 'keys' | 'usage' | 'try' | null;

const NAV: { section: Exclude<Section, null>; path: string; label: string }[] = [
  { section: 'keys', path: '/keys', label: 'Keys' },
  { section: 'usage', path: '/usage', label: 'Usage' },
  { section: 'try', path: '/try', label: 'Try it' },
];

/** The frame of every console page: a skip link, the header with navigation when signed in, the main area. */
export function layout(
  ctx: LayoutContext,
  page: { title: string; section?: Section; session?: SignedIn | null; body: Html; wide?: boolean },
): string {
  const s = page.session;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · heatsource console</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="${ctx.base}/assets/${ctx.asset('console.css')}">
<script src="${ctx.base}/assets/${ctx.asset('console.js')}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="${ctx.base}/">heatsource <span>console</span></a>
  ${
    s
      ? html`<nav aria-label="Console">
    <ul>${NAV.map(
      (n) =>
        html`<li><a href="${ctx.base}${n.path}"${n.section === page.section ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
    )}</ul>
  </nav>
  <form class="who" method="post" action="${ctx.base}/sign-out">
    <span title="${s.holder.email}">${s.account.name}</span>
    <input type="hidden" name="csrf" value="${s.csrf}">
    <button type="submit" class="link">Sign out</button>
  </form>`
      : ''
  }
</header>
<main id="main"${page.wide ? html` class="wide"` : ''}>
${page.body}
</main>
</body>
</html>
`.value;
}

/** A status line for the outcome of the previous action, announced to screen readers. */
export function notice(text: string | null | undefined, kind: 'ok' | 'error' = 'ok'): Html {
  if (!text) return html``;
  return html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

export function dateTime(iso: string | null): Html {
  if (!iso) return html`<span class="muted">never</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
