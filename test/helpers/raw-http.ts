import net from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before closing (or before the wait ended). */
  text: string;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
  /** Milliseconds from connecting to the close (or to the end of the wait). */
  ms: number;
  /** The status of the first response, or 0 when none came. */
  status: number;
  /** The first response's headers, lower-cased names. */
  headers: Record<string, string>;
  /** The first response's body. */
  body: string;
}

/**
 * Writes bytes to a raw TCP connection (what no HTTP client lets one send: malformed requests, bodies
 * that never finish) and collects what the server answers until it closes or `waitMs` passes; the
 * connection is then destroyed either way.
 */
export function rawExchange(
  url: string,
  payload: string | Buffer,
  waitMs: number,
  options: { endAfterWrite?: boolean } = {},
): Promise<RawExchange> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: u.hostname, port: Number(u.port) });
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseResponse(Buffer.concat(chunks).toString('utf8'), closed, Date.now() - started));
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('connect', () => {
      if (options.endAfterWrite) socket.end(payload);
      else socket.write(payload);
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

function parseResponse(text: string, closed: boolean, ms: number): RawExchange {
  const m = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/.exec(text);
  const headers: Record<string, string> = {};
  let body = '';
  if (m) {
    const end = text.indexOf('\r\n\r\n');
    for (const line of text.slice(m[0].length, end < 0 ? undefined : end).split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    body = end < 0 ? '' : text.slice(end + 4);
    const length = Number(headers['content-length']);
    if (Number.isFinite(length)) body = Buffer.from(body).subarray(0, length).toString('utf8');
  }
  return { text, closed, ms, status: m ? Number(m[1]) : 0, headers, body };
}

/**
 * POSTs one JSON-RPC message to an MCP endpoint as a plain HTTP client would, without a session or an
 * SDK: what the service document promises any client. The body is parsed when it is JSON.
 */
export async function mcpPost(
  url: string,
  authorization: string,
  message: unknown,
): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, type: res.headers.get('content-type'), body };
}
