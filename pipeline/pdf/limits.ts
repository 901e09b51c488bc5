import zlib from 'node:zlib';

/**
 * What one PDF may ask of the ingest. A manual of a few hundred pages is far inside these; a file past
 * one is refused with the limit named, before pdfjs or the snapshot workers see it.
 */
export const PDF_LIMITS = {
  /** Pages per PDF: the longest service manuals run to a thousand or so. */
  maxPages: 3000,
  /**
   * Decoded bytes of one Flate stream. pdfjs holds a stream whole while it reads it (and grows its buffer
   * by doubling), so this bounds the memory one page can take; 128 MiB is a 600 dpi A4 colour image.
   */
  maxStreamBytes: 128 * 1024 * 1024,
  /** Decoded bytes of all the Flate streams of one PDF, which bounds the time spent decoding them. */
  maxDecodedBytes: 2 * 1024 * 1024 * 1024,
} as const;

const MiB = 1024 * 1024;

function sizeWords(bytes: number): string {
  return bytes >= 1024 * MiB ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;
}

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
const OBJ = /(\d+)\s+(\d+)\s+obj\b/g;

/** The object number and dictionary text that precede a `stream` keyword at `at` (up to 4 KiB back). */
function dictionaryBefore(buf: Buffer, at: number): { text: string; object: string | null } {
  const from = Math.max(0, at - 4096);
  const text = buf.toString('latin1', from, at);
  let object: string | null = null;
  let start = 0;
  for (const m of text.matchAll(OBJ)) {
    object = m[1]!;
    start = m.index + m[0].length;
  }
  return { text: text.slice(start), object };
}

/**
 * Inflates each Flate stream of a PDF, counting what it decodes to and keeping nothing, and says which
 * limit a stream or the whole file passes (a decompression bomb), or null. Streams that do not inflate
 * (encrypted, damaged, another filter first) are left to pdfjs, which reads what it can of them.
 * Written here because pdfjs has no limit on decoded sizes; zlib's `maxOutputLength` stops at the limit.
 */
export function decodedSizeProblem(bytes: Uint8Array, limits = PDF_LIMITS): string | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = buf.indexOf(STREAM);
  while (at !== -1) {
    // `stream` must be the keyword, not the end of `endstream`, and be followed by an end of line.
    const isEnd = at >= 3 && buf.toString('latin1', at - 3, at) === 'end';
    let data = at + STREAM.length;
    if (buf[data] === 0x0d) data++;
    if (!isEnd && buf[data] === 0x0a) {
      data++;
      const end = buf.indexOf(END_STREAM, data);
      const stop = end === -1 ? buf.length : end;
      const dict = dictionaryBefore(buf, at);
      if (/\/(FlateDecode|Fl)\b/.test(dict.text)) {
        const where = dict.object ? `object ${dict.object}` : `the stream at byte ${at}`;
        let decoded = 0;
        try {
          decoded = zlib.inflateSync(buf.subarray(data, stop), {
            maxOutputLength: limits.maxStreamBytes,
            finishFlush: zlib.constants.Z_SYNC_FLUSH,
          }).length;
        } catch (err) {
          if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
            return (
              `a compressed stream (${where}) decodes to more than ${sizeWords(limits.maxStreamBytes)}, ` +
              'the limit per stream (a decompression bomb?)'
            );
          }
        }
        total += decoded;
        if (total > limits.maxDecodedBytes) {
          return (
            `the compressed streams decode to more than ${sizeWords(limits.maxDecodedBytes)} in all, ` +
            'the limit per PDF (a decompression bomb?)'
          );
        }
      }
      at = buf.indexOf(STREAM, end === -1 ? buf.length : end + END_STREAM.length);
      continue;
    }
    at = buf.indexOf(STREAM, at + STREAM.length);
  }
  return null;
}

/** A PDF with more pages than the limit. */
export function pageCountProblem(pages: number, limits = PDF_LIMITS): string | null {
  return pages > limits.maxPages
    ? `${pages} pages, more than the limit of ${limits.maxPages} pages per PDF`
    : null;
}
