// Stands in, in the browser build, for src/text/session-words-source.ts: data/cli/session-words.json is
// read when the app is built (scripts/build-app.ts) and defined here as a constant.
declare const __HEATSOURCE_SESSION_WORDS__: unknown;

export function readSessionWordsSource(): { name: string; raw: unknown } {
  return { name: 'data/cli/session-words.json', raw: __HEATSOURCE_SESSION_WORDS__ };
}
