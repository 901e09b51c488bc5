import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../edge/auth.js';
import type { HttpMetrics } from '../edge/metrics.js';
import type { Services } from '../engine/services.js';
import { registerOperations } from './routes.js';

export { negotiateImage } from './routes.js';

export interface RestRoutesOptions {
  services: Services;
  authenticate: Authenticator;
  metrics: HttpMetrics;
  /** Reported in the OpenAPI document. */
  version: string;
}

/** The REST API (v1, v2) and its OpenAPI document, on an app whose edge (hooks, errors) is already set up. */
export function restRoutes(app: FastifyInstance, options: RestRoutesOptions): void {
  let openapi: unknown;
  app.get('/v1/openapi.json', async () => {
    // The document's builder is loaded and run on the first request for it, not before the server
    // listens; a failure to load it answers that request with the usual problem document (500).
    if (openapi === undefined) {
      const { buildOpenApi } = await import('../contract/openapi.js');
      openapi ??= buildOpenApi(options.services.operations, { version: options.version });
    }
    return openapi;
  });
  registerOperations(app, options.services, options.authenticate, options.metrics);
}
