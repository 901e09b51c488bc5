import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { BundleReader } from '../../src/bundle/reader.js';
import { corpusView } from '../../src/engine/corpus.js';
import { exampleDiagnostic } from '../../src/engine/examples.js';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { demoBundle } from '../mcp/harness.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const LOCAL_EMAIL = 'owner@localhost';

/** Whether the browser suites can run here; .ci/run installs Debian's chromium where it is missing. */
export function chromiumMissing(): string | null {
  return fs.existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ConsoleServer {
  base: string;
  /** The invitation link `serve` printed for the local account. */
  invitation: string;
  /** A request the demo bundle answers. */
  example: { brand: string; model: string; error_code: string };
  /** A second handle on the server's state file, for setting up other accounts. */
  state: SqliteStateStore;
  close(): Promise<void>;
}

/** `serve` as `npm start` runs it (demo bundle, local invitation), on a free port and a fresh state. */
export async function consoleServer(options: { trustProxy?: string[] } = {}): Promise<ConsoleServer> {
  const { bundle, dispose } = await demoBundle();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-console-'));
  const stateFile = path.join(dir, 'state.sqlite');
  const notices: string[] = [];
  const server: RunningServer = await startServer(
    {
      bundle,
      state: stateFile,
      host: '127.0.0.1',
      port: 0,
      auth: true,
      trustProxy: options.trustProxy,
      logLevel: 'silent',
      surfaces: { fieldApp: false, invite: LOCAL_EMAIL },
    },
    (line) => notices.push(line),
  );
  const invitation = notices.map((l) => l.trim()).find((l) => l.includes('/console/invitation?token='));
  if (!invitation) throw new Error(`serve printed no invitation:\n${notices.join('\n')}`);
  const reader = new BundleReader(bundle);
  const example = exampleDiagnostic(corpusView(reader));
  reader.close();
  if (!example) throw new Error('the demo bundle has no example diagnostic');
  const state = new SqliteStateStore(stateFile);
  return {
    base: server.url,
    invitation,
    example,
    state,
    close: async () => {
      await state.close();
      await server.close();
      dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
