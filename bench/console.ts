/**
 * Console page latency on loopback: a holder is invited and signs in, then each page is requested
 * sequentially (one browser's worth of load, not throughput) and the median and p95 server round trip
 * and the page size are reported. Sign-in is measured apart: argon2id dominates it by design.
 *
 *   npm run build && node dist/bench/console.js [--bundle FILE] [--requests N]
 *
 * The server runs in this process over a temporary file-backed state; the Try-it look-up is billed, so
 * every such request writes a ledger row, as in production.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BundleReader } from '../src/bundle/reader.js';
import { corpusView } from '../src/engine/corpus.js';
import { exampleDiagnostic } from '../src/engine/examples.js';
import { projectPath } from '../src/project-path.js';
import { machineLine } from './machine.js';
import { startBenchServer } from './server.js';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    requests: { type: 'string', default: '200' },
  },
});
const N = Math.max(10, Math.min(5000, Number(values.requests)));
const bundle = values.bundle!;
const server = await startBenchServer(bundle, { fieldApp: false, invite: 'bench@localhost' });
const notices = server.notices;
const reader = new BundleReader(bundle);
const example = exampleDiagnostic(corpusView(reader))!;
reader.close();

const jar = new Map<string, string>();
async function request(p: string, form?: Record<string, string>) {
  const r = await fetch(`${server.url}${p}`, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  for (const c of r.headers.getSetCookie()) {
    const pair = c.split(';')[0]!;
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return { status: r.status, body: await r.text() };
}
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

const invitation = notices.find((l) => l.includes('/console/invitation?token='))!;
const invPath = invitation.slice(server.url.length);
const password = 'a bench password long enough';
const token = new URL(invitation).searchParams.get('token')!;
await request('/console/invitation', {
  csrf: csrfOf((await request(invPath)).body),
  token,
  password,
  confirm: password,
});

async function measure(name: string, run: () => Promise<{ status: number; body: string }>, n = N) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await run();
    times.push(performance.now() - t);
    if (r.status >= 400) throw new Error(`${name}: status ${r.status}`);
    bytes = r.body.length;
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  return { name, n, p50: q(0.5), p95: q(0.95), bytes };
}

const rows = [];
rows.push(await measure('GET /console/keys', () => request('/console/keys')));
rows.push(await measure('GET /console/usage', () => request('/console/usage')));
rows.push(await measure('GET /console/try', () => request('/console/try')));
const csrf = csrfOf((await request('/console/try')).body);
rows.push(
  await measure('POST /console/try (error code, answered)', () =>
    request('/console/try', {
      csrf,
      brand: example.brand,
      model: example.model,
      error_code: example.error_code,
    }),
  ),
);
rows.push(
  await measure('POST /console/try (search)', () => request('/console/try', { csrf, q: 'pressure' })),
);
const signIn = async () => {
  jar.delete('hs_session');
  const page = await request('/console/sign-in');
  return request('/console/sign-in', { csrf: csrfOf(page.body), email: 'bench@localhost', password });
};
await request('/console/sign-out', { csrf: csrfOf((await request('/console/keys')).body) });
rows.push(await measure('sign-in (argon2id verify)', signIn, Math.min(N, 20)));

await server.close();
console.log(
  `${machineLine()}; ${N} sequential requests per page (20 sign-ins), bundle ${path.basename(bundle)}.`,
);
console.log('\n| request | n | p50 ms | p95 ms | bytes |\n|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.n} | ${r.p50} | ${r.p95} | ${r.bytes} |`);
