import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type DemoManualFile, demoSourcesHash, generateDemoCorpus } from '../../pipeline/demo/generate.js';
import { openPdf } from '../../pipeline/pdf/open.js';

interface Item {
  str: string;
  x: number;
  y: number;
}

interface Page {
  items: Item[];
  /** Items grouped into lines (same baseline, left to right). */
  lines: string[];
}

interface Expected {
  language: 'en' | 'fr';
  equipment: 'air_water' | 'air_air';
  docType: string;
  models: string[];
  range: string;
  headerTitle: string;
  footerText: string;
  folio: (page: number, total: number) => string;
  coverNotice: string;
  /** Number of the section holding the error-code table, listed on the contents page. */
  tableSection?: string;
  tableCaption: string;
  continuedCaption: string;
  headerCells: string[];
  firstCode: string;
  lastCode: string;
  procedures: string[];
  words?: string[];
}

const EXPECTED: Record<string, Expected> = {
  'demotherm-aquafield-monobloc-service-en': {
    language: 'en',
    equipment: 'air_water',
    docType: 'service_manual',
    models: ['DT-AW080-M', 'DT-AW120-M'],
    range: 'Aquafield',
    headerTitle: 'Aquafield Monobloc DT-AW080-M / DT-AW120-M — Service Manual',
    footerText: 'Edition 2024-03 · SM-AQF-01-EN',
    folio: (n, t) => `Page ${n} / ${t}`,
    coverNotice: 'Demonstration manual — fictional product',
    tableSection: '5.2',
    tableCaption: 'Table 5-2 Error codes',
    continuedCaption: 'Table 5-2 Error codes (continued)',
    headerCells: ['Code', 'Description', 'Possible cause', 'Remedy / check'],
    firstCode: 'E1',
    lastCode: 'H3',
    procedures: [
      'E2 — Water outlet thermistor fault',
      'E6 — Communication error between PCB1 and PCB2',
      'E8 — Water pressure too low',
      'E9 — Water flow error',
      'P1 — High pressure protection',
      'P4 — Discharge temperature too high',
      'H1 — DC fan motor fault',
    ],
  },
  'demotherm-hydrosplit-split-service-fr': {
    language: 'fr',
    equipment: 'air_water',
    docType: 'installer_manual',
    models: ['DT-HS060-S', 'DT-HS100-S'],
    range: 'Hydrosplit',
    headerTitle: 'Hydrosplit DT-HS060-S / DT-HS100-S — Manuel de service',
    footerText: 'Édition 2023-11 · MS-HYS-02-FR',
    folio: (n) => `- ${n} -`,
    coverNotice: 'Manuel de démonstration — produit fictif',
    tableSection: '5.2',
    tableCaption: "Tableau 5-1 Codes d'erreur",
    continuedCaption: "Tableau 5-1 Codes d'erreur (suite)",
    headerCells: ['Code', 'Description', 'Cause possible', 'Remède / contrôle'],
    firstCode: 'A1-00',
    lastCode: 'U5-00',
    procedures: [
      "Code A7-01 : Débit d'eau insuffisant",
      "Code A7-02 : Pression d'eau trop basse",
      'Code A9-00 : Défaut de la vanne 3 voies',
      "Code C1-01 : Défaut de la thermistance de départ d'eau",
      'Code U4-00 : Défaut de communication',
      "Code AA-01 : Surchauffe de la résistance d'appoint",
      'Code A3-00 : Défaut du circulateur',
    ],
    words: ['débit', 'thermistance', 'circulateur', 'vanne 3 voies', '9001'],
  },
  'demotherm-breezeline-split-ac-service-en': {
    language: 'en',
    equipment: 'air_air',
    docType: 'service_manual',
    models: ['DT-SA25-W', 'DT-SA35-W'],
    range: 'Breezeline',
    headerTitle: 'Breezeline DT-SA25-W / DT-SA35-W — Service Manual',
    footerText: 'SM-BRZ-03-EN · Edition 2022-09',
    folio: (n, t) => `Page ${n} of ${t}`,
    coverNotice: 'Demonstration manual — fictional product',
    tableSection: '5.2',
    tableCaption: 'Table 5-2 Diagnostic codes',
    continuedCaption: 'Table 5-2 Diagnostic codes (cont.)',
    headerCells: ['Code', 'Description', 'Possible cause', 'Remedy / check'],
    firstCode: 'H01',
    lastCode: 'P 17',
    procedures: [
      'H05 – Communication error between indoor and outdoor units',
      'H03 – Indoor fan motor speed feedback lost',
      'P 12 – Outdoor fan motor locked',
      'P 15 – Refrigerant shortage detected',
      'P 04 – Discharge temperature too high',
      'P 11 – Indoor coil anti-freeze protection',
      'H02 – Indoor coil thermistor RT2 open or short',
    ],
  },
  'demotherm-alizea-climatiseur-utilisateur-fr': {
    language: 'fr',
    equipment: 'air_air',
    docType: 'user_manual',
    models: ['DT-MU25-F', 'DT-MU35-F'],
    range: 'Alizéa',
    headerTitle: "Alizéa DT-MU25-F / DT-MU35-F — Notice d'utilisation",
    footerText: 'NU-ALZ-04-FR — 06/2024',
    folio: (n, t) => `Page ${n} / ${t}`,
    coverNotice: 'Manuel de démonstration — produit fictif',
    tableCaption: 'Tableau 2 Codes affichés et actions',
    continuedCaption: 'Tableau 2 Codes affichés et actions (suite)',
    headerCells: ['Code', 'Signification', 'Cause possible', 'Que faire ?'],
    firstCode: 'dF',
    lastCode: 'Er 12',
    procedures: [
      'Code Er 04 : Défaut de communication entre les unités',
      'Code Er 05 : Bac à condensats plein',
      "Code Er 06 : Protection antigel de l'unité intérieure",
      "Code Er 07 : Surchauffe de l'unité extérieure",
      "Code Er 08 : Tension d'alimentation anormale",
      'Code Er 09 : Défaut du ventilateur extérieur',
    ],
  },
};

