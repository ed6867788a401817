import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '../../packages/server/test/helpers/pg-cluster.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(REPO_ROOT, 'packages/server/src/main.ts');

export interface ServerOptions {
  databaseUrl: string;
  dataDir: string;
  logLevel?: string;
  /** Extra environment, e.g. `WEB_ROOT`. */
  env?: Record<string, string>;
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
 * The real server as production runs it: `node --import tsx packages/server/src/main.ts`, configured only
 * through its environment, on 127.0.0.1 and a free port. Resolves once `/api/v1/health` answers 200.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: options.logLevel ?? 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const pid = child.pid;
  if (pid === undefined) throw new Error('server did not start');
  let peak = 0;
  const sampler = setInterval(() => {
    const { rssKb } = readStatus(pid);
    if (rssKb > peak) peak = rssKb;
  }, 200);
  sampler.unref();

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) {
      clearInterval(sampler);
      throw new Error(`server exited during start-up:\n${tail}`);
    }
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      clearInterval(sampler);
      throw new Error(`server did not become healthy within 120 s:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    pid,
    memory: () => readStatus(pid),
    peakRssKb: () => Math.max(peak, readStatus(pid).rssKb || 0),
    output: () => tail,
    async stop() {
      clearInterval(sampler);
      if (exited) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}
