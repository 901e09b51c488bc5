import { type Command, CommandHelp, Help, type Interfaces } from '@oclif/core';
import { EXIT_TABLE } from './exit-codes.js';
import { visibleLength, wrap } from './text-layout.js';

/**
 * One line wrapped at spaces to `width`, its continuation lines indented like it: a word is never cut
 * (oclif's own wrap cuts words at the edge, "clo" / "se" on a narrow terminal); a word longer than the
 * width stands alone on its line.
 */
export function wrapWords(line: string, width: number): string[] {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const words = line.slice(indent.length).split(/ +/).filter(Boolean);
  if (words.length === 0) return [line.trimEnd()];
  const out: string[] = [];
  let current = '';
  for (const word of words) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && visibleLength(indent) + visibleLength(candidate) > width) {
      out.push(`${indent}${current}`);
      current = word;
    } else current = candidate;
  }
  out.push(`${indent}${current}`);
  return out;
}

/**
 * The narrowest column help text is wrapped to. oclif's flag table gives the descriptions what the flag
 * names leave (17 columns at 45); a floor any higher would push them past the terminal's edge.
 */
const MIN_WRAP = 10;

/** Wraps `body` at spaces to the help's width less `spacing`, line by line. */
function wrapBody(body: string, width: number): string {
  return body
    .split('\n')
    .flatMap((line) => wrapWords(line, Math.max(MIN_WRAP, width)))
    .join('\n');
}

/** A command's help (usage, flags, description), wrapped between words. */
class HeatsourceCommandHelp extends CommandHelp {
  override wrap(body: string, spacing = this.indentSpacing): string {
    // oclif indents each section by 2 after wrapping, which its width leaves out.
    return wrapBody(this.render(body), this.opts.maxWidth - spacing - 2);
  }
}

/**
 * oclif's help, wrapped between words to the terminal, with the exit-code table at the end of
 * `heatsource --help`: every command shares it, and scripts are written against it.
 */
export default class HeatsourceHelp extends Help {
  protected override CommandHelpClass = HeatsourceCommandHelp;

  constructor(config: Interfaces.Config, opts: Partial<Interfaces.HelpOptions> = {}) {
    // COLUMNS sets the width as it does for every other output (style.ts), also when piped.
    const columns = Number.parseInt(process.env.COLUMNS ?? '', 10);
    super(config, Number.isFinite(columns) && columns > 0 ? { ...opts, maxWidth: columns } : opts);
  }

  override wrap(body: string, spacing = this.indentSpacing): string {
    return wrapBody(this.render(body), this.opts.maxWidth - spacing - 2);
  }

  /** The command's one-line summary at the top of its help, which oclif prints unwrapped. */
  protected override summary(c: Command.Loadable): string | undefined {
    const line = super.summary(c);
    return line === undefined ? undefined : wrapBody(line, this.opts.maxWidth);
  }

  /** The root help's heading (the description, the version, the usage), wrapped like the rest. */
  override formatRoot(): string {
    return wrapBody(super.formatRoot(), this.opts.maxWidth);
  }

  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    const width = Math.max(...EXIT_TABLE.map(([code]) => String(code).length));
    // Scripts read the table: piped, each status stays on one line, as other output does (style.ts).
    const sized = Boolean(process.env.COLUMNS) || process.stdout.isTTY === true;
    const tableWidth = sized ? this.opts.maxWidth : null;
    this.log(
      [
        '',
        'EXIT STATUS',
        ...EXIT_TABLE.flatMap(([code, meaning]) =>
          wrap(meaning, tableWidth, `  ${String(code).padEnd(width)}  `),
        ),
      ].join('\n'),
    );
  }
}
