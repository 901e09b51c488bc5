/** Small DOM helpers: every text goes in as a text node, so nothing from a manual or a server is parsed as HTML. */
export type Child = Node | string;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const c of children) node.append(c);
  return node;
}

/** Replaces an element's content. */
export function show(target: HTMLElement, ...children: Child[]): void {
  target.replaceChildren(...children);
}

export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const node of Array.from(form.elements)) {
    const input = node as HTMLInputElement;
    if (!input.name || input.type === 'checkbox' || input.type === 'submit') continue;
    out[input.name] = input.value.trim();
  }
  return out;
}

/** A bundle date as a technician reads it: 25 Nov 2026. */
export function packDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}
