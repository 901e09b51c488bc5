/**
 * The server's log as a person at a terminal reads it: one short line per request
 * (`14:02:07  GET /v1/diagnostic  200  3.1 ms`) and one per event, instead of pino's JSON objects. JSON
 * stays the format whenever the log does not go to a terminal, or when asked (`--log-format json`), for
 * log shippers. Written here rather than with pino-pretty: the whole job is one line per record with a
 * fixed choice of fields, which does not warrant a dependency and its transport thread.
 */

export type LogFormat = 'json' | 'lines';

/** `auto`: lines on a terminal, JSON otherwise. */
export function resolveLogFormat(asked: 'auto' | LogFormat | undefined, isTerminal: boolean): LogFormat {
  if (asked === 'json' || asked === 'lines') return asked;
  return isTerminal ? 'lines' : 'json';
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every record carries, or that the line shows already. */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'method',
  'route',
  'status',
  'ms',
]);

function clock(time: unknown): string {
  const d = typeof time === 'number' ? new Date(time) : new Date();
  return d.toTimeString().slice(0, 8);
}

function value(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  if (v && typeof v === 'object' && 'message' in v)
    return JSON.stringify((v as { message: unknown }).message);
  return JSON.stringify(v);
}

/** One pino JSON record (a line ending in a newline) as one readable line; anything else as it came. */
export function readableLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = clock(rec.time);
  const level = typeof rec.level === 'number' ? rec.level : 30;
  const levelWord = level === 30 ? '' : `${LEVELS[level] ?? level}  `;
  if (rec.msg === 'request' && typeof rec.method === 'string') {
    const ms = typeof rec.ms === 'number' ? `${rec.ms.toFixed(1)} ms` : '';
    return `${time}  ${levelWord}${rec.method} ${String(rec.route ?? '')}  ${String(rec.status ?? '')}  ${ms}\n`;
  }
  const extra = Object.entries(rec)
    .filter(([k]) => !SHOWN.has(k))
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(' ');
  return `${time}  ${levelWord}${String(rec.msg ?? '')}${extra ? `  ${extra}` : ''}\n`;
}
