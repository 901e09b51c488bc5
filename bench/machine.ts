import os from 'node:os';

/** One line naming the machine a benchmark ran on, for BENCHMARKS.md. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const mem = Math.round(os.totalmem() / 2 ** 30);
  return `${os.availableParallelism()} cores (${cpu}), ${mem} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Replaces (or appends) the block between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`. */
export function replaceBenchBlock(markdown: string, name: string, block: string): string {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const body = `${start}\n${block.trim()}\n${end}`;
  const i = markdown.indexOf(start);
  const j = markdown.indexOf(end);
  if (i >= 0 && j > i) return markdown.slice(0, i) + body + markdown.slice(j + end.length);
  return `${markdown.trimEnd()}\n\n${body}\n`;
}
