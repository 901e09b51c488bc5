import type { Citation } from '../../contract/common.js';
import type { DiagnosticResponse } from '../../contract/diagnostic.js';
import type { SearchResponse } from '../../contract/search.js';
import type { PageHighlight } from '../../engine/highlights.js';
import { type Html, html } from '../html.js';
import { type LayoutContext, layout, notice } from '../layout.js';
import type { SignedIn } from '../session.js';

export interface TryForm {
  brand: string;
  model: string;
  error_code: string;
  q: string;
}

export type TryResult =
  | { kind: 'diagnostic'; body: DiagnosticResponse; highlight: PageHighlight | null }
  | { kind: 'search'; body: SearchResponse; highlight: PageHighlight | null }
  | { kind: 'error'; message: string };

function pageLink(ctx: LayoutContext, h: { document_id: string; page: number }, text: string): string {
  const q = new URLSearchParams({ doc: h.document_id, page: String(h.page), text: text.slice(0, 1500) });
  return `${ctx.base}/page?${q}`;
}

/** The page snapshot with the cited boxes drawn over it, in the page's own coordinates. */
export function pageFigure(
  ctx: LayoutContext,
  h: PageHighlight,
  caption: Html,
  options: { full?: string; large?: boolean } = {},
): Html {
  return html`<figure class="page${options.large ? ' large' : ''}">
  <div class="page-frame">
    <img src="${ctx.base}/snapshot/${encodeURIComponent(h.document_id)}/${h.page}" alt="Page ${h.page} of ${h.document_id}${h.boxes.length ? ', cited lines highlighted' : ''}" width="${Math.round(h.width)}" height="${Math.round(h.height)}">
    <svg viewBox="0 0 ${h.width} ${h.height}" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      ${h.boxes.map((b) => html`<rect class="hl" data-highlight x="${b.x0 - 2}" y="${b.y0 - 2}" width="${b.x1 - b.x0 + 4}" height="${b.y1 - b.y0 + 4}" rx="2"/>`)}
    </svg>
  </div>
  <figcaption>${caption}${options.full ? html` · <a href="${options.full}" data-full-size>Open full size</a>` : ''}</figcaption>
</figure>`;
}

function cite(c: Citation): Html {
  return html`<cite>${c.title}</cite>, page ${c.page}${c.page_end > c.page ? html`–${c.page_end}` : ''}${c.section ? html` (${c.section})` : ''}`;
}

function diagnostic(ctx: LayoutContext, body: DiagnosticResponse, h: PageHighlight | null): Html {
  if (body.state !== 'answer') {
    const what: Record<string, string> = {
      ambiguous: 'Several manuals or meanings fit: say more.',
      unknown_code: 'No manual in the corpus documents this code for this equipment.',
      out_of_coverage: 'The corpus has no manual for this brand or model.',
    };
    return html`<section class="card result" aria-labelledby="result" data-state="${body.state}">
  <h2 id="result">${what[body.state] ?? body.state}</h2>
  ${body.follow_up_questions.map(
    (f) =>
      html`<p>${f.question}${f.options.length ? html` <span class="muted">(${f.options.slice(0, 12).join(', ')})</span>` : ''}</p>`,
  )}
  ${
    body.alternatives.length
      ? html`<h3>Other readings</h3><ul>${body.alternatives.map(
          (a) =>
            html`<li><strong>${a.error_code}</strong> ${a.title}: ${a.models.join(', ')}, ${cite(a.citation)}</li>`,
        )}</ul>`
      : ''
  }
</section>`;
  }
  return html`<section class="card result" aria-labelledby="result" data-state="answer">
  <h2 id="result"><span class="code">${body.error_code}</span> ${body.title}</h2>
  <p class="muted">${body.brand} ${body.model?.name ?? ''} · confidence ${body.confidence.band}</p>
  ${body.excerpt ? html`<blockquote class="excerpt" lang="">${body.excerpt.text}</blockquote>` : ''}
  ${body.causes.length ? html`<h3>Causes</h3><ul>${body.causes.map((c) => html`<li>${c}</li>`)}</ul>` : ''}
  ${
    body.steps.length
      ? html`<h3>Steps</h3><ol class="steps">${body.steps.map(
          (s) =>
            html`<li>${s.safety ? html`<strong class="safety">⚠ ${s.safety}</strong> ` : ''}${s.text}</li>`,
        )}</ol>`
      : ''
  }
  ${body.part ? html`<p><strong>Part:</strong> ${body.part.name}${body.part.reference ? html` (${body.part.reference})` : ''}</p>` : ''}
  ${body.citation ? html`<p class="source">Source: ${cite(body.citation)}</p>` : ''}
  ${body.procedure ? html`<p class="source">Procedure: ${cite(body.procedure)}</p>` : ''}
</section>
${
  h && body.citation && body.excerpt
    ? pageFigure(ctx, h, cite(body.citation), { full: pageLink(ctx, h, body.excerpt.text) })
    : ''
}`;
}

