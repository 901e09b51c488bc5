import type { Session, SessionLanguage } from '../../contract/sessions.js';
import { say, sayValue } from '../../text/session-words.js';
import type { OfflineEngine } from '../offline-engine.js';
import type { OfflineAnswer } from '../offline-session.js';
import { el, formValues, show } from './dom.js';
import { type PendingSession, sessionStore } from './store.js';

/** What the guided view needs of the rest of the app (passed in, so that modules do not import each other). */
export interface GuidedDeps {
  api(path: string, init?: RequestInit): Promise<Response>;
  isNetworkDown(err: unknown): boolean;
  problemText(res: Response): Promise<string>;
  engineFor(brand: string): Promise<OfflineEngine | null>;
}

/**
 * Guided troubleshooting from the offline pack. Every session runs in the app (the session engine over
 * the pack) and is kept in IndexedDB as its request and answers; it is sent to the server as soon as the
 * network allows: created under its own Idempotency-Key (charged once however often the sending is
 * retried), then each answer and the close under keys derived from it, so a retry never applies twice.
 */
/** The session language to choose from, French first on a device set to French. */
function languageSelect(): HTMLSelectElement {
  const select = el(
    'select',
    { name: 'language' },
    el('option', { value: 'en' }, 'English'),
    el('option', { value: 'fr' }, 'Français'),
  );
  select.value = navigator.language.toLowerCase().startsWith('fr') ? 'fr' : 'en';
  return select;
}

