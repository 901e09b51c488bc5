// Stands in, in the browser build, for Node modules that the shared engine code imports but never calls
// when it reads an offline pack (the reader opens files with better-sqlite3 only when given a path).
const unavailable: object = new Proxy(() => undefined, {
  get: (_target, name) => {
    if (name === '__esModule' || name === 'default') return unavailable;
    throw new Error(`${String(name)} is not available in the browser`);
  },
  apply: () => {
    throw new Error('not available in the browser');
  },
  construct: () => {
    throw new Error('not available in the browser');
  },
});
export default unavailable;
