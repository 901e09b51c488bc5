import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NextAction, Session, SessionSummary } from '../../src/contract/sessions.js';
import { buildFixtureBundle, type TestApi, testApi } from '../api/fixture.js';
import { type CliResult, freshUserEnv, runCliAsync } from '../helpers/cli.js';
import { ensureBuiltOnce } from '../sessions-api/built.js';
import { answerFor, FAULTY_FLOW_SWITCH, UNIT } from '../sessions-api/helpers.js';

let bundle: string;
let home: string;

type Run = CliResult;

/** Runs the built binary with a home of its own, no saved login and no source in the environment. */
function cli(args: string[], input?: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  return runCliAsync(args, { input, env: freshUserEnv(home, extraEnv) });
}

/** The flags that keep a test's offline sessions in a state file of its own. */
function offline(name: string): string[] {
  return ['--bundle', bundle, '--state', path.join(home, `${name}.sqlite`)];
}

function parsed<T>(r: Run): T {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

/** What a technician types for an answer, as the prompt reads it. */
function typed(action: NextAction, value: boolean | number | string): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return `${value} ${action.expected.unit ?? ''}`.trim();
  const index = action.expected.choices?.findIndex((c) => c.id === value) ?? -1;
  return index >= 0 ? String(index + 1) : value;
}

/** The lines that walk a session to its conclusion on a faulty flow switch, found through the API. */
async function linesToConclusion(api: TestApi, authorization: string): Promise<string[]> {
  const headers = { authorization, 'content-type': 'application/json' };
  let s = (
    await api.request({ method: 'POST', url: '/v2/diagnostic-sessions', headers, payload: UNIT })
  ).json() as Session;
  const lines: string[] = [];
  while (s.status === 'active') {
    const action = s.next_action!;
    const value = answerFor(action, FAULTY_FLOW_SWITCH);
    lines.push(typed(action, value));
    s = (
      await api.request({
        method: 'POST',
        url: `/v2/diagnostic-sessions/${s.id}/responses`,
        headers,
        payload: { action_id: action.id, value },
      })
    ).json() as Session;
  }
  expect(s.status).toBe('concluded');
  return lines;
}

let api: TestApi;
let base: string;
let secret: string;
let accountId: string;

beforeAll(async () => {
  await ensureBuiltOnce();
  bundle = await buildFixtureBundle();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-home-'));
  api = await testApi(bundle, { stateFile: path.join(home, 'server.sqlite') });
  const k = await api.key('field');
  secret = k.secret;
  accountId = k.accountId;
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
}, 300_000);
afterAll(() => api?.close());

const unitFlags = ['--brand', UNIT.brand, '--model', UNIT.model, '--code', UNIT.error_code];

