// The field app's page: look-ups and search, answered by the server or from the kept packs, and the
// wiring of its forms. The connection (connection.ts) and the kept packs (packs.ts) live apart.
import type { DiagnosticResponse } from '../../contract/diagnostic.js';
import type { SearchResponse, SearchResult } from '../../contract/search.js';
import type { OfflineEngine } from '../offline-engine.js';
import { api, NetworkDown, problemText, SETTINGS, settings } from './connection.js';
import { type Child, el, formValues, packDate, show } from './dom.js';
import { startGuided } from './guided.js';
import { keep, listBrands, packs, renderKept, updatePacks } from './packs.js';
import type { StoredPack } from './store.js';

function sourceNote(pack: StoredPack | null): HTMLElement {
  return pack
    ? el(
        'p',
        { class: 'source offline', 'data-source': 'pack' },
        `Answered from the offline pack of ${packDate(pack.built_at)} on this device (no network used).`,
      )
    : el('p', { class: 'source online', 'data-source': 'server' }, 'Answered by the server.');
}

/** A cited page from a pack, with the cited text's lines highlighted (the boxes the console draws). */
export function pageFigure(
  engine: OfflineEngine,
  cite: { document_id: string; page: number; text: string; chunk_id?: string },
): HTMLElement | null {
  const shot = engine.snapshot(cite.document_id, cite.page);
  const h = engine.highlight(cite);
  if (!shot || !h) return null;
  const url = URL.createObjectURL(new Blob([shot.webp as BlobPart], { type: 'image/webp' }));
  const svgNs = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', `0 0 ${h.width} ${h.height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  for (const b of h.boxes) {
    const r = document.createElementNS(svgNs, 'rect');
    r.setAttribute('class', 'hl');
    r.setAttribute('data-highlight', '');
    r.setAttribute('x', String(b.x0 - 2));
    r.setAttribute('y', String(b.y0 - 2));
    r.setAttribute('width', String(b.x1 - b.x0 + 4));
    r.setAttribute('height', String(b.y1 - b.y0 + 4));
    svg.append(r);
  }
  const img = el('img', {
    src: url,
    alt: `Page ${cite.page}${h.boxes.length ? ', cited lines highlighted' : ''}`,
    width: String(shot.width),
    height: String(shot.height),
  });
  const frame = el('div', { class: 'page-frame' }, img);
  frame.append(svg);
  return el(
    'figure',
    { class: 'page', 'data-page': String(cite.page) },
    frame,
    el(
      'figcaption',
      {},
      `Page ${cite.page}: ${h.boxes.length} highlighted ${h.boxes.length === 1 ? 'area' : 'areas'}`,
    ),
  );
}

function renderDiagnostic(
  body: DiagnosticResponse,
  pack: StoredPack | null,
  engine: OfflineEngine | null,
): Child[] {
  const out: Child[] = [sourceNote(pack)];
  if (body.state !== 'answer') {
    const what: Record<string, string> = {
      ambiguous: 'More than one reading: say which.',
      unknown_code: 'No manual of this brand documents this code for this model.',
      out_of_coverage: pack
        ? 'The offline pack holds no manual for this.'
        : 'The corpus holds no manual for this.',
    };
    out.push(el('p', { class: 'state', 'data-state': body.state }, what[body.state] ?? body.state));
    for (const q of body.follow_up_questions) {
      out.push(
        el('p', { class: 'follow-up' }, q.question, q.options.length ? ` (${q.options.join(', ')})` : ''),
      );
    }
    for (const a of body.alternatives.slice(0, 5)) {
      out.push(
        el(
          'p',
          { class: 'alternative' },
          `${a.error_code}: ${a.title} (${a.models.join(', ')}), ${a.citation.title} p. ${a.citation.page}`,
        ),
      );
    }
    return out;
  }
  out.push(el('h3', { class: 'title' }, `${body.error_code}: ${body.title ?? ''}`));
  if (body.model) out.push(el('p', { class: 'model' }, `${body.brand} ${body.model.name}`));
  if (body.excerpt) out.push(el('blockquote', { class: 'excerpt' }, body.excerpt.text));
  if (body.citation) {
    out.push(
      el(
        'p',
        { class: 'citation' },
        `${body.citation.title}, page ${body.citation.page}${body.citation.page_end > body.citation.page ? `-${body.citation.page_end}` : ''}${body.citation.section ? ` (${body.citation.section})` : ''}`,
      ),
    );
  }
  if (body.causes.length) {
    out.push(
      el('h4', {}, 'Causes'),
      el('ul', { class: 'causes' }, ...body.causes.map((c) => el('li', {}, c))),
    );
  }
  if (body.steps.length) {
    out.push(
      el('h4', {}, 'Steps'),
      el(
        'ol',
        { class: 'steps' },
        ...body.steps.map((s) =>
          el('li', {}, s.safety ? el('strong', { class: 'warning' }, `Warning: ${s.safety} `) : '', s.text),
        ),
      ),
    );
  }
  if (body.part) {
    out.push(
      el(
        'p',
        { class: 'part' },
        `Part: ${body.part.name}${body.part.reference ? ` (${body.part.reference})` : ''}`,
      ),
    );
  }
  if (engine && body.excerpt) {
    const figure = pageFigure(engine, { ...body.excerpt });
    if (figure) out.push(figure);
  }
  return out;
}