/** Left edge of the body and of the second column (see pipeline/demo/page-geometry.ts). */
const LEFT = 52;
const SECOND_COLUMN = 52 + (595.28 - 104 - 20) / 2 + 20;

async function readPages(file: string): Promise<Page[]> {
  const doc = await openPdf(new Uint8Array(await readFile(file)));
  const pages: Page[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const items: Item[] = [];
    for (const it of content.items) {
      if (!('str' in it) || it.str.trim() === '') continue;
      items.push({ str: it.str, x: it.transform[4] as number, y: it.transform[5] as number });
    }
    const byLine = new Map<number, Item[]>();
    for (const item of items) {
      const key = Math.round(item.y);
      byLine.set(key, [...(byLine.get(key) ?? []), item]);
    }
    const lines = [...byLine.entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([, row]) =>
        row
          .sort((a, b) => a.x - b.x)
          .map((i) => i.str)
          .join(' ')
          .replace(/\s+/g, ' ')
          .replace(/ Ω/g, 'Ω')
          .trim(),
      );
    pages.push({ items, lines });
    page.cleanup();
  }
  await doc.destroy();
  return pages;
}

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
const slugOf = (file: string) => path.basename(file).replace(/\.(pdf|yaml)$/, '');
/** 1-based numbers of the pages holding a table row whose first cell is exactly `code`. */
const rowPages = (pages: Page[], code: string) =>
  pages.flatMap((p, i) =>
    p.items.some((it) => it.str.trim() === code && Math.abs(it.x - (LEFT + 4)) < 1) ? [i + 1] : [],
  );

