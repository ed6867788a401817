import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ensureBuilt } from '../../../../scripts/build.mjs';
import { freePort } from './pg-cluster.ts';

/**
 * The real server as production starts it (the compiled `dist/main.js`, rebuilt first when its sources changed:
 * scripts/build.mjs; configured only by its environment), on 127.0.0.1 and a free port: for the crash, backup and
 * deployment tests and for the benchmarks (bench/lib/server-process.ts). Resolves once `/api/v1/health` answers 200.
 */

const serverDir = resolve(import.meta.dirname, '../..');

/** The compiled server, built when its sources changed since its last build (once per test process). */
let built: Promise<unknown> | null = null;
export function compiledServer(): Promise<string> {
  built ??= ensureBuilt({ targets: ['server'] });
  return built.then(() => join(serverDir, 'dist/main.js'));
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  pid: number;
  /** The last lines the process wrote, for failure messages. */
  output: () => string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill: () => Promise<void>;
  /** SIGTERM, the graceful stop; SIGKILL if it has not ended 10 s later. */
  stop: () => Promise<void>;
}

export async function startServer(
  env: Record<string, string>,
  { healthyWithinMs = 60_000, port: fixedPort }: { healthyWithinMs?: number; port?: number } = {},
): Promise<ServerProcess> {
  // A fixed port keeps a restarted process where a proxy in front of it expects it (bench/tenants.ts).
  if (fixedPort !== undefined) return startServerOn(env, fixedPort, healthyWithinMs);
  // A free port can be taken by another test file's server before this one binds it: then another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOn(env, await freePort(), healthyWithinMs);
    } catch (err) {
      if (attempt === 3 || !String(err).includes('EADDRINUSE')) throw err;
    }
  }
}

async function startServerOn(
  env: Record<string, string>,
  port: number,
  healthyWithinMs: number,
): Promise<ServerProcess> {
  const main = await compiledServer();
  const child = spawn(process.execPath, [main], {
    cwd: serverDir,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('server did not start');
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + healthyWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${tail}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await end('SIGKILL');
      throw new Error(`server did not become healthy within ${healthyWithinMs} ms:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, pid, output: () => tail, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

/** Signs in over HTTP; the access token. */
export async function login(url: string, user: { username: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export async function call(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}
