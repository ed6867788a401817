/**
 * Builds the web app and starts the real server on a free loopback port with a fresh data directory (a new
 * SQLite file), exactly as `npm start` runs it; every spec reaches it through `inject('baseUrl')`.
 * E2E_SKIP_BUILD=1 reuses an existing `packages/web/dist` (handy while iterating on specs).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, logFile: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}:\n${readFileSync(logFile, 'utf8')}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy in ${timeoutMs} ms:\n${readFileSync(logFile, 'utf8')}`);
}

export default async function setup(project: TestProject) {
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle; test what ships.
  const production = { ...process.env, NODE_ENV: 'production' };
  if (!process.env.E2E_SKIP_BUILD) {
    execFileSync('npm', ['run', 'build', '-w', '@billfold/web'], { cwd: ROOT, stdio: 'inherit', env: production });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-e2e-'));
  const logFile = join(dataDir, 'server.log');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...production,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Sign-ups are limited per client address; the seeding helpers give each account its own address
    // (support/api.ts) through the header a trusted local proxy would set.
    TRUST_PROXY: 'loopback',
    // Stricter than the product's 30 s, so the browser tests can outwait it: a tab that presented a spent refresh
    // token after this long would end the session (specs/shared-session.test.ts proves the tabs never do).
    REFRESH_REUSE_SECONDS: '2',
  };
  // The suite always runs on its own fresh SQLite file and the default web build.
  for (const key of ['DATABASE_URL', 'JWT_SECRET', 'WEB_ROOT']) delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, logFile);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  project.provide('baseUrl', baseUrl);

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
