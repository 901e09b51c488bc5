import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** What a test sends: the shape of fastify's `inject` options, so that a test reads the same either way. */
export interface HttpRequest {
  method?: string;
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  /** An object is sent as JSON (with `content-type: application/json` unless given); a string or Buffer as is. */
  payload?: unknown;
  body?: unknown;
}

/** What came back over the socket: status, headers, the body as text and as bytes. */
export interface HttpReply {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  rawPayload: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON it expects, as with inject's json()
  json<T = any>(): T;
}

/**
 * Sends requests to an app over a real loopback socket (started on the first request, so that a test may
 * still add routes or hooks before it), the way a client meets it: real parsing of the request, real
 * headers and body on the wire. node:http rather than fetch, because fetch rewrites some headers (Host,
 * Connection) that tests set on purpose.
 */
export class LoopbackClient {
  private port: Promise<number> | undefined;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  constructor(private readonly app: FastifyInstance) {}

  private listening(): Promise<number> {
    // An app its test already started (the MCP harness does) is reached where it listens.
    this.port ??= this.app.server.listening
      ? Promise.resolve((this.app.server.address() as AddressInfo).port)
      : this.app
          .listen({ host: '127.0.0.1', port: 0 })
          .then(() => (this.app.server.address() as AddressInfo).port);
    return this.port;
  }

  async request(req: HttpRequest): Promise<HttpReply> {
    const port = await this.listening();
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
    const given = req.payload ?? req.body;
    let body: Buffer | undefined;
    if (given !== undefined) {
      if (Buffer.isBuffer(given)) body = given;
      else if (typeof given === 'string') body = Buffer.from(given);
      else {
        body = Buffer.from(JSON.stringify(given));
        headers['content-type'] ??= 'application/json';
      }
      headers['content-length'] = String(body.length);
    }
    return new Promise((resolve, reject) => {
      const out = http.request(
        { host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.url, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const rawPayload = Buffer.concat(chunks);
            const text = rawPayload.toString('utf8');
            resolve({
              statusCode: res.statusCode ?? 0,
              headers: res.headers,
              body: text,
              rawPayload,
              json: () => JSON.parse(text),
            });
          });
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  /** Closes the client's kept-alive sockets; the app's own close stops the listener. */
  close(): void {
    this.agent.destroy();
  }
}
