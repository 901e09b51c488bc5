import { BYTE_FILTERS, decodeStage, type PredictorParams, TooLarge } from './decoders.js';
import { type Decryptor, standardDecryptor } from './decrypt.js';
import {
  dictGet,
  isDict,
  type ParseWork,
  ParseWorkExceeded,
  type PdfDict,
  PdfName,
  PdfRef,
  type PdfValue,
  parseObject,
  skipSpace,
} from './objects.js';

/**
 * What one PDF may ask of the ingest. A manual of a few hundred pages is far inside these; a file past
 * one is refused with the limit named, before pdfjs or the snapshot workers see it.
 */
export const PDF_LIMITS = {
  /** Pages per PDF: the longest service manuals run to a thousand or so. */
  maxPages: 3000,
  /**
   * Decoded bytes of one stream, the outputs of every filter of its chain added up. pdfjs holds each
   * filter's output whole while it reads a stream (and grows each buffer by doubling), so this bounds the
   * memory one page can take; 128 MiB is a 600 dpi A4 colour image.
   */
  maxStreamBytes: 128 * 1024 * 1024,
  /** Decoded bytes of all the streams of one PDF, every filter counted, which bounds the decoding time. */
  maxDecodedBytes: 2 * 1024 * 1024 * 1024,
  /** Filters chained on one stream: real files use one or two (ASCII85 over Flate at most). */
  maxFilters: 4,
  /**
   * Pixels of one image pdfjs draws (width x height); larger images are left out of snapshots. Image
   * codecs (DCT, JPX, JBIG2, CCITT) decode to the image's size, so this bounds them as the byte limits
   * bound the other filters. 100 megapixels is an A4 page at 1,200 dpi.
   */
  maxImagePixels: 100_000_000,
} as const;

export type PdfLimits = { [K in keyof typeof PDF_LIMITS]: number };

const MiB = 1024 * 1024;

function sizeWords(bytes: number): string {
  return bytes >= 1024 * MiB ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;
}

/** Filters that decode to an image for pdfjs's image decoders, which stop at the image's own size. */
const IMAGE_FILTERS = new Set([
  'DCTDecode',
  'DCT',
  'JPXDecode',
  'JPX',
  'CCITTFaxDecode',
  'CCF',
  'JBIG2Decode',
]);

const OBJ = /(\d+)\s+(\d+)\s+obj\b/g;
/** Passes over the file the object parser may make in all (see ParseWork). */
const PARSE_PASSES = 2;
const END_STREAM = Buffer.from('endstream');

interface StreamAt {
  object: number;
  gen: number;
  dict: PdfDict;
  start: number;
  end: number;
}

/**
 * Every indirect object of the file, by number (the last definition wins, as with incremental updates),
 * found by scanning for `N G obj` the way pdfjs rebuilds a broken cross-reference table, so that an object
 * the table points to is found whatever the table says. Object streams are read on demand.
 */
class PdfIndex {
  readonly objects = new Map<number, number>();
  readonly streams: StreamAt[] = [];
  private packed: Map<number, PdfValue> | null = null;
  readonly decryptor: Decryptor | null;

  /** Where each `endstream` is, in order, for streams whose /Length does not say. */
  private readonly ends: number[] = [];
  /** What the parser may still read (see ParseWork); a file past it is refused. */
  readonly work: ParseWork;

  constructor(readonly buf: Buffer) {
    this.work = { left: PARSE_PASSES * buf.length + 4 * MiB };
    const text = buf.toString('latin1');
    for (let at = buf.indexOf(END_STREAM); at !== -1; at = buf.indexOf(END_STREAM, at + 1))
      this.ends.push(at);
    for (const m of text.matchAll(OBJ)) {
      const num = Number(m[1]);
      const at = m.index + m[0].length;
      this.objects.set(num, at);
      const parsed = parseObject(buf, at, this.work);
      if (!parsed || !isDict(parsed.value)) continue;
      const stream = this.streamAfter(num, Number(m[2]), parsed.value, parsed.end);
      if (stream) this.streams.push(stream);
    }
    this.decryptor = this.findDecryptor(text);
  }

  /** The first `endstream` at or after `from`, or the end of the file. */
  private endAfter(from: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return this.ends[lo] ?? this.buf.length;
  }

