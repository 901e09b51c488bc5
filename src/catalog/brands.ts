import fs from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { projectPath } from '../project-path.js';
import { normBrand } from '../text/normalise.js';

const BrandFile = z.record(z.string().min(1), z.array(z.string().min(1)).nullable().default([]));

/** Canonical brand names keyed by every normalised name and alias. */
export class BrandAliases {
  private readonly byNorm = new Map<string, string>();

  constructor(entries: Record<string, string[]>) {
    for (const [brand, aliases] of Object.entries(entries)) {
      this.byNorm.set(normBrand(brand), brand);
      for (const alias of aliases) this.byNorm.set(normBrand(alias), brand);
    }
  }

  static load(file = projectPath('data', 'brands.yaml')): BrandAliases {
    const parsed = BrandFile.parse(parse(fs.readFileSync(file, 'utf8')));
    return new BrandAliases(Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v ?? []])));
  }

  /** The canonical name for a brand as written anywhere, or the name itself, trimmed, when unknown. */
  canonical(name: string): string {
    return this.byNorm.get(normBrand(name)) ?? name.trim();
  }

  entries(): [string, string][] {
    return [...this.byNorm.entries()];
  }
}
