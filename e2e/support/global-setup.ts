/**
 * Builds the web app and starts the real server for the whole suite (support/server.ts: a free loopback port, a
 * fresh data directory); every spec reaches it through `inject('baseUrl')`.
 * E2E_SKIP_BUILD=1 reuses an existing `packages/web/dist` (handy while iterating on specs).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD) {
    // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle; test what ships.
    const production = { ...process.env, NODE_ENV: 'production' };
    execFileSync('npm', ['run', 'build', '-w', '@billfold/web'], { cwd: ROOT, stdio: 'inherit', env: production });
  }
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  return () => server.stop();
}
