import { z } from 'zod';
import { checkJsonSource } from '../json-check.js';
import { fold } from '../text/normalise.js';
import { LANGUAGES, type Language } from '../text/stopwords.js';
import { readQuestionTypesSource } from './question-types-source.js';

/**
 * Phrases by which a question asks for a quantity ("how many", "wie viele", "combien"), per language
 * (data/search/question-types.json). Data, not code: a maintainer adds a phrase or a language without
 * touching search.
 */
const phrases = z.array(z.string().trim().min(1)).min(1);

const QuestionTypesFile = z.strictObject({
  about: z.array(z.string()).optional(),
  quantity: z.strictObject(
    Object.fromEntries(LANGUAGES.map((l) => [l, phrases])) as Record<Language, typeof phrases>,
  ),
});

let quantity: RegExp | undefined;

/** One expression of every language's phrases, folded, each standing as whole words. */
function quantityPattern(): RegExp {
  if (quantity) return quantity;
  const phrasesOf = checkJsonSource(readQuestionTypesSource(), QuestionTypesFile).quantity;
  const all = LANGUAGES.flatMap((l) => phrasesOf[l]).map((p) =>
    fold(p)
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
  );
  quantity = new RegExp(`(?<![\\p{L}\\p{N}])(?:${all.join('|')})(?![\\p{L}\\p{N}])`, 'u');
  return quantity;
}

/** Whether a question asks for a quantity, in any of the five languages. */
export function asksForQuantity(question: string): boolean {
  return quantityPattern().test(fold(question));
}
