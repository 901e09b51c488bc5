import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectPath } from '../project-path.js';

/** Where the app is served; its service worker's scope. */
export const APP_PATH = '/app';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Everything the app loads comes from this server ('self'); SQLite's WebAssembly needs
 * 'wasm-unsafe-eval' to be compiled; pages and highlights are drawn from blob: URLs of the pack's images.
 * The API may be another HTTPS server the technician names.
 */
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' blob:; connect-src 'self' https:; " +
  "style-src 'self'; worker-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export interface FieldAppOptions {
  /** The built app (scripts/build-app.ts); default dist/app. */
  dir?: string;
}

/**
 * The field app at /app: static files built by `npm run build` (the engine bundled for the browser,
 * SQLite's WebAssembly, the service worker, manifest and icons), read once into memory. The app calls
 * the REST API like any client; this adapter serves files only and imports no other adapter.
 */
export async function registerFieldApp(app: FastifyInstance, options: FieldAppOptions = {}): Promise<void> {
  const dir = options.dir ?? projectPath('dist', 'app');
  const files = new Map<string, { type: string; body: Buffer }>();
  if (fs.existsSync(path.join(dir, 'index.html'))) {
    for (const name of fs.readdirSync(dir)) {
      const type = TYPES[path.extname(name)];
      if (type) files.set(name, { type, body: fs.readFileSync(path.join(dir, name)) });
    }
  }
  const serve = (req: FastifyRequest, reply: FastifyReply) => {
    // The router takes /app and /app/ as one route: relative URLs in the page need the slash.
    if (req.url.split('?')[0] === APP_PATH) return reply.redirect(`${APP_PATH}/`, 301);
    const name = (req.params as { '*'?: string })['*'] || 'index.html';
    const file = files.get(name);
    if (!file) {
      if (files.size === 0) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The field app is not built on this server: run `npm run build`.\n');
      }
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found.\n');
    }
    // Revalidated on every online load; offline, the service worker answers from its own cache.
    reply.header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff');
    if (file.type.startsWith('text/html')) {
      reply.header('Content-Security-Policy', CSP).header('Referrer-Policy', 'no-referrer');
    }
    return reply.type(file.type).send(file.body);
  };
  app.get(APP_PATH, serve);
  app.get(`${APP_PATH}/*`, serve);
}
