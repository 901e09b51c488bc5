import crypto from 'node:crypto';
import { dictGet, isDict, type PdfDict, PdfName, type PdfValue } from './objects.js';

/**
 * The standard security handler of PDF (ISO 32000-2, 7.6.4), for files that open without a password, as
 * pdfjs opens them: many manuals are encrypted this way to restrict printing or copying, and their streams
 * must be measured decrypted, or a bomb inside one would pass the decode limits. Written here because
 * pdfjs keeps its implementation internal; the key derivations follow the standard step by step.
 */

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

const bytes = (v: PdfValue | undefined) =>
  typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.alloc(0);
const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

/** RC4, which OpenSSL 3 no longer offers by default. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/** AES-CBC with the IV in the first block, and PKCS#7 padding removed when it is there (pdfjs is lenient). */
function aesCbc(key: Buffer, data: Buffer): Buffer {
  if (data.length < 32) return Buffer.alloc(0);
  const body = data.subarray(16, 16 + Math.floor((data.length - 16) / 16) * 16);
  const decipher = crypto.createDecipheriv(
    key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc',
    key,
    data.subarray(0, 16),
  );
  decipher.setAutoPadding(false);
  const out = Buffer.concat([decipher.update(body), decipher.final()]);
  const pad = out[out.length - 1] ?? 0;
  return pad >= 1 && pad <= 16 ? out.subarray(0, out.length - pad) : out;
}

/** Algorithm 2.B (revision 6): the hash of a password with a salt. */
function hash2B(password: Buffer, salt: Buffer, udata: Buffer): Buffer {
  let k = crypto
    .createHash('sha256')
    .update(Buffer.concat([password, salt, udata]))
    .digest();
  for (let i = 0; ; ) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, udata])));
    const cipher = crypto.createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let b = 0; b < 16; b++) sum += e[b]!;
    k = crypto
      .createHash(['sha256', 'sha384', 'sha512'][sum % 3]!)
      .update(e)
      .digest();
    i++;
    if (i >= 64 && e[e.length - 1]! <= i - 32) break;
  }
  return k.subarray(0, 32);
}

type Method = 'rc4' | 'aes' | 'aes256' | 'none';

function methodOf(encrypt: PdfDict, v: number): Method {
  if (v < 4) return 'rc4';
  const stmF = dictGet(encrypt, 'StmF');
  const name = stmF instanceof PdfName ? stmF.name : 'Identity';
  if (name === 'Identity') return 'none';
  const cf = dictGet(encrypt, 'CF');
  const filter = isDict(cf) ? cf.get(name) : undefined;
  const cfm = isDict(filter) ? filter.get('CFM') : undefined;
  const m = cfm instanceof PdfName ? cfm.name : 'None';
  return m === 'V2' ? 'rc4' : m === 'AESV2' ? 'aes' : m === 'AESV3' ? 'aes256' : 'none';
}

export interface Decryptor {
  /** The stream data of object `num` (generation `gen`) decrypted; `data` as is where no key applies. */
  stream(num: number, gen: number, data: Buffer): Buffer;
  /** Whether metadata streams are left in clear. */
  readonly clearMetadata: boolean;
}

/**
 * A decryptor for the empty user password, or null where the file uses another security handler (pdfjs
 * cannot open those without a password either, so nothing of them is decoded).
 */
export function standardDecryptor(encrypt: PdfDict, id0: Buffer): Decryptor | null {
  const filter = dictGet(encrypt, 'Filter');
  if (!(filter instanceof PdfName) || filter.name !== 'Standard') return null;
  const num = (v: PdfValue | undefined, d: number) => (typeof v === 'number' ? v : d);
  const v = num(dictGet(encrypt, 'V'), 0);
  const r = num(dictGet(encrypt, 'R'), 2);
  const clearMetadata = dictGet(encrypt, 'EncryptMetadata') === false;
  const method = methodOf(encrypt, v);
  if (method === 'none') return { stream: (_n, _g, data) => data, clearMetadata };
  if (r >= 5) {
    const u = bytes(dictGet(encrypt, 'U'));
    const ue = bytes(dictGet(encrypt, 'UE'));
    if (u.length < 48 || ue.length < 32) return null;
    const salt = u.subarray(40, 48);
    const inter =
      r === 5
        ? crypto.createHash('sha256').update(salt).digest()
        : hash2B(Buffer.alloc(0), salt, Buffer.alloc(0));
    const decipher = crypto.createDecipheriv('aes-256-cbc', inter, Buffer.alloc(16));
    decipher.setAutoPadding(false);
    const key = Buffer.concat([decipher.update(ue.subarray(0, 32)), decipher.final()]);
    return { stream: (_n, _g, data) => aesCbc(key, data), clearMetadata };
  }
  const n = r === 2 ? 5 : Math.min(16, Math.max(5, num(dictGet(encrypt, 'Length'), 40) / 8));
  const p = Buffer.alloc(4);
  p.writeInt32LE(num(dictGet(encrypt, 'P'), 0) | 0);
  let h = md5(
    PAD,
    bytes(dictGet(encrypt, 'O')).subarray(0, 32),
    p,
    id0,
    r >= 4 && clearMetadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0),
  );
  if (r >= 3) for (let i = 0; i < 50; i++) h = md5(h.subarray(0, n));
  const key = h.subarray(0, n);
  return {
    clearMetadata,
    stream(objNum, gen, data) {
      const salt = Buffer.from([
        objNum & 0xff,
        (objNum >> 8) & 0xff,
        (objNum >> 16) & 0xff,
        gen & 0xff,
        (gen >> 8) & 0xff,
      ]);
      const objectKey = md5(
        key,
        salt,
        method === 'aes' ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0),
      ).subarray(0, Math.min(n + 5, 16));
      return method === 'aes' ? aesCbc(objectKey, data) : rc4(objectKey, data);
    },
  };
}
