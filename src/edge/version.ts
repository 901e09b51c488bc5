import fs from 'node:fs';
import { projectPath } from '../project-path.js';

let cached: string | undefined;

/** The version of the package, as the API and the MCP server report it. */
export function packageVersion(): string {
  if (cached === undefined) {
    try {
      cached = (JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')) as { version: string })
        .version;
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}
