import { HeatsourceError, HeatsourceNetworkError } from '@heatsource/sdk';
import { Command, Flags } from '@oclif/core';
import { openRemoteClient } from '../client/remote.js';
import type { HeatsourceClient } from '../client/types.js';
import { CliError, EXIT, type ExitCode, exitCodeOf, isBundleOpenError } from './exit-codes.js';
import { styleFor } from './style.js';
import { closestNames, type NamedWithAliases } from './suggest.js';
import { resolveTarget, type Target, type TargetFlags } from './target.js';

/** Where the answers come from; every command that asks something takes these. */
export const sourceFlags = {
  bundle: Flags.string({
    description: 'answer offline from this bundle file (else HEATSOURCE_BUNDLE, else data/demo.bundle)',
    helpGroup: 'SOURCE',
  }),
  url: Flags.string({
    description: 'ask this server (else HEATSOURCE_URL, else the server saved by `heatsource login`)',
    helpGroup: 'SOURCE',
  }),
  key: Flags.string({
    description: 'API key for the server (else HEATSOURCE_API_KEY, else the saved one)',
    helpGroup: 'SOURCE',
  }),
  offline: Flags.boolean({
    description: 'answer from the local bundle even when a server is configured',
    helpGroup: 'SOURCE',
  }),
  timeout: Flags.integer({
    description: 'seconds to wait for each server response',
    min: 1,
    default: 30,
    helpGroup: 'SOURCE',
  }),
};

export const jsonFlag = {
  json: Flags.boolean({ description: 'print the REST response body (JSON) instead of text' }),
};

export type SourceFlags = TargetFlags & { timeout: number };

/**
 * Opens the client a target names: the bundle in-process, or the server through the SDK. The engine is
 * loaded only for a local target, so that a command talking to a server does not pay for it.
 */
