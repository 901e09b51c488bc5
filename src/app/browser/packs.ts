import type { OfflineEngine } from '../offline-engine.js';
import { api, NetworkDown, problemText } from './connection.js';
import { el, packDate, show } from './dom.js';
import { packStore, type StoredPack } from './store.js';

/** The packs kept on this device, each opened in SQLite/WebAssembly on first use. */
class Packs {
  private readonly engines = new Map<string, { pack: StoredPack; engine: OfflineEngine }>();
  packs: StoredPack[] = [];

  async reload(): Promise<void> {
    this.packs = (await packStore.all()).sort((a, b) => a.key.localeCompare(b.key));
    for (const [key, entry] of this.engines) {
      const pack = this.packs.find((p) => p.key === key);
      if (!pack || pack.etag !== entry.pack.etag || pack.built_at !== entry.pack.built_at) {
        entry.engine.close();
        this.engines.delete(key);
      }
    }
  }

  private async engine(pack: StoredPack): Promise<OfflineEngine> {
    const known = this.engines.get(pack.key);
    if (known) return known.engine;
    const { openPack } = await import('./pack-engine.js');
    const engine = await openPack(pack.bytes, pack.key);
    this.engines.set(pack.key, { pack, engine });
    return engine;
  }

  /** The pack (and its engine) holding a brand, by name or alias, when one is kept. */
  async forBrand(brand: string): Promise<{ pack: StoredPack; engine: OfflineEngine } | null> {
    for (const pack of this.packs) {
      const engine = await this.engine(pack);
      if (engine.view.brandOf(brand)) return { pack, engine };
    }
    return null;
  }

  /** Opens every pack ahead of use, so that a look-up offline only runs its query. */
  async warm(): Promise<void> {
    for (const pack of this.packs) await this.engine(pack);
  }

  brands(): string[] {
    return [...new Set(this.packs.flatMap((p) => p.brands))].sort();
  }
}

export const packs = new Packs();

export async function listBrands(): Promise<void> {
  const box = document.getElementById('brand-list')!;
  const res = await api('/v1/registry?limit=100');
  if (!res.ok) return;
  const body = (await res.json()) as {
    brands: { name: string; documents: unknown[]; error_codes: number }[];
  };
  show(
    box,
    el('legend', {}, 'Brands to keep'),
    ...body.brands.map((b) =>
      el(
        'label',
        { class: 'check' },
        el('input', { type: 'checkbox', name: 'brand', value: b.name }),
        ` ${b.name} (${b.documents.length} manuals)`,
      ),
    ),
  );
}

/** Downloads (or revalidates, with the ETag) the pack of one brand and stores it. */
async function fetchPack(brand: string, previous?: StoredPack): Promise<'stored' | 'unchanged'> {
  const res = await api(`/v1/offline-pack?${new URLSearchParams({ brands: brand })}`, {
    headers: previous?.etag ? { 'if-none-match': previous.etag } : {},
    cache: 'no-store',
  });
  const now = new Date().toISOString();
  if (res.status === 304 && previous) {
    await packStore.put({ ...previous, checked_at: now });
    return 'unchanged';
  }
  if (!res.ok) throw new Error(await problemText(res));
  const bytes = new Uint8Array(await res.arrayBuffer());
  // The pack describes itself: open it once to read its date and contents before keeping it.
  const { openPack } = await import('./pack-engine.js');
  const engine = await openPack(bytes, brand);
  const { info } = engine;
  engine.close();
  await packStore.put({
    key: `brands=${brand}`,
    brands: info.brands,
    bytes,
    etag: res.headers.get('etag'),
    built_at: info.built_at,
    bundle_version: info.bundle_version,
    documents: info.documents.length,
    checked_at: now,
  });
  return 'stored';
}

export async function keep(brands: string[]): Promise<void> {
  const status = document.getElementById('keep-status')!;
  if (brands.length === 0) return show(status, 'Pick at least one brand.');
  for (const brand of brands) {
    show(status, `Downloading the manuals of ${brand}…`);
    try {
      await fetchPack(brand);
    } catch (err) {
      return show(status, el('span', { class: 'error' }, `${brand}: ${(err as Error).message}`));
    }
  }
  await packs.reload();
  await renderKept();
  show(status, el('span', { 'data-kept': brands.join(',') }, `Kept offline: ${brands.join(', ')}.`));
}

/** Revalidates every kept pack against the server, replacing those the server has rebuilt. */
export async function updatePacks(): Promise<void> {
  const status = document.getElementById('keep-status')!;
  let changed = 0;
  for (const pack of packs.packs) {
    try {
      if ((await fetchPack(pack.brands[0] ?? '', pack)) === 'stored') changed++;
    } catch (err) {
      if (err instanceof NetworkDown) return;
      show(status, el('span', { class: 'error' }, (err as Error).message));
    }
  }
  await packs.reload();
  await renderKept();
  if (packs.packs.length)
    show(status, changed ? `${changed} pack(s) updated.` : 'The offline packs are up to date.');
}

export async function renderKept(): Promise<void> {
  const list = document.getElementById('kept')!;
  show(
    list,
    ...packs.packs.map((p) => {
      const remove = el('button', { type: 'button', class: 'secondary' }, 'Remove');
      remove.addEventListener('click', async () => {
        await packStore.remove(p.key);
        await packs.reload();
        await renderKept();
      });
      return el(
        'li',
        { class: 'pack', 'data-brands': p.brands.join(',') },
        el('strong', {}, p.brands.join(', ')),
        ` ${p.documents} manuals, ${(p.bytes.byteLength / 2 ** 20).toFixed(1)} MB, pack of ${packDate(p.built_at)}`,
        remove,
      );
    }),
  );
  const brands = document.getElementById('kept-brands')!;
  show(brands, ...packs.brands().map((b) => el('option', { value: b })));
}