  /** The file's security handler, from the last trailer (or cross-reference stream) that names one. */
  private findDecryptor(text: string): Decryptor | null {
    const trailers: PdfDict[] = [];
    for (const m of text.matchAll(/\btrailer\b/g)) {
      const parsed = parseObject(this.buf, m.index + m[0].length, this.work);
      if (parsed && isDict(parsed.value)) trailers.push(parsed.value);
    }
    for (const s of this.streams) if (nameOf(dictGet(s.dict, 'Type')) === 'XRef') trailers.push(s.dict);
    const trailer = trailers.reverse().find((d) => d.has('Encrypt'));
    if (!trailer) return null;
    const encrypt = this.resolveLocal(trailer.get('Encrypt'));
    const id = trailer.get('ID');
    const id0 =
      Array.isArray(id) && typeof id[0] === 'string' ? Buffer.from(id[0], 'latin1') : Buffer.alloc(0);
    return isDict(encrypt) ? standardDecryptor(encrypt, id0) : null;
  }

  /** The data of a stream whose dictionary ends at `at`, bounded as pdfjs bounds it. */
  private streamAfter(object: number, gen: number, dict: PdfDict, at: number): StreamAt | null {
    let i = skipSpace(this.buf, at);
    if (this.buf.toString('latin1', i, i + 6) !== 'stream') return null;
    i += 6;
    if (this.buf[i] === 0x0d) i++;
    if (this.buf[i] === 0x0a) i++;
    const start = i;
    // pdfjs takes /Length when `endstream` follows it, else searches for `endstream`.
    const length = this.resolveLocal(dictGet(dict, 'Length'));
    if (typeof length === 'number' && Number.isInteger(length) && length >= 0) {
      const after = skipSpace(this.buf, start + length);
      if (this.buf.toString('latin1', after, after + 9) === 'endstream')
        return { object, gen, dict, start, end: Math.min(start + length, this.buf.length) };
    }
    return { object, gen, dict, start, end: this.endAfter(start) };
  }

  /** A value or, for a reference, the object it names among the top-level objects. */
  resolveLocal(value: PdfValue | undefined): PdfValue | undefined {
    if (!(value instanceof PdfRef)) return value;
    const at = this.objects.get(value.num);
    if (at === undefined) return undefined;
    return parseObject(this.buf, at, this.work)?.value;
  }

  /** A value or the object a reference names, in the file or in an object stream. */
  async resolve(value: PdfValue | undefined, budget: Budget): Promise<PdfValue | undefined> {
    if (!(value instanceof PdfRef)) return value;
    const local = this.resolveLocal(value);
    if (local !== undefined) return local;
    if (!this.packed) {
      this.packed = new Map();
      for (const s of this.streams) {
        if (nameOf(dictGet(s.dict, 'Type')) !== 'ObjStm') continue;
        const data = await decodeStream(this, s, budget, true);
        if (data) readObjectStream(s.dict, data, this.packed, this.work);
      }
    }
    return this.packed.get(value.num);
  }
}

/** Objects packed in an object stream: `n` pairs of number and offset, then the objects from /First. */
function readObjectStream(dict: PdfDict, data: Buffer, into: Map<number, PdfValue>, work: ParseWork): void {
  const n = dictGet(dict, 'N');
  const first = dictGet(dict, 'First');
  if (typeof n !== 'number' || typeof first !== 'number') return;
  let at = 0;
  for (let k = 0; k < n; k++) {
    const num = parseObject(data, at, work);
    const offset = num ? parseObject(data, num.end, work) : null;
    if (!num || !offset || typeof num.value !== 'number' || typeof offset.value !== 'number') return;
    at = offset.end;
    const obj = parseObject(data, first + offset.value, work);
    if (obj) into.set(num.value, obj.value);
  }
}

/** What has been decoded so far, and the first limit passed. */
interface Budget {
  limits: PdfLimits;
  total: number;
  problem: string | null;
}

const nameOf = (v: PdfValue | undefined) => (v instanceof PdfName ? v.name : undefined);

function where(s: StreamAt): string {
  return `object ${s.object}`;
}

/**
 * Decodes one stream through its whole filter chain, counting every filter's output against the limits,
 * and returns the decoded bytes when `keep` (else an empty buffer), or null once a limit is passed.
 */
