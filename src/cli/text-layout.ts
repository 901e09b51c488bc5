import type { Style } from './style.js';

/** Printable width of a string, ANSI codes left out. */
export function visibleLength(s: string): number {
  // biome-ignore lint/complexity/useRegexLiterals: the escape is clearer spelt out
  return s.replace(new RegExp('\\x1b\\[[0-9;]*m', 'g'), '').length;
}

function wrapParts(text: string, width: number | null, first: string, rest: string): [string, string][] {
  const out: [string, string][] = [];
  let prefix = first;
  for (const paragraph of text.split('\n')) {
    if (width === null) {
      out.push([prefix, paragraph.trimEnd()]);
      prefix = rest;
      continue;
    }
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && visibleLength(prefix) + visibleLength(candidate) > width) {
        out.push([prefix, line]);
        prefix = rest;
        line = word;
      } else {
        line = candidate;
      }
    }
    out.push([prefix, line]);
    prefix = rest;
  }
  return out;
}

// biome-ignore lint/complexity/useRegexLiterals: the escape is clearer spelt out
const WHOLLY_STYLED = new RegExp('^((?:\\x1b\\[[0-9;]*m)+)([^\\x1b]*)((?:\\x1b\\[[0-9;]*m)+)$', 's');

/**
 * Wraps `text` to `width` columns, the first line after `first` and the others after `rest` (a hanging
 * indent for numbered steps). Without a width (piped output) each paragraph stays on one line. Line breaks
 * in the text are kept: manual excerpts are verbatim. A text styled as a whole is styled line by line, so
 * that a colour never runs into the indent of the next line.
 */
export function wrap(
  text: string,
  width: number | null,
  first = '',
  rest = ' '.repeat(visibleLength(first)),
): string[] {
  const styled = WHOLLY_STYLED.exec(text);
  const [open, inner, close] = styled ? [styled[1]!, styled[2]!, styled[3]!] : ['', text, ''];
  return wrapParts(inner, width, first, rest).map(([prefix, content]) =>
    `${prefix}${content ? `${open}${content}${close}` : ''}`.trimEnd(),
  );
}

/** The lines of a command's human output, with small helpers for the shapes every command uses. */
export class Lines {
  readonly lines: string[] = [];
  constructor(readonly style: Style) {}

  add(...lines: string[]): this {
    this.lines.push(...lines);
    return this;
  }

  blank(): this {
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== '') this.lines.push('');
    return this;
  }

  para(text: string, indent = ''): this {
    this.lines.push(...wrap(text, this.style.width, indent));
    return this;
  }

  /** A label and its value on one line, the value wrapped under itself. */
  field(label: string, value: string, indent = ''): this {
    const head = `${indent}${this.style.bold(label)} `;
    this.lines.push(...wrap(value, this.style.width, head, `${indent}${' '.repeat(label.length + 1)}`));
    return this;
  }

  /**
   * A command to copy and run. It keeps its indent when it fits, and starts at the margin when it does
   * not. Wider than the terminal, it is cut between its words with the shell's ` \` line continuation,
   * so that it still pastes and runs as one command and no word of it (an id, a path) is broken by the
   * terminal; a flag stays beside its value.
   */
  command(text: string, indent = '', styled: (t: string) => string = this.style.dim): this {
    const width = this.style.width;
    if (width === null || visibleLength(text) <= width) {
      const fits = width === null || indent.length + visibleLength(text) <= width;
      this.lines.push(`${fits ? indent : ''}${styled(text)}`);
      return this;
    }
    let line = '';
    for (const part of commandParts(text)) {
      const candidate = line ? `${line} ${part}` : part;
      // Every line but the last ends in ` \`: room is kept for it.
      if (line.trim() && visibleLength(candidate) + 2 > width) {
        this.lines.push(styled(`${line} \\`));
        line = `  ${part}`;
      } else {
        line = candidate;
      }
    }
    this.lines.push(styled(line));
    return this;
  }

  bullets(items: string[], indent = '  '): this {
    for (const item of items) this.lines.push(...wrap(item, this.style.width, `${indent}• `));
    return this;
  }

  toString(): string {
    while (this.lines.length > 0 && this.lines[this.lines.length - 1] === '') this.lines.pop();
    return this.lines.join('\n');
  }
}

/**
 * The parts of a command line a continuation may fall between: its words, a quoted word with its
 * spaces kept whole, and a flag together with the value after it.
 */
function commandParts(text: string): string[] {
  const words = text.match(/(?:"(?:\\.|[^"\\])*"|'[^']*'|\S)+/g) ?? [];
  const parts: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const value = words[i + 1];
    if (word.startsWith('-') && value !== undefined && !value.startsWith('-')) {
      parts.push(`${word} ${value}`);
      i++;
    } else parts.push(word);
  }
  return parts;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function pages(from: number, to: number): string {
  return to > from ? `pages ${from}–${to}` : `page ${from}`;
}
