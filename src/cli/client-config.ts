import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `heatsource login` saves: the server to ask and the key to ask it with. */
export interface SavedLogin {
  url: string;
  api_key: string;
  saved_at: string;
}

/** A config file that exists but cannot be used. */
export class ConfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigFileError';
  }
}

/** ~/.heatsource/config.json, or the file HEATSOURCE_CONFIG names. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.HEATSOURCE_CONFIG || path.join(os.homedir(), '.heatsource', 'config.json');
}

export function readLogin(file: string = configPath()): SavedLogin | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigFileError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigFileError(`${file} is not valid JSON; run heatsource login again`);
  }
  const v = value as Partial<SavedLogin> | null;
  if (!v || typeof v.url !== 'string' || typeof v.api_key !== 'string') {
    throw new ConfigFileError(`${file} has no url and api_key; run heatsource login again`);
  }
  return { url: v.url, api_key: v.api_key, saved_at: typeof v.saved_at === 'string' ? v.saved_at : '' };
}

/**
 * Writes the login readable by its owner only (0600, in a 0700 folder when the folder is new): the file
 * holds a secret. The file is written to a temporary name and renamed, so a crash never leaves half a key.
 */
export function writeLogin(login: { url: string; api_key: string }, file: string = configPath()): SavedLogin {
  const saved: SavedLogin = { url: login.url, api_key: login.api_key, saved_at: new Date().toISOString() };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
  return saved;
}

/** Removes the saved login; true when there was one. */
export function forgetLogin(file: string = configPath()): boolean {
  try {
    fs.rmSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ConfigFileError(`cannot remove ${file}: ${(err as Error).message}`);
  }
}

/** A server URL as saved and compared: scheme and host lowercased, no trailing slash. */
export function normaliseUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError('not an http(s) URL');
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}
