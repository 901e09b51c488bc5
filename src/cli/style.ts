/** Terminal styling: ANSI colour on a terminal that wants it, plain text when piped or with NO_COLOR. */
export interface Style {
  readonly colour: boolean;
  /** Width to wrap prose to; null when the output is not a terminal (no wrapping: lines stay greppable). */
  readonly width: number | null;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

interface Stream {
  isTTY?: boolean;
  columns?: number;
}

/** Colour unless NO_COLOR is set (any value) or TERM=dumb; FORCE_COLOR forces it (0 turns it off). */
export function wantsColour(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/**
 * Columns to wrap to: the terminal's, or COLUMNS when set (a script or a test can then ask for the layout a
 * narrow terminal gets); null when piped without COLUMNS, so that lines stay whole for grep.
 */
function widthFor(stream: Stream, env: NodeJS.ProcessEnv): number | null {
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  const columns =
    Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : stream.isTTY ? (stream.columns ?? 80) : null;
  return columns === null ? null : Math.max(40, Math.min(columns, 100));
}

export function styleFor(stream: Stream, env: NodeJS.ProcessEnv = process.env): Style {
  const colour = wantsColour(stream, env);
  const sgr = (open: number, close: number) => (text: string) =>
    colour && text ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    colour,
    width: widthFor(stream, env),
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}
