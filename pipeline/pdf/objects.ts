/**
 * Just enough of the PDF object syntax to read a stream's dictionary (its filters, their parameters and
 * its length) straight from the file bytes, before pdfjs sees them. Written by hand because pdfjs keeps
 * its parser internal, and the decode limits must hold before pdfjs decodes anything.
 *
 * The parser is iterative (an explicit stack), so a dictionary nested thousands deep reads like any other
 * instead of overflowing the call stack: nesting must not be a way around the limits.
 */

export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

export type PdfValue = number | boolean | null | string | PdfName | PdfRef | PdfValue[] | PdfDict;
export type PdfDict = Map<string, PdfValue>;

export const isDict = (v: PdfValue | undefined): v is PdfDict => v instanceof Map;

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

export const isWhite = (b: number | undefined) => b !== undefined && WHITE.has(b);
const isRegular = (b: number | undefined) => b !== undefined && !WHITE.has(b) && !DELIM.has(b);

/** Skips white space and comments from `at`; returns the next position. */
export function skipSpace(buf: Uint8Array, at: number): number {
  let i = at;
  for (;;) {
    while (i < buf.length && WHITE.has(buf[i]!)) i++;
    if (buf[i] !== 0x25) return i;
    while (i < buf.length && buf[i] !== 0x0a && buf[i] !== 0x0d) i++;
  }
}

type Token =
  | { kind: 'open-dict' | 'close-dict' | 'open-array' | 'close-array' | 'ref' }
  | { kind: 'value'; value: PdfValue }
  | { kind: 'word'; word: string };

function readToken(buf: Uint8Array, start: number): { token: Token; end: number } | null {
  const i = skipSpace(buf, start);
  if (i >= buf.length) return null;
  const b = buf[i]!;
  if (b === 0x3c && buf[i + 1] === 0x3c) return { token: { kind: 'open-dict' }, end: i + 2 };
  if (b === 0x3e && buf[i + 1] === 0x3e) return { token: { kind: 'close-dict' }, end: i + 2 };
  if (b === 0x5b) return { token: { kind: 'open-array' }, end: i + 1 };
  if (b === 0x5d) return { token: { kind: 'close-array' }, end: i + 1 };
  if (b === 0x2f) {
    let j = i + 1;
    let name = '';
    while (j < buf.length && isRegular(buf[j])) {
      if (buf[j] === 0x23 && j + 2 < buf.length) {
        const code = Number.parseInt(String.fromCharCode(buf[j + 1]!, buf[j + 2]!), 16);
        if (!Number.isNaN(code)) {
          name += String.fromCharCode(code);
          j += 3;
          continue;
        }
      }
      name += String.fromCharCode(buf[j]!);
      j++;
    }
    return { token: { kind: 'value', value: new PdfName(name) }, end: j };
  }
  if (b === 0x28) return literalString(buf, i + 1);
  if (b === 0x3c) {
    let j = i + 1;
    let hex = '';
    while (j < buf.length && buf[j] !== 0x3e) {
      const c = String.fromCharCode(buf[j]!);
      if (/[0-9a-fA-F]/.test(c)) hex += c;
      j++;
    }
    if (hex.length % 2) hex += '0';
    return { token: { kind: 'value', value: Buffer.from(hex, 'hex').toString('latin1') }, end: j + 1 };
  }
  let j = i;
  while (j < buf.length && isRegular(buf[j])) j++;
  if (j === i) return { token: { kind: 'word', word: String.fromCharCode(b) }, end: i + 1 };
  let word = '';
  for (let k = i; k < j && k < i + 64; k++) word += String.fromCharCode(buf[k]!);
  if (word === 'R') return { token: { kind: 'ref' }, end: j };
  if (word === 'true' || word === 'false')
    return { token: { kind: 'value', value: word === 'true' }, end: j };
  if (word === 'null') return { token: { kind: 'value', value: null }, end: j };
  if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { token: { kind: 'value', value: Number(word) }, end: j };
  return { token: { kind: 'word', word }, end: j };
}

