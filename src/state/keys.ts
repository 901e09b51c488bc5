import crypto from 'node:crypto';
import type { KeyMode } from './records.js';

const KEY_PATTERN = /^ak_(live|test)_[A-Za-z0-9_-]{32}$/;
/** Characters of the random part shown in listings: enough to tell keys apart, far too few to guess one. */
const SHOWN_RANDOM_CHARS = 6;

/** A new secret key: `ak_live_` or `ak_test_` then 192 random bits in base64url. */
export function generateSecret(mode: KeyMode): string {
  return `ak_${mode}_${crypto.randomBytes(24).toString('base64url')}`;
}

export function keyPrefix(secret: string): string {
  const mode = secret.startsWith('ak_live_') ? 'ak_live_' : 'ak_test_';
  return mode + secret.slice(mode.length, mode.length + SHOWN_RANDOM_CHARS);
}

/** Whether a presented string has the shape of a key; anything else is refused without a lookup. */
export function looksLikeKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

export function hashSecret(secret: string): Buffer {
  return crypto.createHash('sha256').update(secret, 'utf8').digest();
}

export function newId(kind: 'acc' | 'key'): string {
  return `${kind}_${crypto.randomBytes(9).toString('base64url')}`;
}
