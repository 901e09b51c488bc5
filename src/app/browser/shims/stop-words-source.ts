// Stands in, in the browser build, for src/text/stop-words-source.ts: data/text/stop-words.json is read
// when the app is built (scripts/build-app.ts) and defined here as a constant.
declare const __HEATSOURCE_STOP_WORDS__: unknown;

export function readStopWordsSource(): { name: string; raw: unknown } {
  return { name: 'data/text/stop-words.json', raw: __HEATSOURCE_STOP_WORDS__ };
}
