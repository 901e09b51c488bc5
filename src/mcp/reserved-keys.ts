/**
 * Where a JSON-RPC message holds a `__proto__` key (`params.arguments.__proto__`), or null. JSON.parse keeps
 * it as an own property, but the SDK copies params into fresh objects, where assigning `__proto__` sets
 * the prototype instead: the key would vanish before any schema could refuse it. The walk is bounded.
 */
export function reservedKeyPath(message: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value: message, path: '' }];
  let visited = 0;
  while (stack.length > 0 && visited++ < 10_000) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return `${path}__proto__`;
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: `${path}${key}.` });
  }
  return null;
}