describe('heatsource session, offline', () => {
  it('starts, answers, shows, undoes, closes and reports a session across separate processes', async () => {
    const state = path.join(home, 'offline.sqlite');
    const src = ['--bundle', bundle, '--state', state];
    const started = parsed<Session>(await cli(['session', 'start', ...unitFlags, ...src, '--json']));
    expect(started.status).toBe('active');
    expect(started.hypotheses.some((h) => h.source === 'manual' && h.citations.length > 0)).toBe(true);
    const id = started.id;

    const first = started.next_action!;
    const answered = parsed<Session>(
      await cli(['session', 'respond', id, typed(first, answerFor(first)), ...src, '--json']),
    );
    expect(answered.history).toHaveLength(1);
    expect(answered.history[0]).toMatchObject({ action_id: first.id, value: answerFor(first) });

    const shown = parsed<Session>(await cli(['session', 'show', id, ...src, '--json']));
    expect(shown).toEqual(answered);
    // Without an id, the session used last.
    expect(parsed<Session>(await cli(['session', 'show', ...src, '--json']))).toEqual(answered);

    const unknown = parsed<Session>(await cli(['session', 'respond', id, '--unknown', ...src, '--json']));
    expect(unknown.history[1]!.value).toEqual({ unknown: true });
    const undone = parsed<Session>(await cli(['session', 'undo', id, ...src, '--json']));
    expect(undone).toEqual(answered);
    parsed<Session>(await cli(['session', 'undo', id, ...src, '--json']));
    const nothing = await cli(['session', 'undo', id, ...src]);
    expect(nothing.status).toBe(6);
    expect(nothing.stderr.trim().split('\n')).toHaveLength(1);
    const again = parsed<Session>(
      await cli(['session', 'respond', id, typed(first, answerFor(first)), ...src, '--json']),
    );
    expect(again.history).toHaveLength(1);

    const wrong = await cli(['session', 'respond', id, 'not-a-value-of-this-kind', ...src]);
    if (answered.next_action!.expected.type !== 'text') {
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toMatch(/answer/);
    }

    const closed = parsed<Session>(await cli(['session', 'close', id, ...src, '--json']));
    expect(closed.status).toBe('closed');
    const refused = await cli(['session', 'respond', id, '--unknown', ...src, '--json']);
    // 6: refused by the session (not 4, which says the source is unreachable).
    expect(refused.status).toBe(6);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 409, code: 'session_closed' });

    const summary = parsed<SessionSummary>(await cli(['session', 'summary', id, ...src, '--json']));
    expect(summary.path.map((p) => p.action_id)).toEqual([first.id]);
    expect(summary.outcome).toMatchObject({ kind: 'closed' });
    expect(summary.citations.length).toBeGreaterThan(0);
    const text = await cli(['session', 'summary', id, ...src]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('Steps taken');
    // The answer as the step asked for it: a choice by its label, a number with its unit.
    expect(summary.path[0]!.expected).toEqual(first.expected);
    const given = answerFor(first);
    const label =
      first.expected.type === 'choice'
        ? first.expected.choices?.find((c) => c.id === given)?.label
        : first.expected.type === 'number' && first.expected.unit
          ? `${given} ${first.expected.unit}`
          : undefined;
    if (label) expect(text.stdout).toContain(`→ ${label}`);
    expect(text.stdout).toContain('Alpha Monobloc Service Manual, page');

    // --json is the REST body: the same state read through the API answers the same bytes.
    const local = await testApi(bundle, { stateFile: state });
    try {
      const { authorization } = await local.key('local');
      const rest = await local.request({
        method: 'GET',
        url: `/v2/diagnostic-sessions/${id}`,
        headers: { authorization },
      });
      const cliBody = await cli(['session', 'show', id, ...src, '--json']);
      expect(cliBody.stdout.trim()).toBe(rest.body);
    } finally {
      await local.close();
    }
  }, 120_000);

  it('keeps sessions in ~/.heatsource/state.sqlite by default, and prints for a person without --json', async () => {
    const r = await cli(['session', 'start', ...unitFlags, '--bundle', bundle]);
    expect(r.status, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(home, '.heatsource', 'state.sqlite'))).toBe(true);
    expect(r.stdout).toContain('Likely causes');
    expect(r.stdout).toMatch(/Step 1 of at most \d+/);
    expect(r.stdout).toMatch(/heatsource session respond ds_\S+ <answer>/);
    const told = await cli([
      'session',
      'start',
      ...unitFlags,
      '--symptom',
      'locks out every morning, delta T very low',
      '--bundle',
      bundle,
    ]);
    expect(told.status, told.stderr).toBe(0);
    expect(told.stdout).toContain('From the description');
    expect(told.stdout).toContain('Flow/return temperature difference: Low · "delta t very low"');
    const missing = await cli(['session', 'show', 'ds_none', '--bundle', bundle]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toContain('session_not_found');
  }, 60_000);
});

