import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, analyzeQuery, analyzeText, conceptTerm, lineTerms } from '../../src/search/analyzer.js';
import { loadCompoundParts, splitCompound } from '../../src/search/compounds.js';
import { conceptsOf } from '../../src/search/glossary.js';
import { concepts, loadGlossary } from '../../src/search/glossary-terms.js';
import { detectQueryLanguage } from '../../src/search/query-language.js';
import { stem } from '../../src/search/stemmers.js';
import { wordParts } from '../../src/search/tokens.js';
import { fold } from '../../src/text/normalise.js';
import { LANGUAGES, type Language } from '../../src/text/stopwords.js';

const s = (word: string, lang: Language) => stem(fold(word), lang);
const words = (text: string) => wordParts(fold(text)).map((p) => p.text);

describe('light stemmers', () => {
  it.each<[Language, string, string]>([
    ['en', 'pumps', 'pump'],
    ['en', 'valves', 'valve'],
    ['en', 'switches', 'switch'],
    ['en', 'batteries', 'battery'],
    ['en', 'heating', 'heat'],
    ['en', 'running', 'run'],
    ['en', 'wiring', 'wire'],
    ['en', 'operating', 'operate'],
    ['en', 'connected', 'connect'],
    ['fr', 'pompes', 'pompe'],
    ['fr', 'thermistances', 'thermistance'],
    ['fr', 'Vérifiez', 'vérifier'],
    ['fr', 'niveaux', 'niveau'],
    ['fr', 'circulation', 'circulateur'],
    ['de', 'Pumpen', 'Pumpe'],
    ['de', 'Störungen', 'Störung'],
    ['de', 'Fühlers', 'Fühler'],
    ['de', 'Wärmepumpen', 'Wärmepumpe'],
    ['es', 'bombas', 'bomba'],
    ['es', 'compresores', 'compresor'],
    ['es', 'termistores', 'termistor'],
    ['es', 'presiones', 'presión'],
    ['es', 'recargar', 'recarga'],
    ['es', 'calentamiento', 'calentar'],
    ['nl', 'pompen', 'pomp'],
    ['nl', 'storingen', 'storing'],
    ['nl', 'drukken', 'druk'],
    ['nl', 'temperaturen', 'temperatuur'],
    ['nl', 'buizen', 'buis'],
    ['nl', 'foutcodes', 'foutcode'],
  ])('%s: "%s" and "%s" share a stem', (lang, a, b) => {
    expect(s(a, lang)).toBe(s(b, lang));
  });

  it.each<[Language, string, string]>([
    ['en', 'pump', 'pressure'],
    ['fr', 'pompe', 'pression'],
    ['de', 'Druck', 'Drucker'.slice(0, 4)],
    ['nl', 'hoog', 'laag'],
  ])('%s: keeps "%s" and "%s" apart', (lang, a, b) => {
    expect(s(a, lang)).not.toBe(s(b, lang));
  });

  it('never stems a word holding a digit', () => {
    for (const lang of LANGUAGES) {
      expect(stem('e06s', lang)).toBe('e06s');
      expect(stem('rs485', lang)).toBe('rs485');
    }
  });
});

