import type { Sidecar } from '../../src/contract/sidecar.js';
import { normModel } from '../../src/text/normalise.js';

/** Tokens shaped like model designations: capitals and digits, usually with hyphens ("MMW-UP0271LQ-E"). */
const MODEL_TOKEN = /\b[A-Z]{2,}[A-Z0-9]*(?:-?[A-Z0-9]+){0,4}\d[A-Z0-9-]*\b/g;

/**
 * Compares the models printed in a manual with the sidecar. Models the sidecar lists that the text never
 * prints are reported, as are printed designations that share a listed model's family prefix but are
 * missing from the sidecar.
 */
export function compareModels(text: string, sidecar: Sidecar): string[] {
  const printed = new Set<string>();
  for (const m of text.matchAll(MODEL_TOKEN)) printed.add(normModel(m[0]));
  const compact = normModel(text);
  const warnings: string[] = [];
  const listed = sidecar.models.flatMap((m) => [m.name, ...m.aliases]).map(normModel);
  for (const model of sidecar.models) {
    const names = [model.name, ...model.aliases].map(normModel);
    if (!names.some((n) => compact.includes(n))) {
      warnings.push(`model ${model.name} is listed in the sidecar but not printed in the manual`);
    }
  }
  const families = new Set(listed.map((n) => n.slice(0, 4)).filter((f) => f.length === 4));
  const unlisted = [...printed].filter(
    (p) => p.length >= 6 && families.has(p.slice(0, 4)) && !listed.some((l) => l === p || l.startsWith(p)),
  );
  for (const p of unlisted.slice(0, 10)) {
    warnings.push(`model-like designation ${p} is printed in the manual but not listed in the sidecar`);
  }
  return warnings;
}
