import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    // One server, one Chromium at a time: the CI machine has two cores.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
