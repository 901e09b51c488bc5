import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageResourceUri } from '../../src/contract/common.js';
import { OPERATIONS, operation } from '../../src/contract/operations.js';
import { citedPages, resourceLink } from '../../src/mcp/content.js';
import { parsePageUri } from '../../src/mcp/resources.js';
import { toolInputSchema, toolOutputSchema } from '../../src/mcp/tool-schemas.js';

/** The validator the SDK client checks structured results with on Node. */
const validators = [new AjvJsonSchemaValidator()];

const citation = {
  document_id: 'doc-a',
  title: 'Service Manual',
  page: 7,
  page_end: 8,
  section: 'Error codes',
  snapshot_url: '/v1/pdf-snapshot/doc-a/7',
  resource_uri: pageResourceUri('doc-a', 7),
};

const problem = {
  type: 'urn:heatsource:problem:brand_not_found',
  title: 'The corpus has no manual of this brand',
  status: 404,
  detail: 'no brand "x"',
  instance: '/v1/error-codes/x/E9',
  code: 'brand_not_found',
};

describe('tool schemas from the zod contract', () => {
  it('are JSON Schema 2020-12 objects at the root, for every operation', () => {
    for (const op of OPERATIONS) {
      const input = toolInputSchema(op).schema;
      const output = toolOutputSchema(op);
      for (const schema of [input, output]) {
        expect(schema.type, op.name).toBe('object');
        expect(schema.$schema, op.name).toBe('https://json-schema.org/draft/2020-12/schema');
        expect(schema.$ref, op.name).toBeUndefined();
        expect(JSON.stringify(schema), op.name).not.toContain(String(Number.MAX_SAFE_INTEGER));
      }
    }
  });

  it('add request_id exactly where the operation takes an Idempotency-Key', () => {
    for (const op of OPERATIONS) {
      const { schema, takesRequestId } = toolInputSchema(op);
      const props = Object.keys((schema.properties as object | undefined) ?? {});
      expect(takesRequestId, op.name).toBe(op.idempotency !== 'none');
      expect(props.includes('request_id'), op.name).toBe(op.idempotency !== 'none');
    }
    // Never required by the schema: the Idempotency-Key header is the other way to send it.
    expect(toolInputSchema(operation('diagnose_guided')).schema.required ?? []).not.toContain('request_id');
  });

  it('accept the REST body or a problem document, and nothing else', () => {
    const output = toolOutputSchema(operation('get_procedure'));
    const body = {
      chunk_id: 'doc-a.p7.1',
      document_id: 'doc-a',
      kind: 'procedure',
      section_path: ['6 Troubleshooting'],
      page_start: 7,
      page_end: 8,
      text: 'Check the strainer.',
      citation,
      error_codes: [{ error_code: 'E9', title: 'Water flow error' }],
    };
    for (const validator of validators) {
      const validate = validator.getValidator(output as never);
      expect(validate(body).valid).toBe(true);
      expect(validate(problem).valid).toBe(true);
      expect(validate({ ...body, page_start: 'seven' }).valid).toBe(false);
      const { citation: _c, ...withoutCitation } = body;
      expect(validate(withoutCitation).valid).toBe(false);
      expect(validate({ code: 'x' }).valid).toBe(false);
    }
  });

  it('write tuples so that draft-07 validators (the SDK default) read them as zod does', () => {
    for (const op of OPERATIONS) {
      expect(JSON.stringify(toolOutputSchema(op)), op.name).not.toContain('prefixItems');
      expect(JSON.stringify(toolInputSchema(op).schema), op.name).not.toContain('prefixItems');
    }
    const output = toolOutputSchema({
      ...operation('get_procedure'),
      output: z.object({
        range: z.tuple([z.number(), z.number()]),
        tagged: z.tuple([z.string()], z.number()),
      }),
    });
    for (const validator of validators) {
      const validate = validator.getValidator(output as never);
      expect(validate({ range: [35, 55], tagged: ['a', 1, 2] }).valid).toBe(true);
      expect(validate({ range: [35, 55, 60], tagged: ['a'] }).valid).toBe(false);
      expect(validate({ range: ['35', '55'], tagged: ['a'] }).valid).toBe(false);
      expect(validate({ range: [35, 55], tagged: [] }).valid).toBe(false);
    }
  });

  it('validate tool arguments as the REST request schema does', () => {
    const input = toolInputSchema(operation('diagnose')).schema;
    for (const validator of validators) {
      const validate = validator.getValidator(input as never);
      expect(
        validate({ brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9', request_id: 'k-1' }).valid,
      ).toBe(true);
      expect(validate({ brand: 'Demotherm' }).valid).toBe(false);
      expect(validate({ brand: 'Demotherm', error_code: 'E9', colour: 'red' }).valid).toBe(false);
    }
  });
});

describe('page resources and links', () => {
  it('read page URIs back, document ids escaped or not', () => {
    expect(parsePageUri(pageResourceUri('doc a/b', 12))).toEqual({ documentId: 'doc a/b', page: 12 });
    expect(parsePageUri('heatsource://documents/doc-a/pages/3')).toEqual({ documentId: 'doc-a', page: 3 });
    for (const uri of [
      'heatsource://documents/doc-a/pages/x',
      'heatsource://documents/doc-a/pages/3?x=1',
      'heatsource://documents//pages/3',
      'file:///etc/passwd',
      'heatsource://documents/%E0%A4%A/pages/1',
    ]) {
      expect(parsePageUri(uri), uri).toBeNull();
    }
  });

  it('link each cited page once, in the order the body cites them', () => {
    const other = { ...citation, page: 9, page_end: 9, resource_uri: pageResourceUri('doc-a', 9) };
    const body = { citation, procedure: other, alternatives: [{ citation }, { citation: other }], x: null };
    expect(citedPages(body).map((c) => c.resource_uri)).toEqual([citation.resource_uri, other.resource_uri]);
    expect(resourceLink(citation)).toEqual({
      type: 'resource_link',
      uri: 'heatsource://documents/doc-a/pages/7',
      name: 'doc-a/page-7',
      title: 'Service Manual, pages 7-8',
      description: 'Cited section: Error codes',
      mimeType: 'text/plain',
    });
  });
});
