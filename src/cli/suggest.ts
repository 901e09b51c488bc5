/** Edit distance (Damerau: a swap of two neighbours counts as one edit) between two strings. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export interface NamedWithAliases {
  name: string;
  aliases: readonly string[];
}

/**
 * The known names closest to what was typed: within a third of its length in edits (at least 1, at most
 * 3), or starting with it; by distance, at most `max`. Aliases count, but the canonical name is returned.
 */
export function closestNames(query: string, known: readonly NamedWithAliases[], max = 3): string[] {
  const q = fold(query);
  if (!q) return [];
  const limit = Math.min(3, Math.max(1, Math.floor(q.length / 3)));
  const scored: { name: string; score: number }[] = [];
  for (const k of known) {
    let best = Number.POSITIVE_INFINITY;
    for (const candidate of [k.name, ...k.aliases]) {
      const c = fold(candidate);
      if (!c) continue;
      if (c === q) best = 0;
      else if (q.length >= 3 && (c.startsWith(q) || q.startsWith(c))) best = Math.min(best, 0.5);
      else best = Math.min(best, editDistance(q, c));
    }
    if (best <= limit) scored.push({ name: k.name, score: best });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}
