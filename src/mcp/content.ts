import type { ProtocolVersion } from './protocol.js';

/** MCP content blocks this server emits. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
    };

interface CitedPage {
  resource_uri: string;
  document_id?: unknown;
  title?: unknown;
  page?: unknown;
  page_end?: unknown;
  section?: unknown;
}

function isCitedPage(v: unknown): v is CitedPage {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as { resource_uri?: unknown }).resource_uri === 'string'
  );
}

/** Every object of a body that names a page resource (`resource_uri`), first occurrence of each URI, in order. */
export function citedPages(body: unknown): CitedPage[] {
  const seen = new Map<string, CitedPage>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    if (isCitedPage(node) && !seen.has(node.resource_uri)) seen.set(node.resource_uri, node);
    for (const value of Object.values(node)) walk(value);
  };
  walk(body);
  return [...seen.values()];
}

/** A link to the cited page, so that a client can read the page text and its snapshot as a resource. */
export function resourceLink(cited: CitedPage): ContentBlock {
  const documentId = typeof cited.document_id === 'string' ? cited.document_id : undefined;
  const page = typeof cited.page === 'number' ? cited.page : undefined;
  const pageEnd = typeof cited.page_end === 'number' ? cited.page_end : page;
  const pages =
    page === undefined ? '' : pageEnd && pageEnd > page ? `pages ${page}-${pageEnd}` : `page ${page}`;
  const link: ContentBlock = {
    type: 'resource_link',
    uri: cited.resource_uri,
    name: documentId && page !== undefined ? `${documentId}/page-${page}` : cited.resource_uri,
    mimeType: 'text/plain',
  };
  if (typeof cited.title === 'string') link.title = pages ? `${cited.title}, ${pages}` : cited.title;
  if (typeof cited.section === 'string' && cited.section)
    link.description = `Cited section: ${cited.section}`;
  return link;
}

/** resource_link content blocks arrived with protocol 2025-06-18; older clients would reject them. */
export function supportsResourceLinks(version: ProtocolVersion): boolean {
  return version !== '2025-03-26';
}

export function linksFor(body: unknown, version: ProtocolVersion): ContentBlock[] {
  return supportsResourceLinks(version) ? citedPages(body).map(resourceLink) : [];
}
