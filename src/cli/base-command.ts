import { HeatsourceError } from '@heatsource/sdk/errors';
import { Command } from '@oclif/core';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { describeFailure, failureExit, usageLine } from './failure.js';
import { styleFor } from './style.js';
import type { Target } from './target.js';

/**
 * The base of every heatsource command: whatever fails, before or after the command line is parsed,
 * ends as one line on stderr (`heatsource: …`) and a status of the one exit-code table (EXIT), never a
 * stack trace or oclif's wrapped error block. `DEBUG=1` adds the stack of an internal failure.
 */
export abstract class HeatsourceCommand extends Command {
  protected readonly style = styleFor(process.stdout);
  protected readonly errStyle = styleFor(process.stderr);
  /** Where the answers come from, once resolved: lets a failure say which bundle or server it concerns. */
  protected target: Target | undefined;

  protected override async catch(
    err: Error & { code?: string; oclif?: { exit?: number } },
  ): Promise<unknown> {
    if (err.code === 'EEXIT') return super.catch(err);
    if (!this.parsed) {
      process.stderr.write(
        `${this.errStyle.red('heatsource:')} ${usageLine(err.message ?? String(err))}; see ${[this.config.bin, ...(this.id ? [this.id.replaceAll(':', this.config.topicSeparator)] : []), '--help'].join(' ')}\n`,
      );
      return this.exit(EXIT.usage);
    }
    return this.exit(this.report(err, false));
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
    const code = failureExit(err);
    if (json && err instanceof HeatsourceError) this.printJson(err.problem);
    if (json && err instanceof CliError && err.problem !== undefined) this.printJson(err.problem);
    process.stderr.write(`${this.errStyle.red('heatsource:')} ${describeFailure(err, this.target)}\n`);
    if (code === EXIT.internal && process.env.DEBUG && err instanceof Error && err.stack) {
      process.stderr.write(`${err.stack}\n`);
    }
    return code;
  }
}