describe('heatsource session, in French', () => {
  it('prints the labels and prompts in French with --language fr, and keeps them for the next steps', async () => {
    const src = offline('french');
    const started = await cli(['session', 'start', ...unitFlags, '--language', 'fr', ...src]);
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout).toContain("Air dans le circuit d'eau");
    const first = parsed<Session>(await cli(['session', 'show', ...src, '--json']));
    expect(first.language).toBe('fr');
    const next = parsed<Session>(
      await cli([
        'session',
        'respond',
        first.id,
        typed(first.next_action!, answerFor(first.next_action!)),
        ...src,
        '--json',
      ]),
    );
    expect(next.language).toBe('fr');
    // The words around the steps are French too: headings, the answer expected, the hint, what was recorded.
    expect(started.stdout).toContain('Causes probables');
    expect(started.stdout).toMatch(/Étape 1 sur \d+ au plus/);
    expect(started.stdout).toContain('Répondez avec : heatsource session respond');
    expect(started.stdout).not.toContain('Likely causes');
    expect(started.stdout).not.toContain('Answer with');
    const answered = await cli(['session', 'respond', first.id, '?', ...src]);
    expect(answered.status, answered.stderr).toBe(0);
    expect(answered.stdout).toContain('Enregistré : impossible à vérifier');
    expect(answered.stdout).toContain('Étape 3 sur');
    const report = await cli(['session', 'summary', first.id, ...src]);
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toContain('Étapes réalisées');
    expect(report.stdout).not.toContain('Steps taken');
    // An English session keeps its English words.
    const english = await cli(['session', 'start', ...unitFlags, ...src]);
    expect(english.stdout).toContain('Likely causes');
    const wrong = await cli(['session', 'start', ...unitFlags, '--language', 'de', ...src]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--language');
  }, 60_000);
});

describe('heatsource session, a repair that hides its cause', () => {
  it('says the top-up cleared the fault for now and names the leak repair as the remedy', async () => {
    const src = offline('masked');
    const leak: Record<string, boolean | string> = {
      ask_pressure_history: 'drops_over_days',
      top_up_water_pressure: true,
      inspect_water_leaks: 'present',
    };
    let s = parsed<Session>(
      await cli(['session', 'start', ...unitFlags, '--reading', 'water_pressure=0.5', ...src, '--json']),
    );
    for (let turn = 0; s.status === 'active' && turn < 12; turn++) {
      const action = s.next_action!;
      const answer = action.id in leak ? typed(action, leak[action.id]!) : '?';
      s = parsed<Session>(await cli(['session', 'respond', s.id, answer, ...src, '--json']));
    }
    expect(s.outcome).toMatchObject({ kind: 'cause_found', reason: 'repair_resolved' });
    expect(s.outcome!.cause!.id).toBe('water_circuit_leak');
    expect(s.outcome!.action!.id).toBe('repair_water_leak');
    const summary = await cli(['session', 'summary', s.id, ...src]);
    expect(summary.status, summary.stderr).toBe(0);
    expect(summary.stdout).toContain('cleared the fault for now; the remedy below deals with its cause');
    expect(summary.stdout).not.toContain('The repair below cleared the fault.');
  }, 60_000);
});

