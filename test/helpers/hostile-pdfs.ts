import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * Hostile PDFs, written object by object at test time so that nothing large is kept on disk: a
 * decompression bomb, a page tree that loops, arrays nested 200,000 deep and a PDF of 5,000 empty pages.
 * pdfkit cannot write any of them (it writes only sound files), hence this small writer.
 */
function pdf(objects: (string | Buffer)[], root = 1, trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${root} 0 R ${trailerExtra}>>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const PAGE = (parent: number, contents: number, font: number) =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 595 842] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`;

/** One page whose content stream is `decodedBytes` of spaces, Flate-compressed to a few hundred KB per GiB. */
export async function flateBombPdf(decodedBytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const block = Buffer.alloc(4 * 1024 * 1024, 0x20);
  for (let left = decodedBytes; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE(2, 4, 5),
    stream('/Filter /FlateDecode', Buffer.concat(out)),
    FONT,
  ]);
}

/** A page tree whose only kid is a node whose only kid is the root again. */
export function pageTreeCyclePdf(): Buffer {
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
  ]);
}

/** One page whose content stream opens `depth` nested arrays before any text. */
export function deepArraysPdf(depth: number): Buffer {
  const content = Buffer.from(
    `${'['.repeat(depth)}${']'.repeat(depth)} pop\nBT /F1 12 Tf 50 700 Td (deep) Tj ET`,
    'latin1',
  );
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE(2, 4, 5),
    stream('', content),
    FONT,
  ]);
}

/** `count` pages sharing one empty content stream. */
export function emptyPagesPdf(count: number): Buffer {
  const first = 5;
  const kids = Array.from({ length: count }, (_, i) => `${first + i} 0 R`).join(' ');
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    stream('', Buffer.alloc(0)),
    FONT,
    ...Array.from({ length: count }, () => PAGE(2, 3, 4)),
  ]);
}

/** Flate-compresses `bytes` spaces, chunk by chunk, without holding them. */
export async function deflateSpaces(bytes: number, raw = false): Promise<Buffer> {
  return deflateRepeated(Buffer.from(' '), bytes, raw);
}

/** Flate-compresses `pattern` repeated up to `bytes`, chunk by chunk, without holding the whole. */
export async function deflateRepeated(pattern: Buffer, bytes: number, raw = false): Promise<Buffer> {
  const deflate = raw ? zlib.createDeflateRaw({ level: 9 }) : zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const reps = Math.max(1, Math.floor((4 * 1024 * 1024) / pattern.length));
  const block = Buffer.concat(Array.from({ length: reps }, () => pattern));
  for (let left = bytes; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * LZW codes (early change 1, as PDF writes them) that decode to at least `bytes` spaces: codes that each
 * add one space to the last string until the 12-bit table is full, then the longest string over and over,
 * about 3,800 bytes per 12-bit code.
 */
export function lzwSpaces(bytes: number): Buffer {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const put = (code: number, length: number) => {
    acc = (acc << length) | code;
    bits += length;
    while (bits >= 8) {
      bits -= 8;
      out.push((acc >>> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  };
  let codeLength = 9;
  let nextCode = 258;
  let produced = 0;
  let seq = 0;
  const step = (code: number, length: number, hasPrev: boolean) => {
    put(code, codeLength);
    produced += length;
    if (hasPrev) {
      nextCode++;
      const n = nextCode + 1;
      if ((n & (n - 1)) === 0) codeLength = Math.min(Math.log2(n) + 1, 12) | 0;
    }
  };
  step(0x20, 1, false);
  seq = 1;
  while (produced < bytes && nextCode < 4094) {
    seq += 1;
    step(nextCode, seq, true);
  }
  const longest = nextCode - 1;
  while (produced < bytes) step(longest, seq, true);
  put(257, codeLength);
  if (bits > 0) put(0, 8 - bits);
  return Buffer.from(out);
}

/** ASCIIHex text of `data`. */
export const asciiHex = (data: Buffer) => Buffer.from(`${data.toString('hex')}>`, 'latin1');

/**
 * One page whose content stream goes through `filter` (a name or an array of names, as written in the
 * dictionary) with `data` as stored, and `extra` dictionary entries.
 */
export function filteredStreamPdf(filter: string, data: Buffer, extra = ''): Buffer {
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE(2, 4, 5),
    stream(`/Filter ${filter} ${extra}`, data),
    FONT,
  ]);
}

/**
 * A zlib stream that starts with a stored block holding the word `endstream`, then inflates `bytes`
 * spaces: a reader that ends the stream at the first `endstream` instead of at its /Length sees a few
 * harmless bytes.
 */
export async function endstreamInsideFlate(bytes: number): Promise<Buffer> {
  const stored = Buffer.from(' endstream endobj ', 'latin1');
  const len = Buffer.alloc(4);
  len.writeUInt16LE(stored.length, 0);
  len.writeUInt16LE(~stored.length & 0xffff, 2);
  return Buffer.concat([
    Buffer.from([0x78, 0x9c, 0x00]),
    len,
    stored,
    await deflateSpaces(bytes, true),
    Buffer.alloc(4),
  ]);
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

function rc4(key: Buffer, data: Buffer): Buffer {
  const st = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + st[i]! + key[i % key.length]!) & 0xff;
    [st[i], st[j]] = [st[j]!, st[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + st[i]!) & 0xff;
    [st[i], st[j]] = [st[j]!, st[i]!];
    out[k] = data[k]! ^ st[(st[i]! + st[j]!) & 0xff]!;
  }
  return out;
}

/**
 * One page whose content stream, Flate-compressed as `deflated`, is encrypted with the standard security
 * handler (revision 3, RC4 128-bit) and an empty user password, as manuals restricted from printing are:
 * any reader opens it without asking for a password.
 */
export function encryptedPdf(deflated: Buffer): Buffer {
  const o = crypto.randomBytes(32);
  const id = crypto.randomBytes(16);
  const p = Buffer.alloc(4);
  p.writeInt32LE(-4);
  let key = md5(PAD, o, p, id);
  for (let i = 0; i < 50; i++) key = md5(key.subarray(0, 16));
  key = key.subarray(0, 16);
  let u = rc4(key, md5(PAD, id));
  for (let i = 1; i <= 19; i++) u = rc4(Buffer.from(key.map((b) => b ^ i)), u);
  const objectKey = md5(key, Buffer.from([4, 0, 0, 0, 0])).subarray(0, 16);
  const hex = (b: Buffer) => `<${b.toString('hex')}>`;
  return pdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      PAGE(2, 4, 5),
      stream('/Filter /FlateDecode', rc4(objectKey, deflated)),
      FONT,
      `<< /Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O ${hex(o)} /U ${hex(Buffer.concat([u, Buffer.alloc(16)]))} >>`,
    ],
    1,
    `/Encrypt 6 0 R /ID [${hex(id)} ${hex(id)}] `,
  );
}