export function startGuided(deps: GuidedDeps): { sync(): Promise<void> } {
  const root = document.getElementById('guided-body')!;
  let current: PendingSession | null = null;

  const form = el(
    'form',
    { id: 'guided-form', autocomplete: 'off' },
    el(
      'label',
      {},
      'Brand ',
      el('input', { name: 'brand', list: 'kept-brands', required: '', maxlength: '100' }),
    ),
    el('label', {}, 'Model ', el('input', { name: 'model', required: '', maxlength: '100' })),
    // The contract's longest code (ERROR_CODE_MAX): a longer one would only come back refused.
    el('label', {}, 'Error code ', el('input', { name: 'error_code', maxlength: '32' })),
    el('label', {}, 'What the customer reports ', el('input', { name: 'symptom', maxlength: '2000' })),
    el('label', {}, 'Steps in ', languageSelect()),
    el('button', { type: 'submit' }, 'Start guided troubleshooting'),
  );
  const view = el('div', { id: 'guided-session', 'aria-live': 'polite' });
  show(root, form, view);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = formValues(form);
    const request: Record<string, string> = { brand: v.brand ?? '', model: v.model ?? '' };
    if (v.error_code) request.error_code = v.error_code;
    if (v.symptom) request.symptom = v.symptom;
    if (v.language === 'fr') request.language = 'fr';
    const key = crypto.randomUUID();
    void change({
      key,
      local_id: `ds_${key.replace(/-/g, '')}`,
      request,
      responses: [],
      closed: false,
      created_at: new Date().toISOString(),
      server_id: null,
      synced_responses: 0,
      synced_close: false,
      sync_error: null,
    });
  });

  /** The session as the engine has it after its answers; null (with a message shown) when it cannot run. */
  async function replay(s: PendingSession): Promise<Session | null> {
    const engine = await deps.engineFor(String(s.request.brand ?? ''));
    if (!engine?.sessions) {
      show(view, el('p', { class: 'error' }, 'Keep this brand offline to troubleshoot it here.'));
      return null;
    }
    try {
      return engine.sessions.replay(
        s.request,
        s.responses as unknown as OfflineAnswer[],
        s.closed,
        s.local_id,
      );
    } catch (err) {
      show(view, el('p', { class: 'error' }, (err as Error).message));
      return null;
    }
  }

  async function change(next: PendingSession): Promise<void> {
    const session = await replay(next);
    if (!session) return;
    current = next;
    await sessionStore.put(next);
    render(session);
    await syncOne(next);
  }

  function answer(a: OfflineAnswer): void {
    if (!current) return;
    void change({ ...current, responses: [...current.responses, { ...a }] });
  }

  function render(session: Session): void {
    const s = current!;
    const lang = session.language ?? 'en';
    const parts: (Node | string)[] = [syncNote(s)];
    const a = session.next_action;
    if (a) {
      parts.push(el('p', { class: 'prompt' }, a.prompt));
      if (a.safety) parts.push(el('p', { class: 'warning' }, say(lang, 'warning', { text: a.safety })));
      for (const c of a.citations.slice(0, 2))
        parts.push(
          el('p', { class: 'citation' }, say(lang, 'citation_page', { title: c.title, page: c.page })),
        );
      const e = a.expected;
      const choices = el('div', { class: 'choices' });
      if (e.type === 'boolean') {
        for (const [label, value] of [
          [say(lang, 'yes_button'), true],
          [say(lang, 'no_button'), false],
        ] as const) {
          const b = el('button', { type: 'button' }, label);
          b.addEventListener('click', () => answer({ action_id: a.id, value }));
          choices.append(b);
        }
      } else if (e.type === 'number') {
        const range = e.nominal_range
          ? say(lang, 'range_nominal', { low: e.nominal_range[0], high: e.nominal_range[1], unit: '' })
          : '';
        const input = el('input', { type: 'number', step: 'any', name: 'reading', inputmode: 'decimal' });
        const record = el('button', { type: 'button' }, say(lang, 'record'));
        record.addEventListener('click', () => {
          if (input.value.trim() !== '') answer({ action_id: a.id, value: Number(input.value) });
        });
        const unit = e.unit ?? say(lang, 'unit_asked');
        choices.append(el('label', {}, say(lang, 'reading_in', { unit, range }), input), record);
      } else {
        for (const c of e.choices ?? []) {
          const b = el('button', { type: 'button' }, c.label);
          b.addEventListener('click', () => answer({ action_id: a.id, value: c.id }));
          choices.append(b);
        }
      }
      const unknown = el('button', { type: 'button', class: 'secondary' }, say(lang, 'cannot_check_button'));
      unknown.addEventListener('click', () => answer({ action_id: a.id, unknown: true }));
      choices.append(unknown);
      parts.push(choices);
    }
    const o = session.outcome;
    if (o) {
      const cause = o.cause
        ? `${o.cause.label} (${Math.round(o.cause.probability * 100)} %)`
        : say(lang, 'no_single_cause');
      parts.push(
        el('p', { class: 'outcome', 'data-kind': o.kind }, `${sayValue(lang, 'outcome', o.kind)}: ${cause}`),
        ...(o.action ? [el('p', {}, o.action.prompt)] : []),
        ...(o.action?.part
          ? [
              el(
                'p',
                { class: 'part' },
                say(lang, 'part', {
                  name: o.action.part.name,
                  ref: o.action.part.reference ? say(lang, 'part_ref', { ref: o.action.part.reference }) : '',
                  page: o.action.part.citation ? `, page ${o.action.part.citation.page}` : '',
                }),
              ),
            ]
          : []),
        ...(o.action?.safety
          ? [el('p', { class: 'safety' }, say(lang, 'safety', { text: o.action.safety }))]
          : []),
        ...(o.repair_plan.length > 0 ? [repairPlan(o.repair_plan, lang)] : []),
      );
    }
    if (session.status !== 'closed') {
      const closeButton = el('button', { type: 'button', class: 'secondary' }, say(lang, 'close_session'));
      closeButton.addEventListener('click', () => {
        if (current) void change({ ...current, closed: true });
      });
      parts.push(closeButton);
    }
    parts.push(
      el(
        'p',
        { class: 'turns' },
        say(lang, 'answers_given', {
          n: session.history.length,
          status: sayValue(lang, 'status', session.status),
        }),
      ),
    );
    view.dataset.status = session.status;
    view.dataset.answers = String(session.history.length);
    show(view, ...parts);
  }

  /**
   * The repairs a hand-on leaves, most worthwhile first, each with what must come before it: a part is
   * never swapped on a lead alone, and a top-up waits for the gauge.
   */
  function repairPlan(
    plan: NonNullable<Session['outcome']>['repair_plan'],
    lang: SessionLanguage,
  ): HTMLElement {
    const list = el('ol', { class: 'repair-plan' });
    for (const r of plan.slice(0, 5)) {
      list.append(el('li', { 'data-id': r.id }, r.condition ? `${r.label} (${r.condition})` : r.label));
    }
    return el('div', {}, el('p', {}, say(lang, 'repairs_left')), list);
  }

  function syncNote(s: PendingSession): HTMLElement {
    const done =
      s.server_id !== null && s.synced_responses === s.responses.length && (!s.closed || s.synced_close);
    const text = done
      ? `On the server as ${s.server_id}.`
      : s.sync_error
        ? `Not sent: ${s.sync_error}`
        : 'Kept on this device; sent to the server when the network returns.';
    return el(
      'p',
      {
        id: 'guided-sync',
        class: done ? 'source online' : 'source offline',
        'data-sync': done ? 'synced' : 'pending',
        'data-server-id': s.server_id ?? '',
        'data-key': s.key,
      },
      text,
    );
  }

  async function post(path: string, key: string, body: unknown): Promise<Response> {
    return deps.api(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
  }

  /** Sends what the server does not have yet of one session; stops quietly when the network is down. */
  async function syncOne(start: PendingSession): Promise<void> {
    const s = { ...start };
    const save = async (error: string | null) => {
      s.sync_error = error;
      await sessionStore.put(s);
      if (current?.key === s.key) {
        current = s;
        const session = await replay(s);
        if (session) render(session);
      }
    };
    try {
      if (!s.server_id) {
        const res = await post('/v2/diagnostic-sessions', s.key, s.request);
        if (!res.ok) return save(await deps.problemText(res));
        s.server_id = ((await res.json()) as Session).id;
      }
      while (s.synced_responses < s.responses.length) {
        const i = s.synced_responses;
        const path = `/v2/diagnostic-sessions/${encodeURIComponent(s.server_id)}/responses`;
        const res = await post(path, `${s.key}.r${i}`, s.responses[i]);
        if (!res.ok) return save(await deps.problemText(res));
        s.synced_responses++;
      }
      if (s.closed && !s.synced_close) {
        const path = `/v2/diagnostic-sessions/${encodeURIComponent(s.server_id)}/close`;
        const res = await post(path, `${s.key}.close`, {});
        if (!res.ok) return save(await deps.problemText(res));
        s.synced_close = true;
      }
      await save(null);
    } catch (err) {
      if (!deps.isNetworkDown(err)) throw err;
      if (s.server_id !== start.server_id || s.synced_responses !== start.synced_responses) await save(null);
    }
  }

  return {
    async sync() {
      for (const s of await sessionStore.all()) {
        const done =
          s.server_id !== null && s.synced_responses === s.responses.length && (!s.closed || s.synced_close);
        if (!done) await syncOne(current?.key === s.key ? current : s);
      }
    },
  };
}
