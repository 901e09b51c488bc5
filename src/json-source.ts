import fs from 'node:fs';

/** A data file as read, not yet checked: its name (for error messages) and its parsed JSON. */
export interface JsonSource {
  name: string;
  raw: unknown;
}

/**
 * Reads and parses one JSON data file, an unreadable or malformed file reported with its name. The
 * modules that call this (`*-source.ts`) exist one per file so that the field app's browser build can put
 * each file, read at build time, in their place; the reading itself is this one function.
 */
export function readJsonSource(file: string): JsonSource {
  try {
    return { name: file, raw: JSON.parse(fs.readFileSync(file, 'utf8')) };
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}
