import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer as startServerProcess } from '../../packages/server/test/helpers/server-process.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface ServerOptions {
  databaseUrl: string;
  dataDir: string;
  logLevel?: string;
  /** Extra environment, e.g. `WEB_ROOT`. */
  env?: Record<string, string>;
  /** Listen here instead of on a free port. */
  port?: number;
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Memory of the server process now and at its peak (kB, from /proc/<pid>/status). */
  memory(): { rssKb: number; hwmKb: number };
  /** Largest VmRSS seen by the sampler since start. */
  peakRssKb(): number;
  /** Last lines the server wrote (for error reports). */
  output(): string;
  stop(): Promise<void>;
}

function readStatus(pid: number): { rssKb: number; hwmKb: number } {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return { rssKb: Number.NaN, hwmKb: Number.NaN };
  }
}

/**
 * The real server as production runs it (packages/server/test/helpers/server-process.ts), with the data set's
 * database and directory, and its memory sampled for the report.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const server = await startServerProcess(
    {
      NODE_ENV: 'production',
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: options.logLevel ?? 'warn',
      ...options.env,
    },
    { healthyWithinMs: 120_000, ...(options.port === undefined ? {} : { port: options.port }) },
  );
  const { pid } = server;
  let peak = 0;
  const sampler = setInterval(() => {
    const { rssKb } = readStatus(pid);
    if (rssKb > peak) peak = rssKb;
  }, 200);
  sampler.unref();
  return {
    url: server.url,
    pid,
    memory: () => readStatus(pid),
    peakRssKb: () => Math.max(peak, readStatus(pid).rssKb || 0),
    output: server.output,
    async stop() {
      clearInterval(sampler);
      await server.stop();
    },
  };
}

/**
 * Runs `work` against the real server on a fresh data directory under the system's temporary one (named after
 * `dataDirPrefix`); when `work` fails the server's last lines are printed. The server is stopped and the directory
 * removed either way.
 */
export async function withServer<T>(
  options: Omit<ServerOptions, 'dataDir'> & { dataDirPrefix: string },
  work: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const { dataDirPrefix, ...rest } = options;
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  try {
    const server = await startServer({ ...rest, dataDir });
    try {
      return await work(server);
    } catch (err) {
      console.error(server.output());
      throw err;
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A user's access token from the server's sign-in (`POST /api/v1/auth/login`). */
export async function signIn(server: Pick<RunningServer, 'url'>, username: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}
