import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    // Two spec files at a time, each with its own Chromium, against the one shared server (support/global-setup.ts):
    // the browsers spend much of their time waiting on each other and the server, so two halve the suite's time on
    // the two-core CI machine. Every spec signs up its own accounts, so files never see each other's data.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
