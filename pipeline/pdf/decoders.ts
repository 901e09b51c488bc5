import zlib from 'node:zlib';

/**
 * The stream filters pdfjs decodes, each written to count what it produces and stop at a cap, so that the
 * ingest can measure a stream's decoded size before pdfjs holds it in memory. Flate and Brotli use zlib;
 * LZW, ASCII85, ASCIIHex, RunLength and the PNG/TIFF predictors follow pdfjs's own readers (its
 * src/core/*_stream.js) byte for byte, since the size that matters is the one pdfjs would reach.
 */

/** A stage produced more than its cap. */
export class TooLarge extends Error {}

/** Collects a stage's output, or only counts it when no further stage reads it. */
class Sink {
  private parts: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(64 * 1024);
  private at = 0;
  length = 0;
  constructor(
    private readonly cap: number,
    private readonly keep: boolean,
  ) {}
  private flush(): void {
    if (this.keep && this.at > 0) this.parts.push(Buffer.from(this.chunk.subarray(0, this.at)));
    this.at = 0;
  }
  byte(b: number): void {
    if (this.at === this.chunk.length) this.flush();
    this.chunk[this.at++] = b;
    if (++this.length > this.cap) throw new TooLarge();
  }
  /** Appends a whole buffer (zlib output). */
  bytes(data: Buffer): void {
    this.length += data.length;
    if (this.length > this.cap) throw new TooLarge();
    if (this.keep) {
      this.flush();
      this.parts.push(data);
    }
  }
  result(): Buffer {
    this.flush();
    return Buffer.concat(this.parts);
  }
}

const isWhite = (c: number) => c === 0 || c === 9 || c === 10 || c === 12 || c === 13 || c === 32;

function ascii85(input: Buffer, out: Sink): void {
  let i = 0;
  const next = () => {
    while (i < input.length && isWhite(input[i]!)) i++;
    return i < input.length ? input[i++]! : -1;
  };
  const group = new Uint8Array(5);
  for (;;) {
    const c = next();
    if (c === -1 || c === 0x7e) return;
    if (c === 0x7a) {
      for (let k = 0; k < 4; k++) out.byte(0);
      continue;
    }
    group[0] = c;
    let n = 1;
    for (; n < 5; n++) {
      const d = next();
      group[n] = d;
      if (d === -1 || d === 0x7e) break;
    }
    const produced = n - 1;
    for (let k = n; k < 5; k++) group[k] = 0x21 + 84;
    let t = 0;
    for (let k = 0; k < 5; k++) t = t * 85 + (group[k]! - 0x21);
    const word = [(t >>> 24) & 0xff, (t >>> 16) & 0xff, (t >>> 8) & 0xff, t & 0xff];
    for (let k = 0; k < produced && k < 4; k++) out.byte(word[k]!);
    if (n < 5) return;
  }
}

function asciiHex(input: Buffer, out: Sink): void {
  let first = -1;
  for (const ch of input) {
    let digit: number;
    if (ch >= 0x30 && ch <= 0x39) digit = ch & 0x0f;
    else if ((ch >= 0x41 && ch <= 0x46) || (ch >= 0x61 && ch <= 0x66)) digit = (ch & 0x0f) + 9;
    else if (ch === 0x3e) break;
    else continue;
    if (first < 0) first = digit;
    else {
      out.byte((first << 4) | digit);
      first = -1;
    }
  }
  if (first >= 0) out.byte(first << 4);
}

function runLength(input: Buffer, out: Sink): void {
  let i = 0;
  while (i + 1 < input.length && input[i] !== 128) {
    const n = input[i]!;
    if (n < 128) {
      const end = Math.min(input.length, i + 1 + n + 1);
      for (let k = i + 1; k < end; k++) out.byte(input[k]!);
      i += n + 2;
    } else {
      const b = input[i + 1]!;
      for (let k = 0; k < 257 - n; k++) out.byte(b);
      i += 2;
    }
  }
}

function lzw(input: Buffer, out: Sink, earlyChange: number): void {
  const size = 4096;
  const values = new Uint8Array(size);
  const lengths = new Uint16Array(size);
  const prevCodes = new Uint16Array(size);
  const sequence = new Uint8Array(size);
  for (let k = 0; k < 256; k++) {
    values[k] = k;
    lengths[k] = 1;
  }
  let seqLength = 0;
  let nextCode = 258;
  let codeLength = 9;
  let prevCode = 0;
  let pos = 0;
  let cached = 0;
  let bits = 0;
  for (;;) {
    while (bits < codeLength) {
      if (pos >= input.length) return;
      cached = ((cached << 8) | input[pos++]!) >>> 0;
      bits += 8;
    }
    bits -= codeLength;
    const code = (cached >>> bits) & ((1 << codeLength) - 1);
    const hasPrev = seqLength > 0;
    if (code < 256) {
      sequence[0] = code;
      seqLength = 1;
    } else if (code >= 258) {
      if (code < nextCode) {
        seqLength = lengths[code]!;
        for (let j = seqLength - 1, q = code; j >= 0; j--) {
          sequence[j] = values[q]!;
          q = prevCodes[q]!;
        }
      } else {
        sequence[seqLength++] = sequence[0]!;
      }
    } else if (code === 256) {
      codeLength = 9;
      nextCode = 258;
      seqLength = 0;
      continue;
    } else {
      return;
    }
    if (hasPrev) {
      prevCodes[nextCode] = prevCode;
      lengths[nextCode] = lengths[prevCode]! + 1;
      values[nextCode] = sequence[0]!;
      nextCode++;
      const n = nextCode + earlyChange;
      codeLength = n & (n - 1) ? codeLength : Math.min(Math.log2(n) + 1, 12) | 0;
    }
    prevCode = code;
    for (let j = 0; j < seqLength; j++) out.byte(sequence[j] ?? 0);
  }
}

