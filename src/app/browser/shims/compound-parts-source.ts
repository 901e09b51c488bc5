// Stands in, in the browser build, for src/search/compound-parts-source.ts: data/search/compound-parts.json
// is read when the app is built (scripts/build-app.ts) and defined here as a constant.
declare const __HEATSOURCE_COMPOUND_PARTS__: unknown;

export function readCompoundPartsSource(): { name: string; raw: unknown } {
  return { name: 'data/search/compound-parts.json', raw: __HEATSOURCE_COMPOUND_PARTS__ };
}
