/** Share of a title word's best score in a document that every chunk of the document is credited with. */
export const TITLE_SHARE = 0.5;

/**
 * Per candidate document, the score each word of the question is credited with on every chunk of the
 * document, for the words its title holds: a word of the title (a model name, "Modbus gateway") says
 * which manual answers, not which of its pages does, and a page need not repeat the manual's name to
 * answer. The credit is TITLE_SHARE of the best score the word got on a candidate chunk of the document,
 * so the pages of a manual compete on the question's other words (a cover page or a nomenclature page
 * that repeats the name no longer outranks the page that answers), while the manual as a whole keeps
 * what its name is worth against other manuals.
 *
 * `headed` adds, per document, the words that count as its title words although its title lacks them:
 * a model the question names that the manual prints in a heading (a manual with a part about that
 * model, rank.ts `headedModels`).
 */
export function titleCredit(
  rows: readonly { candidate: { documentId: string }; scores: readonly number[] }[],
  words: readonly { terms: readonly { term: string }[] }[],
  titleTerms: ((documentId: string) => ReadonlySet<string> | undefined) | undefined,
  headed?: ReadonlyMap<string, ReadonlySet<number>>,
): Map<string, (number | undefined)[]> {
  const credit = new Map<string, (number | undefined)[]>();
  if (!titleTerms) return credit;
  // One pass over the candidates already scored: the cost is the candidates' (bounded), not the corpus's.
  for (const { candidate, scores } of rows) {
    const id = candidate.documentId;
    let list = credit.get(id);
    if (!list) {
      const title = titleTerms(id);
      const extra = headed?.get(id);
      list = words.map(({ terms }, w) =>
        (title && terms.some((t) => title.has(t.term))) || extra?.has(w) ? 0 : undefined,
      );
      credit.set(id, list);
    }
    scores.forEach((s, w) => {
      const c = list[w];
      if (c !== undefined && TITLE_SHARE * s > c) list[w] = TITLE_SHARE * s;
    });
  }
  return credit;
}
