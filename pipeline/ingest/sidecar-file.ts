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
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, problems: [{ field: '(file)', reason: `cannot read: ${(err as Error).message}` }] };
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
