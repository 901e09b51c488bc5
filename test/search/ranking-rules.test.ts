import { describe, expect, it } from 'vitest';
import { analyzeQuery, analyzeText } from '../../src/search/analyzer.js';
import { analyzeChunk } from '../../src/search/chunk-index.js';
import { type ChunkIndex, type RankOptions, rankPages } from '../../src/search/rank.js';
import { memoryIndex } from './memory-index.js';

/**
 * Ranking rules on generated manuals, through an in-memory index that holds every chunk as the bundle's
 * index would (the same analysis and stored term frequencies) and proposes all of them as candidates.
 */
interface Manual {
  id: string;
  title: string;
  /** A page's text, or its text and the section path it stands under. */
  pages: (string | { text: string; section: string })[];
}

function manualsIndex(manuals: Manual[]): { index: ChunkIndex; titleTerms: RankOptions['titleTerms'] } {
  const chunks = manuals.flatMap((m) =>
    m.pages.map((page, i) => ({
      id: `${m.id}.p${i + 1}`,
      documentId: m.id,
      page: i + 1,
      language: 'en',
      indexed:
        typeof page === 'string' ? analyzeChunk(page, '', 'en') : analyzeChunk(page.text, page.section, 'en'),
    })),
  );
  const index = memoryIndex(chunks);
  const titles = new Map(
    manuals.map((m) => {
      const a = analyzeText(m.title, 'en');
      return [m.id, new Set([...a.exact, ...a.stems, ...a.concepts, ...a.pairs])];
    }),
  );
  return { index, titleTerms: (id) => titles.get(id) };
}

const top = (ranked: { documentId: string; page: number }[]) =>
  `${ranked[0]?.documentId} p${ranked[0]?.page}`;

/** `n` pages of one line, numbered so that each is a chunk of its own. */
const filler = (n: number, text: string) => Array.from({ length: n }, (_, i) => `${text} ${i}`);

describe('ranking rules', () => {
  it('counts a code written in parts once: its parts are no pair of neighbouring words', () => {
    const query = analyzeQuery('How much R32 refrigerant is in the KX-010TB1?');
    const pairs = query.pairs.flat();
    expect(pairs).toContain('en:r32+refrigerant');
    expect(pairs.some((p) => p.endsWith(':kx+010tb1'))).toBe(false);
    // A cover naming the model (in parts) beside the refrigerant does not outrank the page that gives
    // the charge; with the code's parts taken for a pair, as before, it does.
    const { index } = manualsIndex([
      {
        id: 'kelvo',
        title: 'Kelvo Service',
        pages: [
          'R32 KX-010TB1 KX-014TB1 KX-018TB1',
          'Refrigerant charge per model: KX010TB1 R32 1.25 kg, KX014TB1 R32 1.8 kg.',
          'Wiring of the KX units: see the terminal block.',
        ],
      },
      { id: 'other', title: 'Other', pages: filler(8, 'Recover the gas before brazing; R32 is flammable.') },
    ]);
    expect(top(rankPages(index, query, {}))).toBe('kelvo p2');
    const before = { ...query, pairs: [...query.pairs, ['en:kx+010tb1']] };
    expect(top(rankPages(index, before, {}))).toBe('kelvo p1');
  });

  it('credits the words of a manual’s title to every page of it, so its pages compete on the other words', () => {
    const manuals: Manual[] = [
      {
        id: 'gw',
        title: 'Modbus Gateway MG-7',
        pages: [
          'Modbus Gateway MG-7',
          'Troubleshooting: LED2 flickers: abnormal operation; restart the device.',
          'Mounting the Modbus gateway MG-7 on a DIN rail.',
        ],
      },
      {
        id: 'boiler',
        title: 'Boiler Controller',
        pages: ['LED2 lights while the burner runs.', ...filler(6, 'Boiler menu: check the burner.')],
      },
    ];
    const { index, titleTerms } = manualsIndex(manuals);
    const query = analyzeQuery('LED2 on the Modbus gateway is flickering: what does it mean?');
    const ranked = rankPages(index, query, {}, { titleTerms });
    expect(top(ranked)).toBe('gw p2');
    // The manual keeps what its name is worth against another manual's page with the same LED.
    expect(ranked.findIndex((r) => r.documentId === 'boiler')).toBeGreaterThan(2);
    // Without the titles, the cover that repeats the name comes first.
    expect(top(rankPages(index, query, {}))).toBe('gw p1');
  });

  it('credits a model the question names to every page of a manual that has a section headed with it', () => {
    const manuals: Manual[] = [
      {
        id: 'controller',
        title: 'Technical Manual of ZX200',
        pages: [
          'Parameter menu: enter the password to change a value.',
          'Parameter menu: the user enters the factory password on the controller.',
          'Wiring of the display board.',
        ],
      },
      {
        id: 'pool',
        title: 'Pool Heat Pump Technical Manual',
        pages: [
          { text: 'Section 4 ZX200 controller', section: 'Section 4 ZX200 controller' },
          {
            text: 'User password 22. Factory password 66.',
            section: 'Controller operation / Parameter levels',
          },
          ...filler(6, 'Pool water flow and filter cleaning.'),
        ],
      },
    ];
    const { index, titleTerms } = manualsIndex(manuals);
    const query = analyzeQuery(
      'What are the user and factory passwords for parameter setting on the ZX200 controller?',
    );
    const model = query.words.findIndex((w) => w.exact[0] === 'zx200');
    expect(model).toBeGreaterThanOrEqual(0);
    const ranked = rankPages(index, query, {}, { titleTerms, modelWords: new Set([model]) });
    expect(top(ranked)).toBe('pool p2');
    // Without the rule, the manual named after the model answers with a page that only mentions the words.
    expect(top(rankPages(index, query, {}, { titleTerms }))).toBe('controller p2');
    // A model named only in running text gives no such credit.
    const mentioned = manualsIndex(
      manuals.map((m) =>
        m.id === 'pool' ? { ...m, pages: ['Section 4 ZX200 controller', ...m.pages.slice(1)] } : m,
      ),
    );
    const plain = rankPages(mentioned.index, query, {}, { ...mentioned, modelWords: new Set([model]) });
    expect(top(plain)).toBe('controller p2');
  });
});