describe('generateDemoCorpus', () => {
  let dirA: string;
  let dirB: string;
  let filesA: DemoManualFile[];
  let filesB: DemoManualFile[];
  const pagesBySlug = new Map<string, Page[]>();

  beforeAll(async () => {
    dirA = await mkdtemp(path.join(tmpdir(), 'demo-a-'));
    dirB = await mkdtemp(path.join(tmpdir(), 'demo-b-'));
    filesA = await generateDemoCorpus(dirA);
    filesB = await generateDemoCorpus(dirB);
    for (const f of filesA) pagesBySlug.set(slugOf(f.pdf), await readPages(f.pdf));
  }, 60_000);

  afterAll(async () => {
    await rm(dirA, { recursive: true, force: true });
    await rm(dirB, { recursive: true, force: true });
  });

  const pages = (slug: string) => {
    const p = pagesBySlug.get(slug);
    if (!p) throw new Error(`no PDF for ${slug}`);
    return p;
  };

  it('writes one PDF and one YAML sidecar per demo manual into the output folder', () => {
    expect(filesA.map((f) => slugOf(f.pdf)).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const f of filesA) {
      expect(path.dirname(f.pdf)).toBe(dirA);
      expect(f.sidecar).toBe(f.pdf.replace(/\.pdf$/, '.yaml'));
    }
  });

  it('writes sidecars in the corpus input format', async () => {
    for (const f of filesA) {
      const expected = EXPECTED[slugOf(f.pdf)]!;
      const sidecar = parse(await readFile(f.sidecar, 'utf8'));
      expect(Object.keys(sidecar)).toEqual([
        'title',
        'brand',
        'doc_type',
        'language',
        'equipment',
        'approved',
        'edition',
        'models',
      ]);
      expect(sidecar.brand).toBe('Demotherm');
      expect(typeof sidecar.title).toBe('string');
      expect(sidecar.doc_type).toBe(expected.docType);
      expect(sidecar.language).toBe(expected.language);
      expect(sidecar.equipment).toBe(expected.equipment);
      expect(sidecar.approved).toBe(true);
      expect(sidecar.edition).toMatch(/^\d{4}-\d{2}$/);
      expect(sidecar.models.map((m: { name: string }) => m.name)).toEqual(expected.models);
      for (const model of sidecar.models) {
        expect(model.range).toBe(expected.range);
        for (const alias of model.aliases ?? []) expect(typeof alias).toBe('string');
      }
    }
    const first = parse(
      await readFile(path.join(dirA, 'demotherm-aquafield-monobloc-service-en.yaml'), 'utf8'),
    );
    expect(first.models).toEqual([
      { name: 'DT-AW080-M', range: 'Aquafield', aliases: ['DTAW080M'] },
      { name: 'DT-AW120-M', range: 'Aquafield', aliases: ['DTAW120M'] },
    ]);
  });

  it('produces byte-identical files on every run', async () => {
    expect(filesB.map((f) => path.basename(f.pdf))).toEqual(filesA.map((f) => path.basename(f.pdf)));
    for (const [i, a] of filesA.entries()) {
      const b = filesB[i]!;
      expect(await sha256(b.pdf)).toBe(await sha256(a.pdf));
      expect(await sha256(b.sidecar)).toBe(await sha256(a.sidecar));
    }
  });

  it('hashes the sources to a stable sha256', () => {
    const hash = demoSourcesHash();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(demoSourcesHash()).toBe(hash);
  });

  describe.each(Object.entries(EXPECTED))('%s', (slug, expected) => {
    it('has 8 to 14 pages and a cover with title, brand, models, edition and the fiction notice', () => {
      const p = pages(slug);
      expect(p.length).toBeGreaterThanOrEqual(8);
      expect(p.length).toBeLessThanOrEqual(14);
      const cover = p[0]!.lines.join('\n');
      expect(cover).toContain('DEMOTHERM');
      expect(cover).toContain(expected.coverNotice);
      for (const model of expected.models) expect(cover).toContain(model);
      expect(cover).toMatch(/dition (\d{4}-\d{2}|\d{2}\/\d{4})/);
      expect(cover).not.toContain(expected.folio(1, p.length));
    });

    it('repeats the running header and footer with the folio on every page but the cover', () => {
      const p = pages(slug);
      p.slice(1).forEach((page, i) => {
        const lines = page.lines;
        expect(lines[0]).toContain(expected.headerTitle);
        expect(lines[0]).toContain('Demotherm');
        const footer = lines[lines.length - 1]!;
        expect(footer).toContain(expected.footerText);
        expect(footer).toContain(expected.folio(i + 2, p.length));
      });
    });

    it('prints the error-code table across two pages with its header row repeated', () => {
      const p = pages(slug);
      const [first] = rowPages(p, expected.firstCode);
      const [last] = rowPages(p, expected.lastCode);
      expect(first).toBeDefined();
      expect(last).toBe(first! + 1);
      const startPage = p[first! - 1]!;
      const nextPage = p[last! - 1]!;
      expect(startPage.lines).toContain(expected.tableCaption);
      expect(nextPage.lines).toContain(expected.continuedCaption);
      for (const page of [startPage, nextPage]) {
        const headerLine = page.lines.find((l) => l.startsWith('Code '));
        expect(headerLine).toBe(expected.headerCells.join(' '));
      }
      // Some cells wrap: more distinct baselines in the description column than rows on the page.
      const codeXs = startPage.items.filter((it) => Math.abs(it.x - (LEFT + 4)) < 1 && /\d/.test(it.str));
      const descriptionX = startPage.items.find((it) => it.str === expected.headerCells[1])!.x;
      const descriptionLines = startPage.items.filter((it) => Math.abs(it.x - descriptionX) < 1);
      expect(descriptionLines.length).toBeGreaterThan(codeXs.length);
    });

    it('has a troubleshooting procedure with numbered steps for at least six codes, after the table', () => {
      const p = pages(slug);
      const [last] = rowPages(p, expected.lastCode);
      expect(expected.procedures.length).toBeGreaterThanOrEqual(6);
      for (const heading of expected.procedures) {
        const at = p.findIndex((page) => page.lines.some((l) => l.endsWith(heading)));
        expect(at, heading).toBeGreaterThanOrEqual(last! - 1);
        const after = p
          .slice(at)
          .flatMap((page) => page.lines)
          .slice(0, 80);
        expect(after.some((l) => /^1\. \S/.test(l))).toBe(true);
      }
    });

    it('sets body text in two columns on at least one page', () => {
      const twoColumnPages = pages(slug).filter((page) => {
        const body = page.items.filter((it) => it.y > 60 && it.y < 775);
        const left = body.filter((it) => Math.abs(it.x - LEFT) < 0.5).length;
        const right = body.filter((it) => Math.abs(it.x - SECOND_COLUMN) < 0.5).length;
        return left >= 5 && right >= 5;
      });
      expect(twoColumnPages.length).toBeGreaterThanOrEqual(1);
    });

    it('keeps accented and special characters extractable', () => {
      const text = pages(slug)
        .flatMap((page) => page.lines)
        .join('\n');
      for (const word of expected.words ?? []) expect(text).toContain(word);
      expect(text).toMatch(/°C/);
    });

    it('lists the sections on a contents page with their page numbers, when it has one', () => {
      const p = pages(slug);
      if (!expected.tableSection) {
        expect(p[1]!.lines.join('\n')).not.toMatch(/contents|sommaire/i);
        return;
      }
      expect(p[1]!.lines[1]).toMatch(/contents|sommaire/i);
      const entry = p[1]!.lines.find((l) => l.startsWith(`${expected.tableSection} `));
      const [first] = rowPages(p, expected.firstCode);
      expect(entry).toMatch(new RegExp(`(\\. ){3,}.*${first}$`));
    });
  });

  it('prints resistances with the ohm sign', () => {
    const text = pages('demotherm-aquafield-monobloc-service-en')
      .flatMap((page) => page.lines)
      .join('\n');
    expect(text).toContain('10 kΩ at 25 °C');
  });
});
