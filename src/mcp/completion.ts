import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CorpusView } from '../engine/corpus.js';
import { TROUBLESHOOT_PROMPT } from './prompts.js';
import { PAGE_URI_TEMPLATE } from './resources.js';

/** The most values one completion answer lists (the protocol's own limit). */
const MAX_VALUES = 100;

export interface CompletionRequest {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

export type Completion = {
  values: string[];
  total: number;
  hasMore: boolean;
};

function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Values starting with what was typed first, then those containing it; case and accents ignored. */
function complete(candidates: Iterable<string>, typed: string): Completion {
  const want = fold(typed.trim());
  const starts: string[] = [];
  const contains: string[] = [];
  for (const value of new Set(candidates)) {
    const f = fold(value);
    if (f.startsWith(want)) starts.push(value);
    else if (want && f.includes(want)) contains.push(value);
  }
  const all = [...starts.sort(), ...contains.sort()];
  return { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES };
}

const NONE: Completion = { values: [], total: 0, hasMore: false };

/**
 * Completion of the arguments that name something in the bundle: brands and models of the troubleshooting
 * prompt (models of the brand already chosen, when it is one we know), and the document of the page template.
 */
export function completeArgument(view: CorpusView, request: CompletionRequest): Completion {
  const { ref, argument } = request;
  if (ref.type === 'ref/prompt' && ref.name === TROUBLESHOOT_PROMPT.name) {
    if (argument.name === 'brand') return complete(view.brands, argument.value);
    if (argument.name === 'model') {
      const chosen = request.context?.arguments?.brand;
      const brand = chosen === undefined ? undefined : view.brandOf(chosen);
      const brands = brand === undefined ? view.brands : [brand];
      return complete(
        brands.flatMap((b) => view.modelsOf(b).map((m) => m.name)),
        argument.value,
      );
    }
    if (argument.name === 'equipment') return complete(['air_water', 'air_air'], argument.value);
    return NONE;
  }
  if (ref.type === 'ref/resource' && ref.uri === PAGE_URI_TEMPLATE) {
    return argument.name === 'document_id' ? complete(view.documentIds(), argument.value) : NONE;
  }
  // A reference to something this server does not offer is invalid params (as the protocol's completion
  // page lists for an unknown prompt); an unknown argument of a known one merely has no values.
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    ref.type === 'ref/prompt' ? `unknown prompt: ${ref.name}` : `unknown resource template: ${ref.uri}`,
  );
}
