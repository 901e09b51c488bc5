import fs from 'node:fs';
import path from 'node:path';

export interface ManualFile {
  pdf: string;
  /** The sidecar beside the PDF (same base name, .yaml or .yml), when there is one. */
  sidecar: string | undefined;
}

/** Finds the PDFs under the given files and folders, each with its sidecar, in a stable order. */
export function discoverManuals(paths: string[]): { manuals: ManualFile[]; missing: string[] } {
  const pdfs = new Set<string>();
  const missing: string[] = [];
  const walk = (p: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      missing.push(p);
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p).sort()) {
        if (entry.startsWith('.')) continue;
        walk(path.join(p, entry));
      }
    } else if (/\.pdf$/i.test(p)) {
      pdfs.add(path.resolve(p));
    }
  };
  for (const p of paths) walk(p);
  const manuals = [...pdfs].sort().map((pdf) => ({ pdf, sidecar: sidecarOf(pdf) }));
  return { manuals, missing };
}

function sidecarOf(pdf: string): string | undefined {
  const base = pdf.replace(/\.pdf$/i, '');
  return ['.yaml', '.yml'].map((ext) => base + ext).find((f) => fs.existsSync(f));
}
