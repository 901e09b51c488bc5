/**
 * argon2's native module is loaded on the first password hashed or checked (a sign-in, an invitation
 * accepted), not when the console is mounted: most starts of the server never need it. A failure to load
 * it rejects that request's promise, and the route answers it as any other error.
 */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
function loadArgon2(): Promise<typeof import('@node-rs/argon2')> {
  argon2 ??= import('@node-rs/argon2');
  return argon2;
}

async function hash(password: string): Promise<string> {
  return (await loadArgon2()).hash(password);
}

/** The shortest password accepted; long passphrases are welcome (up to MAX). */
export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 256;
/** Different characters a password needs: "aaaaaaaaaaaa" is twelve characters and no secret. */
export const MIN_DISTINCT = 5;

/** argon2id with the package's defaults (19 MiB, 2 passes, 1 lane): the OWASP recommendation. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  // Outside the try: a module that cannot be loaded is an error, not a wrong password.
  const { verify } = await loadArgon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * Verifies against a hash of no one, so that signing in with an unknown email takes as long as with a
 * wrong password and the timing tells nothing about which emails exist.
 */
export async function spendVerifyTime(password: string): Promise<void> {
  dummy ??= hash('no holder has this password');
  await verifyPassword(await dummy, password);
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, confirm: string): string | null {
  // Counted in characters (code points), without the white space at either end: twelve spaces, or a
  // short password padded with them, is no passphrase.
  const chars = [...password.trim()];
  if (chars.length < MIN_PASSWORD) {
    return `Use at least ${MIN_PASSWORD} characters, not counting spaces at the start or end.`;
  }
  if (new Set(chars).size < MIN_DISTINCT) return `Use at least ${MIN_DISTINCT} different characters.`;
  if (password.length > MAX_PASSWORD) return `Use at most ${MAX_PASSWORD} characters.`;
  if (password !== confirm) return 'The two passwords differ.';
  return null;
}
