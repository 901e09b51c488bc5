import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * Lines typed at a prompt, from a terminal or from a pipe. Lines that arrive before they are asked for
 * are queued (a pipe delivers them all at once); when the input is not a terminal each line read is
 * echoed after its prompt, so that the transcript reads as a dialogue. `ask` answers null at the end of
 * the input.
 */
export class LineInput {
  private readonly rl: readline.Interface;
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private ended = false;
  private readonly tty: boolean;

  constructor(
    input: Readable & { isTTY?: boolean },
    private readonly output: Writable,
  ) {
    this.tty = Boolean(input.isTTY);
    this.rl = readline.createInterface({ input, output: this.tty ? output : undefined, terminal: this.tty });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = null;
        resolve(line);
      } else this.queue.push(line);
    });
    // Ctrl+C at the prompt ends the input like Ctrl+D: the caller leaves the session open and says so.
    this.rl.on('SIGINT', () => this.rl.close());
    this.rl.on('close', () => {
      this.ended = true;
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = null;
        resolve(null);
      }
    });
  }

  async ask(prompt: string): Promise<string | null> {
    const line = await this.next(prompt);
    if (!this.tty) this.output.write(line === null ? '\n' : `${line}\n`);
    return line;
  }

  private next(prompt: string): Promise<string | null> {
    if (this.tty) {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    } else this.output.write(prompt);
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  close(): void {
    this.rl.close();
  }
}
