import crypto from 'node:crypto';
import fs from 'node:fs';
import { projectPath } from '../project-path.js';

export interface Asset {
  /** The file name with its content hash: `console.3f9a1c2b.css`. */
  name: string;
  contentType: string;
  body: Buffer;
}

const FILES: { file: string; contentType: string }[] = [
  { file: 'console.css', contentType: 'text/css; charset=utf-8' },
  { file: 'console.js', contentType: 'text/javascript; charset=utf-8' },
];

/**
 * The console's static files (src/console/assets), read once and named by a hash of their content so
 * that browsers can keep them forever (`immutable`) and a new version is a new URL.
 */
export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const { file, contentType } of FILES) {
    const body = fs.readFileSync(projectPath('src', 'console', 'assets', file));
    const hash = crypto.createHash('sha256').update(body).digest('hex').slice(0, 12);
    const dot = file.lastIndexOf('.');
    assets.set(file, { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, contentType, body });
  }
  return assets;
}
