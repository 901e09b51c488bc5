import path from 'node:path';
import type { FileResult, IngestEvent } from './run.js';

/**
 * Renders ingest progress: on a terminal, a bar for the current manual and one for the run, redrawn in
 * place; otherwise one plain line per finished manual, so logs stay readable.
 */
export function ingestProgress(stream: NodeJS.WriteStream): (e: IngestEvent) => void {
  const tty = Boolean(stream.isTTY) && process.env.TERM !== 'dumb';
  let total = 0;
  let done = 0;
  let current = '';
  let drawn = false;
  const draw = (stage: string, fileDone: number, fileTotal: number) => {
    if (!tty) return;
    const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - 50));
    const lines = [
      `${bar(fileTotal ? fileDone / fileTotal : 0, width)} ${truncate(current, 28)} ${stage}`,
      `${bar(total ? done / total : 0, width)} ${done}/${total} manuals`,
    ];
    stream.write(`${drawn ? '\x1b[2A' : ''}\x1b[2K${lines[0]}\n\x1b[2K${lines[1]}\n`);
    drawn = true;
  };
  const clear = () => {
    if (tty && drawn) stream.write('\x1b[2A\x1b[2K\n\x1b[2K\x1b[2A\n');
    drawn = false;
  };
  return (e) => {
    switch (e.type) {
      case 'start':
        total = e.files;
        if (!tty) stream.write(`ingesting ${total} manual(s)\n`);
        break;
      case 'file-start':
        current = path.basename(e.file);
        draw('text', 0, 1);
        break;
      case 'file-progress':
        draw(e.stage, e.done, e.total);
        break;
      case 'file-end':
        done++;
        clear();
        stream.write(`${describe(e.result)}\n`);
        draw('', 1, 1);
        break;
      case 'writing':
        clear();
        if (!tty) stream.write('writing bundle\n');
        break;
    }
  };
}

export function describe(r: FileResult): string {
  const name = path.basename(r.file);
  if (r.status === 'failed') {
    const kept = r.kept_previous ? ` (the previous version of ${r.document_id} is kept in the bundle)` : '';
    return `✗ ${name}: ${r.problems.map((p) => (p.field.startsWith('(') ? p.reason : `${p.field}: ${p.reason}`)).join('; ')}${kept}`;
  }
  const warn = r.warnings.length ? `, ${r.warnings.length} warning(s)` : '';
  return `✓ ${name}: ${r.status}, ${r.pages} pages, ${r.chunks} chunks, ${r.error_codes} codes${warn} (${r.ms} ms)`;
}

function bar(fraction: number, width: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s.padEnd(n) : `${s.slice(0, n - 1)}…`;
}
