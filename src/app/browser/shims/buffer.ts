// The part of Node's Buffer the shared engine code uses (search and registry cursors: UTF-8 text to and
// from base64url; digests to hex), injected as a global in the browser build. Written here because the
// calls are few and a full Buffer polyfill would weigh more than the engine's own code.
type Encoding = 'utf8' | 'utf-8' | 'hex' | 'base64' | 'base64url';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  const binary = atob(padded);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export class Buffer {
  constructor(readonly bytes: Uint8Array) {}

  get length(): number {
    return this.bytes.length;
  }

  static from(value: string | Uint8Array | ArrayLike<number>, encoding: Encoding = 'utf8'): Buffer {
    if (typeof value !== 'string') return new Buffer(Uint8Array.from(value as ArrayLike<number>));
    let bytes: Uint8Array;
    if (encoding === 'base64' || encoding === 'base64url') bytes = fromBase64(value);
    else if (encoding === 'hex') {
      bytes = new Uint8Array(value.length >> 1);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(value.slice(2 * i, 2 * i + 2), 16);
    } else bytes = new TextEncoder().encode(value);
    return new Buffer(bytes);
  }

  static isBuffer(value: unknown): value is Buffer {
    return value instanceof Buffer;
  }

  toString(encoding: Encoding = 'utf8'): string {
    const bytes = this.bytes;
    if (encoding === 'hex') return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    if (encoding === 'base64') return toBase64(bytes);
    if (encoding === 'base64url')
      return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    return new TextDecoder().decode(bytes);
  }
}
