/**
 * Builds the server and the web app (`npm run build`) and starts the real server for the whole suite
 * (support/server.ts: a free loopback port, a fresh data directory); every spec reaches it through
 * `inject('baseUrl')`. E2E_SKIP_BUILD=1 reuses the existing `packages/web/dist` (handy while iterating on specs); the
 * server is rebuilt whenever its sources changed either way.
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
    // The build makes React's production bundle whatever NODE_ENV vitest set: the suite tests what ships.
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  return () => server.stop();
}
