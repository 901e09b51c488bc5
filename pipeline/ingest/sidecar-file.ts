import fs from 'node:fs';
import { parse } from 'yaml';
import { Sidecar } from '../../src/contract/sidecar.js';

export interface FieldProblem {
  field: string;
  reason: string;
}

export type SidecarResult =
  | { ok: true; sidecar: Sidecar; raw: string }
  | { ok: false; problems: FieldProblem[] };

/** Reads and validates a sidecar; every problem names the field it is about. */
export function readSidecar(file: string): SidecarResult {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    return { ok: false, problems: [{ field: '(file)', reason: `cannot read: ${(err as Error).message}` }] };
  }
  // Strict UTF-8: a sidecar saved in Latin-1 or Windows-1252 would otherwise put U+FFFD into titles and
  // model names without a word.
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problems: [{ field: '(file)', reason: notUtf8(bytes) }] };
  }
  let data: unknown;
  try {
    data = parse(raw);
  } catch (err) {
    const first = (err as Error).message.split('\n')[0];
    return { ok: false, problems: [{ field: '(yaml)', reason: `not valid YAML: ${first}` }] };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, problems: [{ field: '(root)', reason: 'must be a mapping of fields' }] };
  }
  const parsed = Sidecar.safeParse(data);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({
        field: i.path.length ? i.path.join('.') : '(root)',
        reason: i.message,
      })),
    };
  }
  return { ok: true, sidecar: parsed.data, raw };
}

/** Where a sidecar stops being UTF-8: the line of the first byte that is not, and that byte. */
function notUtf8(bytes: Buffer): string {
  // In streaming mode a prefix decodes unless it holds a bad byte (a sequence cut at its end waits for
  // more), so the longest prefix that decodes ends right before the first bad byte.
  const decodes = (n: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (decodes(mid)) lo = mid;
    else hi = mid - 1;
  }
  // The byte found may continue a sequence begun just before (0xE9 then "p"): name the sequence's start.
  let start = lo;
  for (let k = 1; k <= 3 && lo - k >= 0; k++) {
    const b = bytes[lo - k]!;
    if (b >= 0xc0) start = lo - k;
    if (b < 0x80 || b >= 0xc0) break;
  }
  const line = bytes.subarray(0, start).filter((b) => b === 0x0a).length + 1;
  const bad = (bytes[start] ?? 0).toString(16).padStart(2, '0');
  return `not UTF-8: line ${line} holds the byte 0x${bad}; save the sidecar as UTF-8`;
}
