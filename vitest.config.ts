import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/test/**/*.test.ts'],
    // Native modules (better-sqlite3, sharp, canvas) and worker threads behave best in child processes.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Real-corpus suites print why they skip; keep that visible.
    reporters: ['default'],
  },
});
