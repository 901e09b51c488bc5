import { Help } from '@oclif/core';
import { EXIT_TABLE } from './exit-codes.js';

/**
 * oclif's help, with the exit-code table at the end of `heatsource --help`: every command shares it, and
 * scripts are written against it.
 */
export default class HeatsourceHelp extends Help {
  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    const width = Math.max(...EXIT_TABLE.map(([code]) => String(code).length));
    this.log(
      [
        '',
        'EXIT STATUS',
        ...EXIT_TABLE.map(([code, meaning]) => `  ${String(code).padEnd(width)}  ${meaning}`),
      ].join('\n'),
    );
  }
}
