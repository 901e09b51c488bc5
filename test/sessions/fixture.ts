import type { Citation } from '../../src/contract/common.js';
import { validateKnowledge } from '../../src/engine/sessions/knowledge.js';
import type { Knowledge } from '../../src/engine/sessions/knowledge-schema.js';

const kw = (word: string) => ({ en: [word], fr: [word], de: [word], es: [word], nl: [word] });
const labels = (text: string) => ({ en: text, fr: text });
type Effects = Record<string, Record<string, string>>;

/**
 * A tiny Air/Water knowledge base whose numbers are easy to follow by hand:
 * - causes leak (weight 2), clog (weight 1), swap (weight 1), residual prior 0.1;
 * - gauge: a number, nominal 1..2 with margin 0.1; leak shows `low` with strength 0.5 (moderate);
 * - look: a choice dirty/clean (baseline 0.2/0.8); clog shows `dirty` with strength 0.8 (strong);
 * - probe: a choice bad/good (baseline 0.1/0.9); swap shows `bad` with strength 0.9 (decisive):
 *   a cheap check that can rule `swap` out before its remedy, a part replacement;
 * - odd: a choice a/b/c no cause explains well, for pushing the residual up.
 */
export const RAW_FIXTURE = {
  settings: {
    version: 'fixture',
    strengths: { weak: 0.2, moderate: 0.5, strong: 0.8, decisive: 0.9 },
    shifts: { weak: 1.5, moderate: 3, strong: 8 },
    description: { unlisted: 0.5, named: 3, max_factor: 30, stated_reliability: 0.8, stated_window: 3 },
    residual: { prior: 0.1, uniform_mix: 0.5, escalate_at: 0.5 },
    conclusion: { threshold: 0.85, replacement_threshold: 0.9, settled_threshold: 0.7, min_answers: 1 },
    budget_turns: 6,
    cost: { overhead_minutes: 5, per_invasiveness_level: 10, per_risk_level: 15, escalation: 120 },
    selection: { min_gain_bits: 0.02, rule_out_ratio: 0.35 },
    repair: { fixed_if_other: 0.02, fixed_if_residual: 0.05 },
    manual: {
      matched_boost: 4,
      unmatched_weight: 1,
      step_yes_if_listed: 0.6,
      step_yes_otherwise: 0.15,
      replacement_words: {
        en: ['replace*'],
        fr: ['remplac*'],
        de: ['ersetz*'],
        es: ['sustitu*'],
        nl: ['vervang*'],
      },
    },
  },
  quantities: {
    quantities: [
      {
        id: 'gauge',
        type: 'number',
        label: labels('Gauge'),
        equipment: ['air_water'],
        unit: 'bar',
        nominal: [{ range: [1, 2] }],
        margin: 0.1,
        plausible: [0, 6],
      },
      {
        id: 'look',
        type: 'choice',
        label: labels('Look'),
        equipment: ['air_water'],
        choices: [
          { id: 'dirty', label: labels('Dirty'), baseline: 0.2 },
          { id: 'clean', label: labels('Clean'), baseline: 0.8 },
        ],
      },
      {
        id: 'probe',
        type: 'choice',
        label: labels('Probe'),
        equipment: ['air_water'],
        choices: [
          { id: 'bad', label: labels('Bad'), baseline: 0.1 },
          { id: 'good', label: labels('Good'), baseline: 0.9 },
        ],
      },
      {
        id: 'odd',
        type: 'choice',
        label: labels('Odd'),
        equipment: ['air_water'],
        choices: [
          { id: 'a', label: labels('A'), baseline: 0.9 },
          { id: 'b', label: labels('B'), baseline: 0.05 },
          { id: 'c', label: labels('C'), baseline: 0.05 },
        ],
      },
      {
        id: 'under_warranty',
        type: 'boolean',
        label: labels('Warranty'),
        equipment: ['air_water'],
        baseline_true: 0.3,
      },
    ],
  },
  actions: {
    actions: [
      {
        id: 'read_gauge',
        kind: 'measure',
        label: labels('Read the gauge'),
        prompt: labels('Read the gauge.'),
        equipment: ['air_water'],
        quantity: 'gauge',
        minutes: 2,
        invasiveness: 1,
        risk: 0,
        keywords: kw('gauge'),
      },
      {
        id: 'look_filter',
        kind: 'observe',
        label: labels('Look at the filter'),
        prompt: labels('Look at the filter.'),
        equipment: ['air_water'],
        quantity: 'look',
        minutes: 3,
        invasiveness: 1,
        risk: 0,
        keywords: kw('filter'),
      },
      {
        id: 'probe_part',
        kind: 'check',
        label: labels('Probe the part'),
        prompt: labels('Probe the part.'),
        equipment: ['air_water'],
        quantity: 'probe',
        minutes: 10,
        invasiveness: 2,
        risk: 0,
        keywords: kw('probe'),
      },
      {
        id: 'odd_check',
        kind: 'check',
        label: labels('Odd check'),
        prompt: labels('Odd check.'),
        equipment: ['air_water'],
        quantity: 'odd',
        minutes: 2,
        invasiveness: 1,
        risk: 0,
        keywords: kw('odd'),
      },
      {
        id: 'ask_warranty',
        kind: 'check',
        label: labels('Warranty'),
        prompt: labels('Under warranty?'),
        equipment: ['air_water'],
        quantity: 'under_warranty',
        minutes: 1,
        invasiveness: 1,
        risk: 0,
        keywords: kw('warranty'),
      },
      {
        id: 'fix_leak',
        kind: 'repair',
        label: labels('Fix the leak'),
        prompt: labels('Fix the leak.'),
        equipment: ['air_water'],
        fixes: { leak: 0.9 },
        minutes: 60,
        invasiveness: 3,
        risk: 1,
        keywords: kw('seal'),
      },
      {
        id: 'clean_filter',
        kind: 'repair',
        label: labels('Clean the filter'),
        prompt: labels('Clean the filter.'),
        equipment: ['air_water'],
        fixes: { clog: 0.9 },
        minutes: 40,
        invasiveness: 3,
        risk: 1,
        keywords: kw('clean'),
      },
      {
        id: 'replace_part',
        kind: 'repair',
        label: labels('Replace the part'),
        prompt: labels('Replace the part.'),
        equipment: ['air_water'],
        fixes: { swap: 0.9 },
        minutes: 90,
        invasiveness: 5,
        risk: 2,
        replacement: true,
        warranty_relevant: true,
        keywords: kw('replace'),
      },
      {
        id: 'call_maker',
        kind: 'escalate',
        label: labels('Call the maker'),
        prompt: labels('Call the maker.'),
        equipment: ['air_water'],
        escalation: 'manufacturer_service',
        minutes: 10,
        invasiveness: 1,
        risk: 0,
        keywords: kw('maker'),
      },
      {
        id: 'warranty_claim',
        kind: 'escalate',
        label: labels('Warranty claim'),
        prompt: labels('File a warranty claim.'),
        equipment: ['air_water'],
        escalation: 'warranty',
        minutes: 10,
        invasiveness: 1,
        risk: 0,
        keywords: kw('claim'),
      },
    ],
  },
  causes: {
    causes: [
      {
        id: 'leak',
        label: labels('Leak'),
        prior: { air_water: 2 },
        keywords: {
          en: ['water leak'],
          fr: ['fuite d eau'],
          de: ['wasserleck'],
          es: ['fuga de agua'],
          nl: ['waterlek'],
        },
        effects: { gauge: { low: 'moderate' } } as Effects,
        remedy: 'fix_leak',
      },
      {
        id: 'clog',
        label: labels('Clog'),
        prior: { air_water: 1 },
        keywords: {
          en: ['clogged filter'],
          fr: ['filtre colmate'],
          de: ['filter verstopft'],
          es: ['filtro sucio'],
          nl: ['vuil filter'],
        },
        effects: { look: { dirty: 'strong' } } as Effects,
        remedy: 'clean_filter',
      },
      {
        id: 'swap',
        label: labels('Worn part'),
        prior: { air_water: 1 },
        keywords: {
          en: ['worn part'],
          fr: ['piece usee'],
          de: ['verschleissteil'],
          es: ['pieza gastada'],
          nl: ['versleten onderdeel'],
        },
        effects: { probe: { bad: 'decisive' } } as Effects,
        remedy: 'replace_part',
      },
    ],
  },
  symptoms: {
    symptoms: [
      {
        id: 'grinding',
        label: labels('Grinding'),
        all: [{ en: ['grinding'], fr: ['grincement'], de: ['schleifen'], es: ['chirrido'], nl: ['schuren'] }],
        shifts: { swap: 'strong' },
      },
    ],
  },
};

export function fixtureKnowledge(): Knowledge {
  return validateKnowledge(structuredClone(RAW_FIXTURE));
}

export function citation(page: number): Citation {
  return {
    document_id: 'doc-1',
    title: 'Service manual',
    page,
    page_end: page,
    section: null,
    snapshot_url: `/v1/pdf-snapshot/doc-1/${page}`,
    resource_uri: `heatsource://documents/doc-1/pages/${page}`,
  };
}
