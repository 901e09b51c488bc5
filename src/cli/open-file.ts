import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The program on PATH with this name, or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

/**
 * Opens a file with the desktop's default viewer, detached so that the command ends at once. Returns the
 * viewer started, or null when the system has none (a server, a container).
 */
export function openWithViewer(file: string, platform: NodeJS.Platform = process.platform): string | null {
  const viewer =
    platform === 'darwin'
      ? findOnPath('open')
      : platform === 'win32'
        ? 'explorer.exe'
        : findOnPath('xdg-open');
  if (!viewer) return null;
  const child = spawn(viewer, [file], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  child.unref();
  return viewer;
}
