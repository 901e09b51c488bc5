// Stands in, in the browser build, for src/search/question-types-source.ts: data/search/question-types.json
// is read when the app is built (scripts/build-app.ts) and defined here as a constant.
declare const __HEATSOURCE_QUESTION_TYPES__: unknown;

export function readQuestionTypesSource(): { name: string; raw: unknown } {
  return { name: 'data/search/question-types.json', raw: __HEATSOURCE_QUESTION_TYPES__ };
}
