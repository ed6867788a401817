/**
 * The real server (the compiled `packages/server/dist/main.js`, exactly as `npm start` runs it, rebuilt first when
 * its sources changed: scripts/build.mjs) as a child process on a free
 * loopback port with a fresh data directory (a new SQLite file). The suite's shared server (support/global-setup.ts)
 * and any spec that needs a server of its own with other settings (e.g. mail, specs/reminders.test.ts) start it here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureBuilt } from '../../scripts/build.mjs';

const ROOT = resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
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

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  /** Everything the server logged so far (its log file in the data directory). */
  log: () => string;
  /** Stops the process and starts it again on the same port and data: the jobs run again at start. */
  restart: () => Promise<void>;
  /** Stops the process and removes its data directory. */
  stop: () => Promise<void>;
}

/**
 * Starts the built server with the suite's settings plus `env` (e.g. `SMTP_URL`), and waits until it is healthy.
 * `env` may be a function of the server's address, for settings that name it (`PUBLIC_URL`).
 */
export async function startServer(
  env: Record<string, string> | ((baseUrl: string) => Record<string, string>) = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-e2e-'));
  const logFile = join(dataDir, 'server.log');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    // Vitest sets NODE_ENV=test; the server runs as it ships.
    NODE_ENV: 'production',
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
  // Always its own fresh SQLite file and the default web build; mail only when a spec asks for it.
  for (const key of ['DATABASE_URL', 'JWT_SECRET', 'WEB_ROOT', 'SMTP_URL', 'MAIL_FROM', 'REMINDER_HOUR']) {
    delete childEnv[key];
  }
  Object.assign(childEnv, typeof env === 'function' ? env(baseUrl) : env);
  const log = createWriteStream(logFile, { flags: 'a' });
  // The server is always current, even with E2E_SKIP_BUILD (which skips the forced build of both): quick when fresh.
  await ensureBuilt({ targets: ['server'] });

  let child: ChildProcess;
  const launch = async () => {
    child = spawn(process.execPath, ['packages/server/dist/main.js'], {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    try {
      await waitForHealth(baseUrl, child, logFile);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  };
  try {
    await launch();
  } catch (error) {
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  return {
    baseUrl,
    dataDir,
    log: () => readFileSync(logFile, 'utf8'),
    async restart() {
      await terminate(child);
      await launch();
    },
    async stop() {
      await terminate(child);
      await new Promise((r) => log.end(r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
