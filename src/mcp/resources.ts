import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { DocumentRow } from '../bundle/schema.js';
import { pageResourceUri } from '../contract/common.js';
import { ServiceError } from '../engine/errors.js';
import type { Services } from '../engine/services.js';

export const PAGE_URI_TEMPLATE = 'heatsource://documents/{document_id}/pages/{page}';
const PAGE_URI = /^heatsource:\/\/documents\/([^/?#]+)\/pages\/([0-9]+)$/;

export interface PageResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: 'text/plain';
}

export type ResourceContents =
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; blob: string };

/** The document and page a page URI names, or null when the URI is not one of ours. */
export function parsePageUri(uri: string): { documentId: string; page: number } | null {
  const m = PAGE_URI.exec(uri);
  if (!m) return null;
  let documentId: string;
  try {
    documentId = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  const page = Number(m[2]);
  return Number.isSafeInteger(page) ? { documentId, page } : null;
}

function encodeCursor(offset: number): string {
  return Buffer.from(`pages:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number | null {
  const m = /^pages:([0-9]{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

/**
 * Every page of every manual as an MCP resource: its text, and its snapshot when the bundle holds one.
 * Citations name these URIs (`resource_uri`), so an agent can read what it was cited.
 */
export class PageResources {
  constructor(
    private readonly services: Services,
    private readonly pageSize: number,
  ) {}

  private documents(): DocumentRow[] {
    const view = this.services.view;
    return view
      .documentIds()
      .map((id) => view.document(id))
      .filter((d): d is DocumentRow => d !== undefined)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** One page of the listing, in document then page order; `nextCursor` is absent on the last one. */
  list(cursor: string | undefined): { resources: PageResource[]; nextCursor?: string } {
    const docs = this.documents();
    const total = docs.reduce((n, d) => n + d.page_count, 0);
    let offset = 0;
    if (cursor !== undefined) {
      const decoded = decodeCursor(cursor);
      if (decoded === null || decoded > total)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'invalid cursor');
      offset = decoded;
    }
    const resources: PageResource[] = [];
    let start = 0;
    for (const doc of docs) {
      const end = start + doc.page_count;
      for (let i = Math.max(offset, start); i < end && resources.length < this.pageSize; i++) {
        resources.push(describePage(doc, i - start + 1));
      }
      start = end;
      if (resources.length >= this.pageSize) break;
    }
    const next = offset + resources.length;
    return next < total ? { resources, nextCursor: encodeCursor(next) } : { resources };
  }

  templates() {
    return [
      {
        uriTemplate: PAGE_URI_TEMPLATE,
        name: 'manual-page',
        title: 'A page of a manual',
        description:
          'The text of one page of a manufacturer manual (text/plain) and, when the bundle holds it, the ' +
          'rendered page (image/webp). document_id and page are those of a citation.',
        mimeType: 'text/plain',
      },
    ];
  }

  /**
   * The page's text and snapshot. An unknown page is ResourceNotFoundError: -32602 with the URI in `data`
   * (SEP-2164); the endpoint turns it into -32002 for the 2025 revisions (`withLegacyErrorCodes`).
   */
  async read(uri: string): Promise<ResourceContents[]> {
    this.services.reader.assertIntact();
    const at = parsePageUri(uri);
    const doc = at ? this.services.view.document(at.documentId) : undefined;
    if (!at || !doc || at.page < 1 || at.page > doc.page_count) throw new ResourceNotFoundError(uri);
    const text = this.services.reader.page(doc.id, at.page)?.text ?? '';
    const contents: ResourceContents[] = [{ uri, mimeType: 'text/plain', text }];
    try {
      const image = await this.services.snapshots.get({
        document_id: doc.id,
        page: at.page,
        format: 'webp',
      });
      contents.push({ uri, mimeType: image.meta.content_type, blob: image.data.toString('base64') });
    } catch (err) {
      // A page without a snapshot is still readable as text.
      if (!(err instanceof ServiceError && err.code === 'snapshot_not_available')) throw err;
    }
    return contents;
  }
}

function describePage(doc: DocumentRow, page: number): PageResource {
  return {
    uri: pageResourceUri(doc.id, page),
    name: `${doc.id}/page-${page}`,
    title: `${doc.title}, page ${page}`,
    description: `${doc.brand} ${doc.doc_type.replace(/_/g, ' ')} (${doc.language}), page ${page} of ${doc.page_count}`,
    mimeType: 'text/plain',
  };
}
