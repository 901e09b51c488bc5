import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projectPath } from '../project-path.js';
import { CONSOLE_PATH } from '../state/invitations.js';

/**
 * What answers at the root of the server, so that a browser or a client pointed at the bare address lands
 * somewhere: a page linking the console, the OpenAPI document and the API guide for a browser, and the
 * same links as a JSON index for a client that asks for JSON. `/favicon.ico` is an icon, not a 404.
 */

/** The API guide as it ships in the checkout (docs/API.md), served as text. */
const API_GUIDE = projectPath('docs', 'API.md');

/** A heat-pump-ish mark: a rounded square with a wave, in the console's accent colour. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#b3261e"/><path d="M6 20c3-6 6-6 9 0s6 6 9 0" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>`;

interface Link {
  rel: string;
  href: string;
  title: string;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function prefersHtml(req: FastifyRequest): boolean {
  const accept = String(req.headers.accept ?? '');
  const html = /text\/html/.test(accept);
  const json = /application\/(?:[\w.+-]*\+)?json/.test(accept);
  return html && (!json || accept.indexOf('text/html') < accept.search(/application\/(?:[\w.+-]*\+)?json/));
}

export function landingRoutes(app: FastifyInstance, options: { version: string }): void {
  const links = (): Link[] => [
    ...(app.hasRoute({ method: 'GET', url: CONSOLE_PATH })
      ? [{ rel: 'console', href: `${CONSOLE_PATH}/`, title: 'Web console: API keys, usage, try a look-up' }]
      : []),
    { rel: 'openapi', href: '/v1/openapi.json', title: 'OpenAPI 3.1 document of the REST API' },
    ...(fs.existsSync(API_GUIDE)
      ? [{ rel: 'docs', href: '/docs/API.md', title: 'API guide: errors, billing, decisions (Markdown)' }]
      : []),
    { rel: 'mcp', href: '/mcp', title: 'MCP endpoint (Streamable HTTP, POST)' },
    { rel: 'health', href: '/readyz', title: 'Readiness' },
  ];

  app.get('/', async (req, reply) => {
    reply.header('Vary', 'Accept');
    if (!prefersHtml(req)) {
      return { name: 'heatsource', version: options.version, links: links() };
    }
    const items = links()
      .map(
        (l) =>
          `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a> <code>${escapeHtml(l.href)}</code></li>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>heatsource</title><link rel="icon" href="/favicon.ico" type="image/svg+xml">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}code{font:0.9em ui-monospace,monospace;color:#555}li{margin:.4rem 0}</style>
</head><body><main><h1>heatsource ${escapeHtml(options.version)}</h1>
<p>Sourced answers for heat-pump troubleshooting, from manufacturer manuals.</p>
<ul>
${items}
</ul>
<p>API calls send <code>Authorization: Bearer</code> with a key from the console.</p></main></body></html>\n`;
  });

  app.get('/docs/API.md', async (_req, reply) => {
    const text = await fs.promises.readFile(API_GUIDE, 'utf8');
    // text/plain so that a browser shows it rather than downloading it.
    reply.type('text/plain; charset=utf-8');
    return text;
  });

  app.get('/favicon.ico', async (_req, reply) => {
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400');
    return ICON;
  });
}
