import type { BrandAliases } from '../../src/catalog/brands.js';
import type { Sidecar } from '../../src/contract/sidecar.js';
import { fold } from '../../src/text/normalise.js';
import { detectLanguage } from './language.js';

/**
 * What can be told about a manual that came without a sidecar: title from the PDF metadata or the file
 * name, brand from the known brand names printed on the first pages, language from its words. It is never
 * approved as an exact-model source and lists no model: a maintainer must confirm those.
 */
export function detectSidecar(
  fileName: string,
  metadataTitle: string | undefined,
  firstPagesText: string,
  brands: BrandAliases,
): Sidecar {
  const folded = ` ${fold(firstPagesText).replace(/[^a-z0-9]+/g, ' ')} `;
  let brand = 'Unknown';
  let bestAt = Number.POSITIVE_INFINITY;
  for (const [norm, canonical] of brands.entries()) {
    const at = folded.indexOf(` ${norm} `);
    if (at >= 0 && at < bestAt) {
      bestAt = at;
      brand = canonical;
    }
  }
  const text = fold(firstPagesText);
  const airAir = /air[\s/-]*(to[\s-]*)?air|climatiseur|air conditioner|aire acondicionado|klimager/.test(
    text,
  );
  const service = /service manual|manuel de service|manual de servicio|servicehandbuch/.test(text);
  return {
    title: metadataTitle?.trim() || fileName.replace(/\.pdf$/i, ''),
    brand,
    doc_type: service ? 'service_manual' : 'technical_manual',
    language: detectLanguage(firstPagesText),
    equipment: airAir ? 'air_air' : 'air_water',
    approved: false,
    models: [],
  };
}
