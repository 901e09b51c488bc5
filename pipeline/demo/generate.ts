/**
 * The embedded demo corpus: manuals of a fictional manufacturer, kept as structured sources in
 * data/demo/manuals and rendered to PDF + YAML sidecar pairs shaped like a real corpus.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { type DemoSidecar, hashDemoSources, loadManualSources } from './manual-source.js';
import { renderManual } from './render-manual.js';

export interface DemoManualFile {
  pdf: string;
  sidecar: string;
}

export { DEMO_GENERATOR_VERSION } from './manual-source.js';

function sidecarYaml(sidecar: DemoSidecar, slug: string): string {
  const ordered = {
    title: sidecar.title,
    brand: sidecar.brand,
    doc_type: sidecar.doc_type,
    language: sidecar.language,
    equipment: sidecar.equipment,
    approved: sidecar.approved,
    edition: sidecar.edition,
    models: sidecar.models,
  };
  const header = `# Demo corpus (fictional manufacturer), generated from data/demo/manuals/${slug}.yaml\n`;
  return (
    header + stringify(ordered, { lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' })
  );
}

async function writeAtomically(file: string, data: string | Buffer): Promise<void> {
  const temp = `${file}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}

/** Writes `<outDir>/<slug>.pdf` and `<outDir>/<slug>.yaml` for every demo manual. */
export async function generateDemoCorpus(outDir: string): Promise<DemoManualFile[]> {
  await mkdir(outDir, { recursive: true });
  const files: DemoManualFile[] = [];
  for (const source of loadManualSources()) {
    const pdf = path.join(outDir, `${source.slug}.pdf`);
    const sidecar = path.join(outDir, `${source.slug}.yaml`);
    await writeAtomically(pdf, await renderManual(source));
    await writeAtomically(sidecar, sidecarYaml(source.sidecar, source.slug));
    files.push({ pdf, sidecar });
  }
  return files;
}

/** sha256 over the demo sources and the generator version: a different value means the build is stale. */
export function demoSourcesHash(): string {
  return hashDemoSources();
}
