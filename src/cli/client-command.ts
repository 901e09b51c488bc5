import type { HeatsourceError } from '@heatsource/sdk';
import { Flags } from '@oclif/core';
import { openRemoteClient } from '../client/remote.js';
import type { HeatsourceClient } from '../client/types.js';
import { HeatsourceCommand } from './base-command.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
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
export abstract class ClientCommand extends HeatsourceCommand {
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

  /** The brands closest to a typed one, and every brand the source knows (both empty on any failure). */
  protected async brandChoices(
    client: HeatsourceClient,
    brand: string,
  ): Promise<{ close: string[]; known: string[] }> {
    try {
      const known = await this.knownBrands(client);
      return { close: closestNames(brand, known), known: known.map((b) => b.name) };
    } catch {
      return { close: [], known: [] };
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