async function lookup(input: Record<string, string>): Promise<void> {
  const target = document.getElementById('lookup-result')!;
  const request = {
    brand: input.brand ?? '',
    ...(input.model ? { model: input.model } : {}),
    error_code: input.error_code ?? '',
  };
  show(target, el('p', { class: 'busy' }, 'Looking up…'));
  try {
    const res = await api('/v1/diagnostic', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    if (!res.ok) return show(target, el('p', { class: 'error' }, await problemText(res)));
    const body = (await res.json()) as DiagnosticResponse;
    const kept = await packs.forBrand(request.brand);
    show(target, ...renderDiagnostic(body, null, kept?.engine ?? null));
    return;
  } catch (err) {
    if (!(err instanceof NetworkDown)) throw err;
  }
  const started = performance.now();
  const kept = await packs.forBrand(request.brand);
  if (!kept) {
    return show(
      target,
      el(
        'p',
        { class: 'error' },
        `No network, and no offline pack of "${request.brand}" is kept on this device.`,
      ),
    );
  }
  try {
    const body = kept.engine.diagnose(request);
    show(target, ...renderDiagnostic(body, kept.pack, kept.engine));
  } catch (err) {
    show(target, el('p', { class: 'error' }, (err as Error).message));
  }
  target.dataset.ms = (performance.now() - started).toFixed(2);
}

function renderResults(
  body: SearchResponse,
  pack: StoredPack | null,
  engine: OfflineEngine | null,
  brand?: string,
): Child[] {
  const out: Child[] = [sourceNote(pack)];
  // A brand with no manual is the reason, not the words.
  if (body.results.length === 0)
    out.push(
      el(
        'p',
        { class: 'state' },
        brand && body.unmatched_filters.includes('brand')
          ? `No manual of brand “${brand}” here.`
          : 'No passage matches.',
      ),
    );
  const list = el('ol', { class: 'results' });
  for (const r of body.results) list.append(resultItem(r, engine));
  out.push(list);
  return out;
}

function resultItem(r: SearchResult, engine: OfflineEngine | null): HTMLElement {
  const item = el(
    'li',
    { class: 'result' },
    el('p', { class: 'snippet' }, r.snippet),
    el('p', { class: 'citation' }, `${r.title}, page ${r.page}${r.section ? ` (${r.section})` : ''}`),
  );
  if (engine) {
    const button = el('button', { type: 'button', class: 'show-page' }, 'Show the page');
    button.addEventListener('click', () => {
      const figure = pageFigure(engine, {
        document_id: r.document_id,
        page: r.page,
        text: r.snippet,
        chunk_id: r.chunk_id,
      });
      if (figure) button.replaceWith(figure);
    });
    item.append(button);
  }
  return item;
}

async function search(input: Record<string, string>): Promise<void> {
  const target = document.getElementById('search-result')!;
  const query = { q: input.q ?? '', ...(input.brand ? { brand: input.brand } : {}), limit: 10 };
  show(target, el('p', { class: 'busy' }, 'Searching…'));
  try {
    const params = new URLSearchParams({ ...query, limit: String(query.limit) });
    const res = await api(`/v1/search?${params}`);
    if (!res.ok) return show(target, el('p', { class: 'error' }, await problemText(res)));
    const kept = query.brand ? await packs.forBrand(query.brand) : null;
    show(
      target,
      ...renderResults((await res.json()) as SearchResponse, null, kept?.engine ?? null, query.brand),
    );
    return;
  } catch (err) {
    if (!(err instanceof NetworkDown)) throw err;
  }
  const brand = query.brand || packs.brands()[0];
  const kept = brand ? await packs.forBrand(brand) : null;
  if (!kept)
    return show(
      target,
      el('p', { class: 'error' }, 'No network, and no offline pack of this brand is kept.'),
    );
  try {
    show(target, ...renderResults(kept.engine.search({ ...query, brand }), kept.pack, kept.engine, brand));
  } catch (err) {
    show(target, el('p', { class: 'error' }, (err as Error).message));
  }
}

async function connect(values: Record<string, string>): Promise<void> {
  const server = (values.server ?? '').trim().replace(/\/+$/, '');
  localStorage.setItem(SETTINGS, JSON.stringify({ server, key: (values.key ?? '').trim() }));
  await showAccount();
}

async function showAccount(): Promise<void> {
  const target = document.getElementById('account')!;
  if (!settings()) return show(target, 'Not connected.');
  try {
    const res = await api('/v1/me');
    if (!res.ok) return show(target, el('span', { class: 'error' }, await problemText(res)));
    const me = (await res.json()) as {
      account: { name: string };
      quota: { used: number; limit: number | null; period: string };
    };
    show(
      target,
      el('span', { class: 'account-name' }, me.account.name),
      `: ${me.quota.used} of ${me.quota.limit ?? 'unlimited'} look-ups used in ${me.quota.period}.`,
    );
    await listBrands();
  } catch (err) {
    if (!(err instanceof NetworkDown)) throw err;
    show(target, 'Offline: the account shows once the network is back.');
  }
}

function showNetwork(): void {
  const status = document.getElementById('net-status')!;
  status.dataset.online = String(navigator.onLine);
  status.textContent = navigator.onLine
    ? 'Online'
    : 'Offline: answers come from the manuals kept on this device';
}

async function main(): Promise<void> {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register(new URL('sw.js', location.href), { scope: './' }).catch(() => {});
  }
  const form = document.getElementById('connect-form') as HTMLFormElement;
  const s = settings();
  (form.elements.namedItem('server') as HTMLInputElement).value = s?.server ?? location.origin;
  (form.elements.namedItem('key') as HTMLInputElement).value = s?.key ?? '';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void connect(formValues(form));
  });
  const keepForm = document.getElementById('keep-form') as HTMLFormElement;
  keepForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const brands = Array.from(keepForm.querySelectorAll<HTMLInputElement>('input[name=brand]:checked')).map(
      (i) => i.value,
    );
    void keep(brands);
  });
  for (const [id, run] of [
    ['lookup-form', lookup],
    ['search-form', search],
  ] as const) {
    const f = document.getElementById(id) as HTMLFormElement;
    f.addEventListener('submit', (e) => {
      e.preventDefault();
      void run(formValues(f));
    });
  }
  const guided = startGuided({
    api,
    isNetworkDown: (err) => err instanceof NetworkDown,
    problemText,
    engineFor: async (brand) => (await packs.forBrand(brand))?.engine ?? null,
  });
  showNetwork();
  window.addEventListener('online', () => {
    showNetwork();
    void guided.sync().then(updatePacks);
  });
  window.addEventListener('offline', showNetwork);
  await packs.reload();
  await renderKept();
  document.body.dataset.ready = 'true';
  void packs.warm();
  if (navigator.onLine && settings()) {
    await guided.sync();
    await showAccount();
    await updatePacks();
  }
}

void main();
