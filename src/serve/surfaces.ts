import { type FieldAppOptions, registerFieldApp } from '../app/index.js';
import { consoleNotices, registerConsole } from '../console/index.js';
import type { StateStore } from '../state/types.js';
import type { BuildAppOptions } from './app.js';

/** The browser surfaces `serve` mounts beside the API; by default both. */
export interface SurfaceOptions {
  /** The account holders' web console at /console. */
  console?: boolean;
  /** The technicians' field app at /app; `{ dir }` serves a build from another folder. */
  fieldApp?: boolean | FieldAppOptions;
  /** An email made a holder of the local account by a one-time link printed once the server listens. */
  invite?: string;
}

export interface Surfaces {
  /** Registers the surfaces on the app, once the API is registered. */
  extend: NonNullable<BuildAppOptions['extend']>;
  /** What the person starting the server is told about them once it listens. */
  notices: (url: string, state: StateStore) => Promise<string[]>;
}

/**
 * The one place that mounts the web console and the field app (adapters that never import each other)
 * on the API server: `serve`, `demo --serve`, the console's tests and the benches all go through it.
 */
export function surfaces(options: SurfaceOptions = {}): Surfaces {
  const withConsole = options.console ?? true;
  const fieldApp = options.fieldApp ?? true;
  return {
    extend: async (app, hs) => {
      if (withConsole) await registerConsole(app, hs);
      if (fieldApp !== false) await registerFieldApp(app, fieldApp === true ? {} : fieldApp);
    },
    notices: withConsole ? consoleNotices({ invite: options.invite }) : async () => [],
  };
}
