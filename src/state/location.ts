/**
 * Where a state lives, told from its spec alone: kept apart from the stores so that a command can check
 * a flag without loading the PostgreSQL driver.
 */
export function isPostgresUrl(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec);
}
