import type { Hook } from '@oclif/core';
import { EXIT } from './exit-codes.js';
import { styleFor } from './style.js';
import { closestNames } from './suggest.js';

/**
 * oclif's `command_not_found` hook: an unknown command fails like every other command, one line on
 * stderr (`heatsource: …`) naming what was typed, with the closest commands, and the usage status (2),
 * instead of oclif's own error block.
 */
const hook: Hook<'command_not_found'> = async (opts) => {
  const separator = opts.config.topicSeparator;
  const spoken = (id: string) => id.replaceAll(':', separator);
  const typed = spoken(opts.id);
  const ids = new Set([
    ...opts.config.commands.filter((c) => !c.hidden).map((c) => spoken(c.id)),
    ...opts.config.topics.filter((t) => !t.hidden).map((t) => spoken(t.name)),
  ]);
  // A topic typed right ("bundle" of "bundle verfy") is not what is wrong.
  const known = [...ids]
    .filter((id) => !typed.startsWith(`${id}${separator}`))
    .map((name) => ({ name, aliases: [] }));
  const close = closestNames(typed, known);
  const hint = close.length > 0 ? `did you mean ${close.map((c) => `\`${c}\``).join(', ')}? ` : '';
  const bin = opts.config.bin;
  process.stderr.write(
    `${styleFor(process.stderr).red(`${bin}:`)} no command \`${typed}\`; ${hint}\`${bin} --help\` lists them\n`,
  );
  process.exitCode = EXIT.usage;
};

export default hook;
