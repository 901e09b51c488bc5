import { Args, Flags } from '@oclif/core';
import { codeKey } from '../text/normalise.js';
import { CliError, EXIT } from './exit-codes.js';

/** How a usage error names the value: "error code", its flag "--code", an example "E9", where it goes. */
export interface ArgOrFlagName {
  name: string;
  flag: string;
  example: string;
  position: string;
}

/**
 * One value a command takes either as an argument or as a flag: `code Demotherm E9` and
 * `code -b Demotherm -c E9` say the same, as technicians type whichever form `lookup` and
 * `troubleshoot` taught them. Given both ways, the two must be one value (`same` says when two
 * spellings are, e.g. codes compared by their key); given neither, it is a usage error naming both forms.
 */
export function argOrFlag(
  what: ArgOrFlagName,
  argument: string | undefined,
  flag: string | undefined,
  same: (a: string, b: string) => boolean = (a, b) => a === b,
): string {
  if (argument !== undefined && flag !== undefined && !same(argument, flag))
    throw new CliError(`two ${what.name}s given: ${what.flag} ${flag} and ${argument}; give one`, EXIT.usage);
  const value = flag ?? argument;
  if (value === undefined)
    throw new CliError(
      `give the ${what.name}: ${what.flag} ${what.example}, or as ${what.position}`,
      EXIT.usage,
    );
  return value;
}

/** A value of `argsOrFlags`: its key among the flags, how errors name it, and when two spellings agree. */
export interface ArgOrFlagSpec<K extends string> extends ArgOrFlagName {
  key: K;
  same?: (a: string, b: string) => boolean;
}

/**
 * Several values, each an argument or a flag (`product Demotherm DT-AW080-M`, `product -b Demotherm
 * DT-AW080-M`, `product -b Demotherm -m DT-AW080-M`): the arguments given fill, in order, the values
 * whose flag is absent; one left over is a usage error.
 */
export function argsOrFlags<K extends string>(
  specs: ArgOrFlagSpec<K>[],
  positional: (string | undefined)[],
  flags: Partial<Record<K, string>>,
): Record<K, string> {
  const left = positional.filter((v): v is string => v !== undefined);
  const fromArgs = new Map<K, string>();
  for (const spec of specs) {
    if (flags[spec.key] !== undefined) continue;
    const next = left.shift();
    if (next !== undefined) fromArgs.set(spec.key, next);
  }
  // Every value came by flag and arguments remain: the last of them may repeat the last value.
  const last = specs[specs.length - 1]!;
  if (left.length === 1 && !fromArgs.has(last.key)) fromArgs.set(last.key, left.shift()!);
  if (left.length > 0) throw new CliError(`one argument too many: ${left.join(' ')}`, EXIT.usage);
  const out = {} as Record<K, string>;
  for (const spec of specs)
    out[spec.key] = argOrFlag(spec, fromArgs.get(spec.key), flags[spec.key], spec.same);
  return out;
}

/** The values the catalogue commands take as an argument or a flag, named as their usage errors say. */
export const BRAND_VALUE: ArgOrFlagSpec<'brand'> = {
  key: 'brand',
  name: 'brand',
  flag: '--brand',
  example: 'Demotherm',
  position: 'the first argument',
};
export const MODEL_VALUE: ArgOrFlagSpec<'model'> = {
  key: 'model',
  name: 'model',
  flag: '--model',
  example: 'DT-AW080-M',
  position: 'the last argument',
};
/** The same code written twice (`-c E9 e9`) is one code: codes are matched by their key. */
export const CODE_VALUE: ArgOrFlagSpec<'code'> = {
  key: 'code',
  name: 'error code',
  flag: '--code',
  example: 'E9',
  position: 'the last argument',
  same: (a, b) => codeKey(a) === codeKey(b),
};

/** The same values as oclif declares them, an argument and a flag each (`code` and `product` take both). */
export const VALUE_ARGS = {
  brand: Args.string({ description: 'manufacturer (or give it with --brand)' }),
  model: Args.string({ description: 'model from the nameplate (or give it with --model)' }),
  code: Args.string({ description: 'error code as shown on the display (or give it with --code)' }),
};
export const VALUE_FLAGS = {
  brand: Flags.string({ char: 'b', description: 'manufacturer, as printed or commonly called' }),
  model: Flags.string({ char: 'm', description: 'model from the nameplate' }),
  code: Flags.string({ char: 'c', description: 'error code as shown on the display' }),
};