export async function openClient(
  target: Target,
  options: { timeoutMs?: number } = {},
): Promise<HeatsourceClient> {
  if (target.kind === 'local') {
    const { openLocalClient } = await import('../client/local.js');
    return openLocalClient({ bundle: target.bundle });
  }
  return openRemoteClient({
    url: target.url,
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

/**
 * A command that asks heatsource something: it resolves the source, opens the client, runs, and turns
 * every failure into one line on stderr and an exit status (see EXIT), never a stack trace.
 */
export abstract class ClientCommand extends Command {
  protected readonly style = styleFor(process.stdout);
  private readonly errStyle = styleFor(process.stderr);
  protected target: Target | undefined;

  protected async withClient(
    flags: SourceFlags & { json?: boolean },
    body: (client: HeatsourceClient) => Promise<ExitCode>,
  ): Promise<void> {
    let code: ExitCode = EXIT.ok;
    let client: HeatsourceClient | undefined;
    try {
      this.target = resolveTarget(flags);
      client = await openClient(this.target, { timeoutMs: flags.timeout * 1000 });
      code = await body(client);
    } catch (err) {
      code = this.report(err, flags.json ?? false);
    } finally {
      await client?.close();
    }
    if (code !== EXIT.ok) this.exit(code);
  }

  /**
   * A command line oclif cannot parse (unknown flag, missing or invalid argument) ends with one line and
   * the usage status, like every other failure; the full usage stays one `--help` away.
   */
  protected override async catch(err: Error & { code?: string }): Promise<unknown> {
    if (err.code === 'EEXIT' || this.parsed) return super.catch(err);
    const message = usageLine(err.message ?? String(err));
    process.stderr.write(
      `${this.errStyle.red('heatsource:')} ${message}; see ${this.config.bin} ${this.id ?? ''} --help\n`,
    );
    return this.exit(EXIT.usage);
  }

  /** Prints exactly the body the REST API answers (compact, as served), for scripts and `jq`. */
  protected printJson(body: unknown): void {
    process.stdout.write(`${JSON.stringify(body)}\n`);
  }

  protected print(text: string): void {
    if (text) process.stdout.write(`${text}\n`);
  }

  /** One line on stderr for a failure; with --json, a problem answered by the API also goes to stdout. */
  protected report(err: unknown, json: boolean): ExitCode {
    const code = exitCodeOf(err);
    if (json && err instanceof HeatsourceError) this.printJson(err.problem);
    if (json && err instanceof CliError && err.problem !== undefined) this.printJson(err.problem);
    process.stderr.write(`${this.errStyle.red('heatsource:')} ${this.describe(err, code)}\n`);
    if (code === EXIT.internal && process.env.DEBUG && err instanceof Error && err.stack) {
      process.stderr.write(`${err.stack}\n`);
    }
    return code;
  }

  private describe(err: unknown, code: ExitCode): string {
    const target = this.target;
    const flat = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
    if (err instanceof HeatsourceError) {
      let hint = '';
      if (code === EXIT.auth && err.status === 401) {
        hint =
          target?.kind === 'remote' && !target.apiKey
            ? '; no API key: pass --key, set HEATSOURCE_API_KEY, or run `heatsource login`'
            : '; check the key (`heatsource login --url URL --key KEY` saves a new one)';
      } else if (err.code === 'rate_limited' && err.retryAfter !== null) {
        hint = `; retry in ${err.retryAfter} s`;
      } else if (err.status >= 500 && err.requestId) {
        hint = ` (request ${err.requestId})`;
      }
      const fields =
        err.errors.length > 0 ? ` [${err.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}]` : '';
      return flat(`${err.detail || err.title}${fields} (${err.code})${hint}`);
    }
    if (err instanceof HeatsourceNetworkError) {
      return flat(`${err.message}; --offline answers from the local bundle`);
    }
    if (isBundleOpenError(err)) {
      const hint =
        target?.kind === 'local' && target.from === 'default' ? '; `heatsource demo` builds it' : '';
      return flat(`${err.message}${hint}`);
    }
    if (err instanceof CliError) return flat(err.message);
    return flat(err instanceof Error ? err.message : String(err));
  }

  /** Every brand the source knows, with its aliases (all pages of the registry). */
  protected async knownBrands(client: HeatsourceClient): Promise<NamedWithAliases[]> {
    const brands: NamedWithAliases[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const r = await client.getRegistry({ limit: 200, ...(cursor ? { cursor } : {}) });
      brands.push(...r.brands.map((b) => ({ name: b.name, aliases: b.aliases })));
      if (!r.next_cursor) break;
      cursor = r.next_cursor;
    }
    return brands;
  }

  /** The known brands closest to a typed one; empty when the brand is known, or on any failure. */
  protected async brandSuggestions(client: HeatsourceClient, brand: string): Promise<string[]> {
    try {
      const known = await this.knownBrands(client);
      const exact = known.some((b) =>
        [b.name, ...b.aliases].some((n) => n.toLowerCase() === brand.trim().toLowerCase()),
      );
      return exact ? [] : closestNames(brand, known);
    } catch {
      return [];
    }
  }

  /** Ends with a not-found status, suggesting the closest brands when the brand is the likely cause. */
  protected async brandNotFound(
    client: HeatsourceClient,
    err: HeatsourceError,
    brand: string,
  ): Promise<never> {
    const suggestions = err.code === 'brand_not_found' ? await this.brandSuggestions(client, brand) : [];
    const hint = suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : '';
    throw new CliError(`${err.detail} (${err.code})${hint}`, EXIT.notFound, err.problem);
  }
}

/**
 * oclif's parse errors span several lines, often a header ("The following errors occurred:") with the
 * real reasons below it; keep the reasons, on one line.
 */
export function usageLine(message: string): string {
  const reasons = message
    .split('\n')
    .map((l) => l.replace(/^\s*(?:Error:)?\s*/, '').trim())
    .filter(
      (l) => l && !/^The following errors? occurred:?$/i.test(l) && !/^See more help with --help$/i.test(l),
    );
  return reasons.join('; ') || 'invalid command line';
}
