import { projectPath } from '../project-path.js';
import { configPath, normaliseUrl, readLogin } from './client-config.js';
import { CliError, EXIT } from './exit-codes.js';

export interface TargetFlags {
  bundle?: string;
  url?: string;
  key?: string;
  offline?: boolean;
}

/** Where a command gets its answers, and what decided it (shown by `me`). */
export type Target =
  | { kind: 'local'; bundle: string; from: 'flag' | 'env' | 'default' }
  | { kind: 'remote'; url: string; apiKey: string | undefined; from: 'flag' | 'env' | 'login' };

export function defaultBundlePath(): string {
  return projectPath('data', 'demo.bundle');
}

function checkedUrl(url: string, origin: string): string {
  try {
    return normaliseUrl(url);
  } catch {
    throw new CliError(`${origin} is not an http(s) URL: "${url}"`, EXIT.usage);
  }
}

/**
 * Picks the source of answers. An explicit flag wins (--bundle, --url, --offline), then the environment
 * (HEATSOURCE_URL, then HEATSOURCE_BUNDLE), then the server saved by `heatsource login`, then the demo
 * bundle. The saved key is sent only to the saved server, never to another URL.
 */
export function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv = process.env): Target {
  if (flags.bundle !== undefined && flags.url !== undefined) {
    throw new CliError('--bundle and --url both name a source: give one', EXIT.usage);
  }
  if (flags.offline && flags.url !== undefined) {
    throw new CliError('--offline and --url contradict each other: give one', EXIT.usage);
  }
  if (flags.bundle !== undefined) return { kind: 'local', bundle: flags.bundle, from: 'flag' };
  const localFromEnv = (): Target =>
    env.HEATSOURCE_BUNDLE
      ? { kind: 'local', bundle: env.HEATSOURCE_BUNDLE, from: 'env' }
      : { kind: 'local', bundle: defaultBundlePath(), from: 'default' };
  if (flags.offline) return localFromEnv();

  const keyFor = (url: string): string | undefined => {
    if (flags.key) return flags.key;
    if (env.HEATSOURCE_API_KEY) return env.HEATSOURCE_API_KEY;
    const login = readLogin(configPath(env));
    return login && checkedUrl(login.url, configPath(env)) === url ? login.api_key : undefined;
  };
  if (flags.url !== undefined) {
    const url = checkedUrl(flags.url, '--url');
    return { kind: 'remote', url, apiKey: keyFor(url), from: 'flag' };
  }
  if (env.HEATSOURCE_URL) {
    const url = checkedUrl(env.HEATSOURCE_URL, 'HEATSOURCE_URL');
    return { kind: 'remote', url, apiKey: keyFor(url), from: 'env' };
  }
  if (env.HEATSOURCE_BUNDLE) return localFromEnv();
  const login = readLogin(configPath(env));
  if (login) {
    const url = checkedUrl(login.url, configPath(env));
    return {
      kind: 'remote',
      url,
      apiKey: flags.key || env.HEATSOURCE_API_KEY || login.api_key,
      from: 'login',
    };
  }
  return localFromEnv();
}