describe('German and Dutch compounds', () => {
  it('finds the head and the modifier of a known compound', () => {
    const split = splitCompound(s('Wärmepumpe', 'de'), 'de');
    expect(split?.head).toBe(s('Pumpe', 'de'));
    expect(split?.parts).toContain(s('warm', 'de'));
  });

  it('splits three-part compounds and strips linking letters', () => {
    expect(splitCompound(s('Stillstandszeit', 'de'), 'de')?.parts).toEqual(
      expect.arrayContaining([s('Zeit', 'de'), 'stillstand']),
    );
    const nl = splitCompound(s('lagedrukstoringen', 'nl'), 'nl')?.parts ?? [];
    expect(nl).toEqual(expect.arrayContaining([s('storing', 'nl'), s('druk', 'nl')]));
  });

  it('reads its common parts from data/search/compound-parts.json and refuses a malformed file', () => {
    const parts = loadCompoundParts();
    expect(parts.de).toEqual(expect.arrayContaining(['stillstand', 'zeit', 'pumpe']));
    expect(parts.nl).toEqual(expect.arrayContaining(['storing', 'druk']));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-compounds-'));
    try {
      const file = path.join(dir, 'compound-parts.json');
      const write = (de: string[], nl: string[]) =>
        fs.writeFileSync(file, JSON.stringify({ parts: { de, nl } }));
      write(['zeit', 'Zeit'], ['tijd']);
      expect(() => loadCompoundParts(file)).toThrow(/parts\.de\.1: "Zeit" is listed twice/);
      write(['zeit'], ['warm water']);
      expect(() => loadCompoundParts(file)).toThrow(/parts\.nl\.0/);
      write(['zeit'], ['uu']);
      expect(() => loadCompoundParts(file)).toThrow(/parts\.nl\.0: a part is one word of three letters/);
      fs.writeFileSync(file, JSON.stringify({ parts: { de: ['zeit'] } }));
      expect(() => loadCompoundParts(file)).toThrow(/compound-parts\.json: .*parts\.nl/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('indexes a compound so that its part matches', () => {
    const text = analyzeText('Die Umwälzpumpe läuft nicht.', 'de');
    const query = analyzeQuery('Pumpe');
    expect(query.stems.some((t) => text.stems.includes(t))).toBe(true);
  });

  it('splits the words of a question by the compound rules of its own language only', () => {
    const hour = conceptTerm('hour');
    // Under Dutch rules English "pressure" reads "pres|uur" (an hour), German "Wärmepumpe" "warm|epump".
    const en = analyzeQuery('Above which measured pressure does the high pressure protection trip?');
    expect(en.language).toBe('en');
    expect(en.concepts).not.toContain(hour);
    expect(en.stems).not.toContain('nl:uur');
    const de = analyzeQuery('Wie lang ist die Stillstandszeit nach dem Abschalten der Wärmepumpe?');
    expect(de.language).toBe('de');
    expect(de.stems).not.toContain('nl:epump');
    // A Dutch question is still asked for its compound's parts, and so is one of no recognised language.
    const fault = conceptTerm('fault');
    const nl = analyzeQuery('Hoe vaak mag een lagedrukstoring optreden?');
    expect(nl.language).toBe('nl');
    expect(nl.words.some((w) => w.exact.length === 0 && w.concepts.includes(fault))).toBe(true);
    const bare = analyzeQuery('lagedrukstoring');
    expect(bare.language).toBeNull();
    expect(bare.words.some((w) => w.exact.length === 0 && w.concepts.includes(fault))).toBe(true);
  });

  it('leaves short and unknown words whole', () => {
    expect(splitCompound('pump', 'de')).toBeNull();
    expect(splitCompound('xyzqwvbnm', 'nl')).toBeNull();
  });
});

describe('glossary', () => {
  const shared = (a: string, la: Language, b: string, lb: Language) =>
    conceptsOf(a, la).filter((c) => conceptsOf(b, lb).includes(c));

  it.each<[string, Language, string, Language]>([
    ['thermistance', 'fr', 'thermistor', 'en'],
    ['Fühler', 'de', 'thermistor', 'en'],
    ['termistor', 'es', 'sensor', 'nl'],
    ['débit', 'fr', 'flow', 'en'],
    ['Durchfluss', 'de', 'caudal', 'es'],
    ['debiet', 'nl', 'flow rate', 'en'],
    ['circulateur', 'fr', 'pump', 'en'],
    ['bomba', 'es', 'Pumpe', 'de'],
    ['Verdichter', 'de', 'compresseur', 'fr'],
    ['pompe à chaleur', 'fr', 'heat pump', 'en'],
    ['carte électronique', 'fr', 'PCB', 'en'],
    ['fluide frigorigène', 'fr', 'koudemiddel', 'nl'],
    ['dégivrage', 'fr', 'defrost', 'en'],
    ['détendeur', 'fr', 'expansion valve', 'en'],
    ['Wärmetauscher', 'de', 'heat exchanger', 'en'],
    ['pression d’eau', 'fr', 'water pressure', 'en'],
    ['fusible', 'fr', 'fuse', 'en'],
    ['ventilateur', 'fr', 'Lüfter', 'de'],
    ['filtre', 'fr', 'strainer', 'en'],
  ])('"%s" (%s) and "%s" (%s) name the same concept', (a, la, b, lb) => {
    expect(shared(a, la, b, lb)).not.toEqual([]);
  });

  // General heat-pump vocabulary (the glossary's last group): comfort functions, installation and the
  // electrical faults a technician names, across the five languages.
  it.each<[string, Language, string, Language]>([
    ['courbe de chauffe', 'fr', 'heating curve', 'en'],
    ['Heizkurve', 'de', 'weather compensation', 'en'],
    ['stooklijn', 'nl', 'curva climática', 'es'],
    ['Legionellenschutz', 'de', 'anti-legionella', 'en'],
    ['ballon tampon', 'fr', 'Pufferspeicher', 'de'],
    ['Raumtemperatur', 'de', 'room temperature', 'en'],
    ['mode silencieux', 'fr', 'night mode', 'en'],
    ['Notbetrieb', 'de', 'emergency operation', 'en'],
    ['Tastensperre', 'de', 'child lock', 'en'],
    ['contact sec', 'fr', 'volt-free contact', 'en'],
    ['cortocircuito', 'es', 'short circuit', 'en'],
    ['Phasenfolge', 'de', 'phase sequence', 'en'],
    ['couple de serrage', 'fr', 'tightening torque', 'en'],
    ['dénivelé', 'fr', 'height difference', 'en'],
    ['parité', 'fr', 'parity', 'en'],
  ])('"%s" (%s) and "%s" (%s) name the same concept (general vocabulary)', (a, la, b, lb) => {
    expect(shared(a, la, b, lb)).not.toEqual([]);
  });

  it('carries a German question on the heating curve to the English page', () => {
    const page = analyzeText('Weather compensation: set the slope of the heating curve.', 'en');
    const query = analyzeQuery('Wie stelle ich die Heizkurve ein?');
    expect(query.concepts.filter((c) => page.concepts.includes(c))).toContain(conceptTerm('heating-curve'));
  });

  it('does not let a phrase that lost its function word stand for its remaining word', () => {
    expect(conceptsOf('switch', 'en')).not.toContain('start');
    expect(conceptsOf('water', 'en')).not.toContain('return-water');
    expect(conceptsOf('refroidissement', 'fr')).not.toContain('subcooling');
    expect(conceptsOf('sous-refroidissement', 'fr')).toContain('subcooling');
    expect(conceptsOf('stand-by', 'en')).toContain('standby');
  });

  it('does not join unrelated terms', () => {
    expect(shared('fusible', 'fr', 'pump', 'en')).toEqual([]);
    expect(shared('débit', 'fr', 'pressure', 'en')).toEqual([]);
  });

  it('carries a French question to the English wording of the manual', () => {
    const page = analyzeText('Check the thermistor resistance and the water flow.', 'en');
    const query = analyzeQuery('Comment contrôler la thermistance et le débit ?');
    const common = query.concepts.filter((c) => page.concepts.includes(c));
    expect(common).toEqual(expect.arrayContaining([conceptTerm('temperature-sensor'), conceptTerm('flow')]));
  });

  it('has about a hundred concepts, each named in every language, with unique ids', () => {
    const list = concepts();
    expect(list.length).toBeGreaterThanOrEqual(100);
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length);
    for (const concept of list) {
      for (const lang of LANGUAGES) expect(concept[lang].length, `${concept.id} ${lang}`).toBeGreaterThan(0);
    }
  });

  it('refuses a glossary file with a concept missing a language or listed twice, naming the place', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-glossary-'));
    try {
      const file = path.join(dir, 'glossary.json');
      const entry = (id: string) => ({
        id,
        en: ['pump'],
        fr: ['pompe'],
        de: ['Pumpe'],
        es: ['bomba'],
        nl: ['pomp'],
      });
      const write = (concepts: unknown[]) =>
        fs.writeFileSync(file, JSON.stringify({ groups: [{ name: 'Water circuit', concepts }] }));
      write([entry('pump'), { id: 'fan', en: ['fan'] }]);
      expect(() => loadGlossary(file)).toThrow(/groups\.0\.concepts\.1\.fr/);
      write([entry('pump'), entry('pump')]);
      expect(() => loadGlossary(file)).toThrow(/groups\.0\.concepts\.1\.id: concept pump listed twice/);
      fs.writeFileSync(file, '{"groups": [');
      expect(() => loadGlossary(file)).toThrow(/glossary\.json: /);
      write([entry('pump')]);
      expect(loadGlossary(file).map((c) => c.id)).toEqual(['pump']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('analysis of text and questions', () => {
  it('finds the same terms of a line word by word (snippets) as the analysis of the whole line', () => {
    const lines = [
      "Pression d'eau insuffisante : vérifier le sous-refroidissement du circuit.",
      'Wasserdruck zu niedrig, Wärmepumpe schaltet ab (Störung E9).',
      'Error P 12 / THP 120: outdoor unit fan motor lack of phase; heat exchanger water-pressure 1.5 bar',
      'De waterdruk is te laag: controleer de circulatiepomp en het koudemiddel R-32.',
      'Presión de agua baja en el intercambiador de calor del MMW-UP0271LQ-E.',
      'the the and of',
      '',
      '12 34 5.6',
    ];
    for (const line of lines) {
      for (const language of [...LANGUAGES, 'mul']) {
        // Twice: the second time from the memo of each word's analysis.
        for (let round = 0; round < 2; round++) {
          const a = analyzeText(line, language);
          expect([...lineTerms(line, language)].sort()).toEqual(
            [...new Set([...a.exact, ...a.stems, ...a.concepts])].sort(),
          );
        }
      }
    }
  });

  it('folds case and accents', () => {
    expect(analyze('Débit ÉLEVÉ')).toEqual(analyze('debit eleve'));
    expect(analyzeQuery('Wärmepumpe').exact).toEqual(analyzeQuery('WARMEPUMPE').exact);
    expect(words('Température d’eau')).toEqual(['temperature', 'd', 'eau']);
  });

  it('keeps codes and model names as exact joined tokens', () => {
    expect(analyze('Error A5-00 on MMW-UP0271LQ-E, code P 12')).toEqual(
      expect.arrayContaining(['a500', 'mmwup0271lqe', 'p12']),
    );
    const q = analyzeQuery('E06 on MMW-UP0271LQ-E');
    const e06 = q.words.find((w) => w.exact.includes('e06'));
    expect(e06).toMatchObject({ code: true, stems: [], concepts: [] });
    const model = q.words.find((w) => w.exact.includes('mmwup0271lqe'));
    expect(model?.parts).toEqual(['mmw', 'up0271lq']);
    expect(q.codes).toEqual(expect.arrayContaining(['e06', 'mmwup0271lqe']));
  });

  it('joins a letter prefix and a number written apart into one query word', () => {
    const q = analyzeQuery('cable for the THP 120');
    expect(q.words.find((w) => w.exact[0] === 'thp120')?.parts).toEqual(['thp', '120']);
    expect(q.words.some((w) => w.exact[0] === 'thp')).toBe(false);
  });

  it('does not take a lower-case function word and a number for a code, but a capital prefix is one', () => {
    const q = analyzeQuery('What resistance at 25 °C? Temps de 5 min');
    expect(q.codes).not.toContain('at25');
    expect(q.codes).not.toContain('de5');
    expect(q.codes).toEqual(expect.arrayContaining(['25', '5']));
    expect(analyzeQuery('Was bedeutet Er 07?').codes).toContain('er07');
    expect(analyzeQuery('code p 12').codes).toContain('p12');
  });

  it('drops function words of every language from a question', () => {
    const q = analyzeQuery('What is the water pressure? Quelle est la pression ? Wie hoch ist der Druck?');
    for (const w of ['what', 'is', 'the', 'quelle', 'est', 'la', 'wie', 'ist', 'der'])
      expect(q.exact).not.toContain(w);
    expect(q.exact).toEqual(expect.arrayContaining(['water', 'pressure', 'pression', 'hoch', 'druck']));
  });

  it('tags stems with their language, so stems of two languages never collide', () => {
    const text = analyzeText('Les pompes', 'fr');
    expect(text.stems).toContain(`fr:${s('pompe', 'fr')}`);
    expect(text.stems.every((t) => t.startsWith('fr:'))).toBe(true);
  });

  it('makes multi-word glossary phrases words of their own', () => {
    const q = analyzeQuery('Where is the expansion valve?');
    expect(
      q.words.some((w) => w.concepts.length === 1 && w.concepts[0] === conceptTerm('expansion-valve')),
    ).toBe(true);
  });

  it('detects the language of a question from its function words and letters', () => {
    expect(
      detectQueryLanguage('Que signifie la LED qui clignote ?', words('Que signifie la LED qui clignote ?')),
    ).toBe('fr');
    const de = 'Wie lösche ich die Fehlerliste?';
    expect(detectQueryLanguage(de, words(de))).toBe('de');
    const es = '¿Cómo se mide la resistencia?';
    expect(detectQueryLanguage(es, words(es))).toBe('es');
    const nl = 'Hoe lees ik de frequentie uit op de bediening?';
    expect(detectQueryLanguage(nl, words(nl))).toBe('nl');
    expect(detectQueryLanguage('E06', ['e06'])).toBeNull();
  });
});
