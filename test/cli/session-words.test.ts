import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EscalationTarget,
  SessionActionKind,
  SessionOutcome,
  SessionStatus,
} from '../../src/contract/sessions.js';
import { projectPath } from '../../src/project-path.js';
import { say, sayValue } from '../../src/text/session-words.js';

const file = JSON.parse(readFileSync(projectPath('data', 'cli', 'session-words.json'), 'utf8')) as Record<
  string,
  { en: string; fr: string } | string
>;
const entries = Object.entries(file).filter(
  (e): e is [string, { en: string; fr: string }] => typeof e[1] !== 'string',
);
const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the words around a guided session', () => {
  it.each(entries)('"%s" has the same placeholders in English and French', (_key, entry) => {
    expect(names(entry.fr)).toEqual(names(entry.en));
  });

  it('fills placeholders by name and refuses a key the file does not have', () => {
    expect(say('fr', 'step_heading', { n: 2, budget: 12, kind: 'mesure', minutes: ' · ~2 min' })).toBe(
      'Étape 2 sur 12 au plus · mesure · ~2 min',
    );
    expect(() => say('en', 'no_such_entry')).toThrow(/no_such_entry/);
  });

  it('has French words for every status, step kind, outcome reason and escalation target of the contract', () => {
    const wanted = [
      ...SessionStatus.options.map((v) => `status_${v}`),
      ...SessionActionKind.options.map((v) => `kind_${v}`),
      ...SessionOutcome.shape.reason.options.map((v) => `reason_${v}`),
      ...EscalationTarget.options.map((v) => `to_${v}`),
    ];
    expect(wanted.filter((key) => !(key in file))).toEqual([]);
  });

  it('says an enum value it has no entry for in plain words', () => {
    expect(sayValue('fr', 'reason', 'budget_spent')).toBe('étapes épuisées');
    expect(sayValue('fr', 'reason', 'a_new_reason')).toBe('a new reason');
  });
});
