// Stands in, in the browser build, for src/search/glossary-source.ts: data/search/glossary.json is read
// when the app is built (scripts/build-app.ts) and defined here as a constant.
declare const __HEATSOURCE_GLOSSARY__: unknown;

export function readGlossarySource(): { name: string; raw: unknown } {
  return { name: 'data/search/glossary.json', raw: __HEATSOURCE_GLOSSARY__ };
}
