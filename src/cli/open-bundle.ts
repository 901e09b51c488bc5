import type { Command } from '@oclif/core';
import { BundleOpenError, BundleReader } from '../bundle/reader.js';

/** Opens a bundle for a command, or ends the command with a one-line error and exit code 1. */
export function openBundleOrExit(command: Command, file: string): BundleReader {
  try {
    return new BundleReader(file);
  } catch (err) {
    if (err instanceof BundleOpenError) command.error(err.message, { exit: 1 });
    throw err;
  }
}