/** Predictor parameters, as pdfjs reads them from /DecodeParms. */
export interface PredictorParams {
  predictor: number;
  colors: number;
  bits: number;
  columns: number;
}

/** Undoes a PNG (10-15) or TIFF (2) predictor. Its output is never larger than its input. */
function unpredict(input: Buffer, p: PredictorParams): Buffer {
  const rowBytes = (p.columns * p.colors * p.bits + 7) >> 3;
  const pixBytes = (p.colors * p.bits + 7) >> 3;
  if (rowBytes <= 0) return Buffer.alloc(0);
  const rows: Buffer[] = [];
  let prev = Buffer.alloc(rowBytes);
  let i = 0;
  while (i < input.length) {
    const kind = p.predictor === 2 ? -1 : input[i++]!;
    const raw = input.subarray(i, i + rowBytes);
    i += rowBytes;
    if (raw.length === 0) break;
    const row = Buffer.alloc(rowBytes);
    for (let k = 0; k < rowBytes; k++) {
      const c = raw[k] ?? 0;
      const left = k >= pixBytes ? row[k - pixBytes]! : 0;
      const up = prev[k]!;
      const upLeft = k >= pixBytes ? prev[k - pixBytes]! : 0;
      if (kind === -1) row[k] = p.bits === 8 ? c + left : c;
      else if (kind === 0) row[k] = c;
      else if (kind === 1) row[k] = c + left;
      else if (kind === 2) row[k] = c + up;
      else if (kind === 3) row[k] = c + ((left + up) >> 1);
      else if (kind === 4) {
        const q = left + up - upLeft;
        const pa = Math.abs(q - left);
        const pb = Math.abs(q - up);
        const pc = Math.abs(q - upLeft);
        row[k] = c + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else return Buffer.concat(rows); // pdfjs stops at an unknown row predictor.
    }
    rows.push(row);
    prev = row;
  }
  // Only the sizes matter past here for TIFF at other depths, and TIFF keeps the size; the bytes are those
  // pdfjs would produce for 8-bit samples, which is what real files use.
  return Buffer.concat(rows);
}

/** Runs a zlib decoder chunk by chunk, keeping what it produced before any error, as pdfjs does. */
function zlibStage(decoder: zlib.Inflate | zlib.BrotliDecompress, input: Buffer, out: Sink): Promise<void> {
  return new Promise((resolve, reject) => {
    decoder.on('data', (chunk: Buffer) => {
      try {
        out.bytes(chunk);
      } catch (err) {
        decoder.destroy();
        reject(err);
      }
    });
    decoder.on('error', () => resolve());
    decoder.on('end', () => resolve());
    decoder.on('close', () => resolve());
    decoder.end(input);
  });
}

/** The filters of the chain that decode to bytes; image codecs end a chain (see limits.ts). */
export const BYTE_FILTERS: Record<string, string> = {
  FlateDecode: 'FlateDecode',
  Fl: 'FlateDecode',
  LZWDecode: 'LZWDecode',
  LZW: 'LZWDecode',
  ASCII85Decode: 'ASCII85Decode',
  A85: 'ASCII85Decode',
  ASCIIHexDecode: 'ASCIIHexDecode',
  AHx: 'ASCIIHexDecode',
  RunLengthDecode: 'RunLengthDecode',
  RL: 'RunLengthDecode',
  BrotliDecode: 'BrotliDecode',
};

/**
 * Decodes `input` through one filter, up to `cap` bytes (TooLarge past it). Returns the decoded length
 * and, when `keep`, the bytes themselves for the next filter of the chain.
 */
export async function decodeStage(
  filter: string,
  input: Buffer,
  options: { cap: number; keep: boolean; earlyChange: number; predictor: PredictorParams | null },
): Promise<{ length: number; bytes: Buffer }> {
  const out = new Sink(options.cap, options.keep || options.predictor !== null);
  switch (filter) {
    case 'FlateDecode': {
      // pdfjs checks the two-byte zlib header, then inflates without checking the trailing checksum.
      const cmf = input[0] ?? 0;
      const flg = input[1] ?? 0;
      if ((cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0 || flg & 0x20) break;
      await zlibStage(zlib.createInflateRaw(), input.subarray(2), out);
      break;
    }
    case 'BrotliDecode':
      await zlibStage(zlib.createBrotliDecompress(), input, out);
      break;
    case 'LZWDecode':
      lzw(input, out, options.earlyChange);
      break;
    case 'ASCII85Decode':
      ascii85(input, out);
      break;
    case 'ASCIIHexDecode':
      asciiHex(input, out);
      break;
    case 'RunLengthDecode':
      runLength(input, out);
      break;
  }
  const decoded = out.result();
  if (!options.predictor) return { length: out.length, bytes: decoded };
  const bytes = unpredict(decoded, options.predictor);
  return { length: Math.max(out.length, bytes.length), bytes };
}
