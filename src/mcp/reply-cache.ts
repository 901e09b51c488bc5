/*
 * The serialised `result` of answers that repeat.
 *
 * A cached look-up hands the SDK the same tool result object on every repeat (tools.ts keeps it per
 * service result and revision). The SDK validates it against the era's result schema, which answers a
 * fresh copy, and the transport then had to serialise that copy whole, every time: the result's text is
 * the service's JSON and its structured content the same document, so the JSON.stringify of the answer
 * walked the body twice per exchange. Here the JSON of the `result` member the SDK sent for a shared
 * tool result is kept beside that result (weakly: it goes when the service drops it), with the value it
 * was made from; a later answer for the same shared result reuses the JSON only if its `result` is the
 * same JSON value, key order included, as the one serialised. That comparison stops at every value the
 * two share by reference (the SDK's validation copies objects but keeps strings, and the 2026-07-28
 * schema keeps the structured content itself), so it costs far less than the serialisation it replaces,
 * and anything the SDK set differently (another `_meta`, a changed field) is serialised afresh. The
 * rest of the message (`jsonrpc`, the client's `id`) is serialised as JSON.stringify would, in the
 * message's own key order: the bytes are those of `JSON.stringify(message)`.
 *
 * The kept JSON is kept as UTF-8 bytes and the answer is assembled as bytes: built as a string, every
 * answer was a fresh rope of the whole result that the socket write first flattened and then encoded,
 * two copies of a few kilobytes on the JavaScript heap per exchange (BENCHMARKS.md, "MCP tool calls,
 * 2026-11-26 (garbage per exchange)"). Now the only copy is into the answer's buffer, outside the heap.
 *
 * Hand-written: no maintained library splices a cached member into JSON.stringify's output.
 */

import { keptUtf8 } from '../kept-bytes.js';

interface Serialised {
  value: unknown;
  /** The UTF-8 bytes of `JSON.stringify(value)`. */
  bytes: Buffer;
}

/** How deep the comparison walks before it gives up (and the result is serialised afresh). */
const MAX_DEPTH = 64;

/** Whether `a` and `b` serialise to the same JSON text: plain JSON values, same keys in the same order. */
function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > MAX_DEPTH) {
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i]) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) {
      return false;
    }
  }
  return true;
}

/** A plain data object (no toJSON, no class): what JSON.parse and the SDK's schemas produce. */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
}

export class ReplyCache {
  private readonly bySource = new WeakMap<object, Serialised>();

  /**
   * The UTF-8 bytes of `JSON.stringify(message)` for a response whose `result` the SDK made from the
   * shared tool result `source`, reusing the bytes of the last such `result` when it is the same value.
   */
  serialise(message: object, source: object): Buffer {
    const result = (message as { result: unknown }).result;
    let cached = this.bySource.get(source);
    if (cached === undefined || !sameJson(result, cached.value)) {
      const json = JSON.stringify(result) as string | undefined;
      // A result without a JSON form is left out, as JSON.stringify leaves it out.
      if (json === undefined) return Buffer.from(JSON.stringify(message));
      const bytes = keptUtf8(json);
      cached = { value: result, bytes };
      this.bySource.set(source, cached);
    }
    // The members around `result`, as JSON.stringify writes them: `{"k":v,` before and `,"k":v}` after.
    let head = '{';
    let tail = '';
    let seenResult = false;
    for (const key of Object.keys(message)) {
      if (key === 'result') {
        seenResult = true;
        continue;
      }
      const json = JSON.stringify((message as Record<string, unknown>)[key]);
      // As JSON.stringify does, a member whose value has no JSON form is left out.
      if (json === undefined) continue;
      const member = `${JSON.stringify(key)}:${json}`;
      if (seenResult) tail += `,${member}`;
      else head += `${member},`;
    }
    head += '"result":';
    tail += '}';
    const headLength = Buffer.byteLength(head);
    const out = Buffer.allocUnsafe(headLength + cached.bytes.length + Buffer.byteLength(tail));
    out.write(head, 0);
    cached.bytes.copy(out, headLength);
    out.write(tail, headLength + cached.bytes.length);
    return out;
  }
}