const ESCAPES: Record<number, number> = { 110: 10, 114: 13, 116: 9, 98: 8, 102: 12 };

/** A literal string from just after its `(`: its bytes (as latin1), escapes resolved, and its end. */
function literalString(buf: Uint8Array, from: number): { token: Token; end: number } {
  const out: number[] = [];
  let depth = 1;
  let j = from;
  while (j < buf.length) {
    const c = buf[j++]!;
    if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) break;
    if (c !== 0x5c) {
      out.push(c);
      continue;
    }
    const e = buf[j++];
    if (e === undefined) break;
    if (e >= 0x30 && e <= 0x37) {
      let v = e - 0x30;
      for (let k = 0; k < 2 && buf[j]! >= 0x30 && buf[j]! <= 0x37; k++) v = v * 8 + (buf[j++]! - 0x30);
      out.push(v & 0xff);
    } else if (e === 0x0d) {
      if (buf[j] === 0x0a) j++;
    } else if (e !== 0x0a) out.push(ESCAPES[e] ?? e);
  }
  return { token: { kind: 'value', value: Buffer.from(out).toString('latin1') }, end: j };
}

type Frame = { kind: 'dict'; items: PdfValue[] } | { kind: 'array'; items: PdfValue[] };

function toDict(items: PdfValue[]): PdfDict {
  const dict: PdfDict = new Map();
  for (let k = 0; k + 1 < items.length; k += 2) {
    const key = items[k];
    if (key instanceof PdfName) dict.set(key.name, items[k + 1]!);
  }
  return dict;
}

/**
 * Reads one object starting at `at`: its value and the position after it, or null where the bytes are not
 * an object (a keyword, or the end of the file inside a container). `N G R` is read as a reference.
 */
export function parseObject(
  buf: Uint8Array,
  at: number,
  work?: ParseWork,
): { value: PdfValue; end: number } | null {
  const stack: Frame[] = [];
  let pos = at;
  for (;;) {
    const read = readToken(buf, pos);
    if (!read) return null;
    if (work) {
      work.left -= read.end - pos;
      if (work.left < 0) throw new ParseWorkExceeded();
    }
    pos = read.end;
    const { token } = read;
    let value: PdfValue | undefined;
    if (token.kind === 'open-dict' || token.kind === 'open-array') {
      stack.push({ kind: token.kind === 'open-dict' ? 'dict' : 'array', items: [] });
      continue;
    }
    if (token.kind === 'close-dict' || token.kind === 'close-array') {
      const frame = stack.pop();
      if (!frame) return null;
      value = frame.kind === 'dict' ? toDict(frame.items) : frame.items;
    } else if (token.kind === 'ref') {
      const items = stack.at(-1)?.items;
      const gen = items?.at(-1);
      const num = items?.at(-2);
      if (!items || typeof gen !== 'number' || typeof num !== 'number') return null;
      items.length -= 2;
      value = new PdfRef(num, gen);
    } else if (token.kind === 'value') {
      value = token.value;
    } else {
      // A keyword inside a container is skipped as pdfjs does; outside one, it ends the object.
      if (stack.length === 0) return null;
      continue;
    }
    const top = stack.at(-1);
    if (!top) return { value, end: pos };
    top.items.push(value);
  }
}

/**
 * Bytes the parser may read over all the objects of one file. Objects normally follow one another, so a
 * file is read about once; objects opened inside each other's unclosed arrays would be read again for
 * each, which this bounds.
 */
export interface ParseWork {
  left: number;
}

export class ParseWorkExceeded extends Error {}

/** The first key present of `keys` (full name and abbreviation, as pdfjs reads them). */
export function dictGet(dict: PdfDict, ...keys: string[]): PdfValue | undefined {
  for (const k of keys) if (dict.has(k)) return dict.get(k);
  return undefined;
}