function search(ctx: LayoutContext, body: SearchResponse, h: PageHighlight | null): Html {
  if (body.results.length === 0)
    return html`<section class="card result" data-state="no_results"><h2 id="result">Nothing found</h2><p>No manual passage matches “${body.query}”.</p></section>`;
  const top = body.results[0]!;
  return html`<section class="card result" aria-labelledby="result" data-state="search">
  <h2 id="result">${body.results.length} passages for “${body.query}”</h2>
  <ol class="hits">${body.results.map(
    (r) =>
      html`<li><p class="snippet">${r.snippet}</p><p class="source">${cite(r.citation)} · <a href="${pageLink(ctx, { document_id: r.document_id, page: r.page }, r.snippet)}">View the page</a></p></li>`,
  )}</ol>
</section>
${h ? pageFigure(ctx, h, cite(top.citation), { full: pageLink(ctx, h, top.snippet) }) : ''}`;
}

export function tryPage(
  ctx: LayoutContext,
  v: { session: SignedIn; form: TryForm; brands: string[]; models: string[]; result?: TryResult },
): string {
  const f = v.form;
  const r = v.result;
  return layout(ctx, {
    title: 'Try it',
    section: 'try',
    session: v.session,
    body: html`<h1>Try it</h1>
<p class="muted">Answers come from the same service as the API. A look-up that finds an answer counts as one billable call, as through the API.</p>
<div class="try-forms">
<form method="post" action="${ctx.base}/try" class="card" aria-labelledby="by-code">
  <h2 id="by-code">Look up an error code</h2>
  <input type="hidden" name="csrf" value="${v.session.csrf}">
  <label for="brand">Brand</label>
  <input id="brand" name="brand" list="brands" required maxlength="100" value="${f.brand}" autocomplete="off">
  <datalist id="brands">${v.brands.map((b) => html`<option value="${b}">`)}</datalist>
  <label for="model">Model <span class="muted">(from the nameplate)</span></label>
  <input id="model" name="model" list="models" maxlength="100" value="${f.model}" autocomplete="off">
  <datalist id="models">${v.models.map((m) => html`<option value="${m}">`)}</datalist>
  <label for="error_code">Error code</label>
  <input id="error_code" name="error_code" required maxlength="32" value="${f.error_code}" autocomplete="off">
  <button type="submit">Look up</button>
</form>
<form method="post" action="${ctx.base}/try" class="card" aria-labelledby="by-text">
  <h2 id="by-text">Search the manuals</h2>
  <input type="hidden" name="csrf" value="${v.session.csrf}">
  <label for="q">Question or keywords</label>
  <input id="q" name="q" type="search" required maxlength="500" value="${f.q}">
  <button type="submit">Search</button>
</form>
</div>
${r?.kind === 'error' ? notice(r.message, 'error') : ''}
${r?.kind === 'diagnostic' ? diagnostic(ctx, r.body, r.highlight) : ''}
${r?.kind === 'search' ? search(ctx, r.body, r.highlight) : ''}`,
  });
}

export function pageViewPage(
  ctx: LayoutContext,
  v: { session: SignedIn; highlight: PageHighlight; title: string },
): string {
  const h = v.highlight;
  return layout(ctx, {
    title: `${v.title}, page ${h.page}`,
    section: 'try',
    session: v.session,
    wide: true,
    body: html`<h1>${v.title}, page ${h.page}</h1>
<p><a href="${ctx.base}/try">Back to Try it</a></p>
${pageFigure(ctx, h, html`${h.boxes.length} highlighted ${h.boxes.length === 1 ? 'area' : 'areas'}`, { large: true })}`,
  });
}
