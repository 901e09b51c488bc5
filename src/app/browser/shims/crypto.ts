// `node:crypto` as the shared engine code uses it, for the browser: SHA-256 digests (search cursors,
// session ids) must be computed synchronously, as on the server, and WebCrypto's digest is asynchronous;
// @noble/hashes is a maintained, audited synchronous implementation.
import { sha256 } from '@noble/hashes/sha2';
import { Buffer } from './buffer.js';

type Encoding = 'hex' | 'base64url' | 'base64';

class Hash {
  private readonly parts: Uint8Array[] = [];
  update(data: string | Uint8Array): Hash {
    this.parts.push(typeof data === 'string' ? new TextEncoder().encode(data) : data);
    return this;
  }
  digest(encoding: Encoding): string {
    const size = this.parts.reduce((n, p) => n + p.length, 0);
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of this.parts) {
      all.set(p, at);
      at += p.length;
    }
    return Buffer.from(sha256(all)).toString(encoding);
  }
}

export function createHash(algorithm: string): Hash {
  if (algorithm !== 'sha256') throw new Error(`hash ${algorithm} is not available in the browser`);
  return new Hash();
}

export function randomBytes(size: number): Buffer {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(size)));
}

export function randomUUID(): string {
  return crypto.randomUUID();
}

export default { createHash, randomBytes, randomUUID };