async function decodeStream(
  index: PdfIndex,
  s: StreamAt,
  budget: Budget,
  keep: boolean,
): Promise<Buffer | null> {
  const filter = await index.resolve(dictGet(s.dict, 'Filter', 'F'), budget);
  const params = await index.resolve(dictGet(s.dict, 'DecodeParms', 'DP'), budget);
  const names = filter instanceof PdfName ? [filter] : Array.isArray(filter) ? filter : [];
  const { limits } = budget;
  if (names.length > limits.maxFilters) {
    budget.problem =
      `a stream (${where(s)}) has ${names.length} filters, more than the limit of ` +
      `${limits.maxFilters} per stream`;
    return null;
  }
  let data = index.buf.subarray(s.start, s.end);
  const type = nameOf(dictGet(s.dict, 'Type'));
  // Cross-reference streams are never encrypted, nor metadata when the handler says so.
  if (index.decryptor && type !== 'XRef' && !(type === 'Metadata' && index.decryptor.clearMetadata))
    data = index.decryptor.stream(s.object, s.gen, data);
  // pdfjs keeps every filter's output of a chain in memory at once, so the limit is on their sum.
  let chain = 0;
  for (let k = 0; k < names.length; k++) {
    const name = await index.resolve(names[k], budget);
    if (!(name instanceof PdfName)) return data;
    if (IMAGE_FILTERS.has(name.name)) {
      if (dictGet(s.dict, 'Width') === undefined || dictGet(s.dict, 'Height') === undefined) {
        budget.problem =
          `a stream (${where(s)}) uses the image filter ${name.name} but is not an image ` +
          '(no /Width and /Height), so its decoded size cannot be bounded';
        return null;
      }
      return data;
    }
    const filterName = BYTE_FILTERS[name.name];
    if (!filterName) continue; // pdfjs passes the bytes of an unknown filter through.
    const p = await index.resolve(
      Array.isArray(params) ? params[k] : filter instanceof PdfName ? params : undefined,
      budget,
    );
    const last = k === names.length - 1;
    try {
      const stage = await decodeStage(filterName, data, {
        cap: limits.maxStreamBytes - chain,
        keep: keep || !last,
        earlyChange:
          isDict(p) && typeof p.get('EarlyChange') === 'number' ? (p.get('EarlyChange') as number) : 1,
        predictor: predictorOf(filterName, p),
      });
      budget.total += stage.length;
      chain += stage.length;
      data = stage.bytes;
    } catch (err) {
      if (!(err instanceof TooLarge)) throw err;
      budget.problem =
        `a compressed stream (${where(s)}) decodes to more than ${sizeWords(limits.maxStreamBytes)}, ` +
        'the limit per stream (a decompression bomb?)';
      return null;
    }
    if (budget.total > limits.maxDecodedBytes) {
      budget.problem =
        `the compressed streams decode to more than ${sizeWords(limits.maxDecodedBytes)} in all, ` +
        'the limit per PDF (a decompression bomb?)';
      return null;
    }
  }
  return data;
}

function predictorOf(filter: string, p: PdfValue | undefined): PredictorParams | null {
  if ((filter !== 'FlateDecode' && filter !== 'LZWDecode') || !isDict(p)) return null;
  const num = (v: PdfValue | undefined, d: number) => (typeof v === 'number' && v > 0 ? v : d);
  const predictor = num(p.get('Predictor'), 1);
  if (predictor <= 1) return null;
  return {
    predictor,
    colors: num(p.get('Colors'), 1),
    bits: num(dictGet(p, 'BPC', 'BitsPerComponent'), 8),
    columns: num(p.get('Columns'), 1),
  };
}

/**
 * Decodes every stream of a PDF through its filter chain (Flate, LZW, ASCII85, ASCIIHex, RunLength,
 * Brotli, predictors), counting what each filter produces and keeping only what the next one reads, and
 * says which limit a stream or the whole file passes (a decompression bomb), or null. Written here
 * because pdfjs has no limit on decoded sizes and keeps its decoders internal.
 *
 * Streams of a PDF encrypted with the standard security handler (the kind pdfjs opens without a
 * password) are decrypted first; other handlers need a password pdfjs does not have, so nothing is read.
 */
export async function decodedSizeProblem(
  bytes: Uint8Array,
  limits: PdfLimits = PDF_LIMITS,
): Promise<string | null> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const index = new PdfIndex(buf);
    const budget: Budget = { limits, total: 0, problem: null };
    for (const s of index.streams) {
      await decodeStream(index, s, budget, false);
      if (budget.problem) return budget.problem;
    }
    return null;
  } catch (err) {
    if (!(err instanceof ParseWorkExceeded)) throw err;
    return (
      `its objects are nested inside one another so that reading them takes more than ${PARSE_PASSES} ` +
      'passes over the file, the limit per PDF (a malformed or hostile file)'
    );
  }
}

/** A PDF with more pages than the limit. */
export function pageCountProblem(pages: number, limits: PdfLimits = PDF_LIMITS): string | null {
  return pages > limits.maxPages
    ? `${pages} pages, more than the limit of ${limits.maxPages} pages per PDF`
    : null;
}
