// Stands in, in the browser build, for src/engine/sessions/units-table.ts: the units table is parsed from
// data/units.yaml when the app is built (scripts/build-app.ts) and defined here as a constant.
declare const __HEATSOURCE_UNITS__: unknown;

export function readUnitsTable(): unknown {
  return __HEATSOURCE_UNITS__;
}
