import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/postgres-cluster.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default (cores - 1) is one worker on the two-core CI machine, which leaves a core idle while a file
    // waits on PostgreSQL or a child process; every file makes its own databases (test/helpers/app.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