describe('heatsource troubleshoot', () => {
  it('walks a session from piped answers to its conclusion, with hypotheses, citations and undo', async () => {
    const { authorization } = await api.key('planner');
    const lines = await linesToConclusion(api, authorization);
    const state = path.join(home, 'walk.sqlite');
    // "?" then "undo" first: recorded as cannot-check, then taken back; "maybe" is refused and asked again.
    const input = ['?', 'undo', 'maybe', ...lines, ''].join('\n');
    const r = await cli(['troubleshoot', ...unitFlags, '--bundle', bundle, '--state', state], input);
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toContain('Troubleshooting · Demotherm DT-A100-E · code E9');
    expect(out).toContain('Likely causes');
    expect(out).toMatch(/\d+% [↑↓ ] [█·]{10} Flow switch or flow sensor faulty/);
    expect(out).toContain('Alpha Monobloc Service Manual, pages 2–4');
    expect(out).toContain('Step 1 of at most');
    expect(out).toContain("Recorded: can't check");
    expect(out).toContain('Took back:');
    expect(out).toMatch(/answer with a number from 1 to \d+|answer yes or no|answer with a number/);
    expect(out).toContain('Cause found');
    expect(out).toMatch(/Flow switch or flow sensor faulty \(\d+%\)/);
    expect(out).toMatch(/is concluded\. Report:\n {2}heatsource session summary ds_/);
    // Every answer was echoed after its prompt, so the transcript reads as a dialogue.
    for (const line of lines) expect(out).toContain(`> ${line}`);
  }, 120_000);

  it('fits a 45-column terminal: commands cut with ` \\`, the id whole, a manual title once', async () => {
    const narrow = { COLUMNS: '45' };
    const state = path.join(home, 'narrow.sqlite');
    const src = ['--bundle', bundle, '--state', state];
    const r = await cli(['troubleshoot', ...unitFlags, ...src], ['?', '?', '?', '?', ''].join('\n'), narrow);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    // No line passes the width (one that is a single word longer than it would have nowhere to break).
    for (const line of lines) if (line.length > 45) expect(line.trim()).not.toContain(' ');
    const id = /Session (ds_\S+) is \w+\. Report:/.exec(r.stdout.replace(/\n/g, ' '))?.[1];
    expect(id).toBeDefined();
    // The closing command is whole once its continuations are joined, as a shell reads it, and its id
    // stands unbroken on one line.
    const report = r.stdout.slice(r.stdout.lastIndexOf('Report:') + 'Report:'.length).trim();
    expect(report.replace(/ \\\n\s*/g, ' ')).toBe(`heatsource session summary ${id}`);
    expect(lines.some((l) => l.trim() === id)).toBe(true);
    // Each view of the causes names the manual once, and its pages under each cause.
    const views = r.stdout.split('Likely causes').slice(1);
    expect(views.length).toBeGreaterThan(1);
    for (const view of views) {
      const causes = view.slice(0, view.search(/\n\n/));
      expect(causes.split('Alpha Monobloc Service Manual').length - 1).toBe(1);
      expect(causes).toMatch(/^ {18}pages? \d/m);
    }

    // Quitting prints the resume command cut the same way; pasted as printed, it is the command.
    const left = await cli(['troubleshoot', ...unitFlags, ...src], 'quit\n', narrow);
    const resume = left.stdout.slice(left.stdout.indexOf('Resume with:') + 'Resume with:'.length).trim();
    expect(resume.split('\n').length).toBeGreaterThan(1);
    // A flag stays with its value: only a flag and a path longer than the terminal pass its width.
    for (const line of resume.split('\n'))
      if (line.length > 45) expect(line.trim()).toMatch(/^--\w+ \S+( \\)?$/);
    const joined = resume.replace(/ \\\n\s*/g, ' ');
    expect(joined).toMatch(/^heatsource troubleshoot --session ds_\S+ --bundle /);
    expect(joined.endsWith(`--bundle ${bundle} --state ${state}`)).toBe(true);
  }, 120_000);

  it('asks for the unit when no flag names it, escalates when the budget is spent', async () => {
    const input = ['Demotherm', 'DT-A100-E', 'E9', 'water does not get warm', '?', '?'].join('\n');
    const r = await cli(
      ['troubleshoot', '--budget', '2', '--bundle', bundle, '--state', path.join(home, 'ask.sqlite')],
      input,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Brand: Demotherm');
    expect(r.stdout).toContain('Model (from the nameplate): DT-A100-E');
    expect(r.stdout).toContain('Step 2 of at most 2');
    expect(r.stdout).toMatch(/Escalate: manufacturer service/);
  }, 60_000);

  it('takes "?" at the code and description prompts as nothing to tell, as at every step', async () => {
    const state = path.join(home, 'nothing.sqlite');
    const input = ['Demotherm', 'DT-A100-E', '?', '?', 'quit'].join('\n');
    const started = await cli(['troubleshoot', '--bundle', bundle, '--state', state], input);
    expect(started.status, started.stderr).toBe(0);
    // No code and no description: the session says so in its header, and asks its first step.
    expect(started.stdout).toContain('Troubleshooting · Demotherm DT-A100-E · air/water');
    expect(started.stdout).not.toContain('code ?');
    expect(started.stdout).toContain('Step 1 of at most');
  }, 60_000);

  it('takes a complaint typed at the code prompt as what is wrong, and asks the code again', async () => {
    const state = path.join(home, 'complaint.sqlite');
    const complaint = 'water dripping from the safety valve when heating';
    const input = ['Demotherm', 'DT-A100-E', complaint, 'E9', 'quit'].join('\n');
    const started = await cli(['troubleshoot', '--bundle', bundle, '--state', state], input);
    expect(started.status, started.stderr).toBe(0);
    expect(started.stderr).not.toContain('validation_failed');
    expect(started.stdout).toContain(`Taken as what is wrong: "${complaint}".`);
    expect(started.stdout).toContain('Error code on the display, if any');
    const shown = parsed<Session>(
      await cli(['session', 'show', '--bundle', bundle, '--state', state, '--json']),
    );
    expect(shown.equipment).toMatchObject({ error_code: 'E9', symptom: complaint });
  }, 60_000);

  it('stops asking after three steps the technician cannot answer, and says why', async () => {
    const input = ['?', '?', '?', '?'].join('\n');
    const unit = ['-b', 'Demotherm', '-m', 'DT-A100-E', '-c', 'E9'];
    const state = path.join(home, 'unread.sqlite');
    const r = await cli(['troubleshoot', ...unit, '--bundle', bundle, '--state', state], input);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Step 3 of at most 12');
    expect(r.stdout).not.toContain('Step 4 of');
    expect(r.stdout).toMatch(/Escalate: manufacturer service/);
    expect(r.stdout).toContain('Why: readings unavailable');
    expect(r.stdout).toContain('hand the job on with what is known');
    // The repairs left say what comes before them: the part swaps a check, the top-up the gauge.
    expect(r.stdout).toMatch(/\d\. Replace the flow switch \(only once a check confirms the part\)/);
    expect(r.stdout).toMatch(
      /\d\. Top up the water pressure \(only after this reading: read the water pressure\)/,
    );
    expect(r.stdout).toMatch(/\d\. Open the isolation valves\n/);
  }, 60_000);

  it('leaves a session open on quit and resumes it in a later process', async () => {
    const state = path.join(home, 'resume.sqlite');
    const src = ['--bundle', bundle, '--state', state];
    const left = await cli(['troubleshoot', ...unitFlags, ...src], 'quit\n');
    expect(left.status).toBe(0);
    const id = /Session (ds_\S+) stays open/.exec(left.stdout)?.[1];
    expect(id).toBeDefined();
    expect(left.stdout).toContain(`heatsource troubleshoot --session ${id}`);
    const resumed = await cli(['troubleshoot', '--session', id!, ...src], '?\nquit\n');
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain("Recorded: can't check");
    const shown = parsed<Session>(await cli(['session', 'show', id!, ...src, '--json']));
    expect(shown.history).toHaveLength(1);
  }, 60_000);
});

describe('against a listening server', () => {
  it('runs the session commands over REST, charged once per session', async () => {
    const remote = ['--url', base, '--key', secret];
    const before = (await api.state.ledger({ account_id: accountId })).length;
    const s = parsed<Session>(await cli(['session', 'start', ...unitFlags, ...remote, '--json']));
    const rest = await api.request({
      method: 'GET',
      url: `/v2/diagnostic-sessions/${s.id}`,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(rest.json()).toEqual(s);
    const action = s.next_action!;
    const answered = parsed<Session>(
      await cli(['session', 'respond', s.id, typed(action, answerFor(action)), ...remote, '--json']),
    );
    expect(answered.history).toHaveLength(1);
    const undone = parsed<Session>(await cli(['session', 'undo', s.id, ...remote, '--json']));
    expect(undone).toEqual(s);
    expect(parsed<Session>(await cli(['session', 'show', s.id, ...remote, '--json']))).toEqual(s);
    const closed = parsed<Session>(await cli(['session', 'close', s.id, ...remote, '--json']));
    expect(closed.status).toBe('closed');
    const summary = parsed<SessionSummary>(await cli(['session', 'summary', s.id, ...remote, '--json']));
    expect(summary.status).toBe('closed');
    expect((await api.state.ledger({ account_id: accountId })).length).toBe(before + 1);
    const badKey = await cli(['session', 'show', s.id, '--url', base, '--key', `ak_test_${'x'.repeat(32)}`]);
    expect(badKey.status).toBe(5);
  }, 120_000);

  it('troubleshoots against the server from piped answers', async () => {
    const { authorization } = await api.key('planner');
    const lines = await linesToConclusion(api, authorization);
    const r = await cli(
      ['troubleshoot', ...unitFlags, '--url', base, '--key', secret],
      [...lines, ''].join('\n'),
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`(${base})`);
    expect(r.stdout).toContain('Cause found');
    const id = /Session (ds_\S+) is concluded/.exec(r.stdout)?.[1];
    const stored = await api.state.session(id!);
    expect(stored?.account_id).toBe(accountId);
    expect(stored?.status).toBe('concluded');
  }, 120_000);
});
