/** The server the technician connected to: its address and key, and calls to it. */

export interface Settings {
  server: string;
  key: string;
}

export const SETTINGS = 'heatsource.settings';

/** The server address and API key the technician connected with (kept on this device only). */
export function settings(): Settings | null {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS) ?? 'null') as Settings | null;
    return s?.server && s.key ? s : null;
  } catch {
    return null;
  }
}

/** The network is down (or the server unreachable): the app answers from its packs. */
export class NetworkDown extends Error {}

/** A call to the server with the saved key; throws NetworkDown when it cannot be reached. */
export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const s = settings();
  if (!s) throw new NetworkDown('not connected to a server');
  if (!navigator.onLine) throw new NetworkDown('offline');
  try {
    return await fetch(new URL(path, s.server), {
      ...init,
      headers: { authorization: `Bearer ${s.key}`, ...(init.headers as Record<string, string>) },
    });
  } catch (err) {
    throw new NetworkDown((err as Error).message);
  }
}

export async function problemText(res: Response): Promise<string> {
  try {
    const p = (await res.json()) as { detail?: string; title?: string };
    return p.detail ?? p.title ?? `the server answered ${res.status}`;
  } catch {
    return `the server answered ${res.status}`;
  }
}
