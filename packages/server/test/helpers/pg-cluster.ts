import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1, for the test harness and the benchmarks alike: the newest
 * binaries under /usr/lib/postgresql, initdb with trust auth and the C locale, run as the postgres user
 * when we are root (initdb and pg_ctl refuse root), in a temporary directory deleted by `stop`. Settings
 * default to what a small production install would use; the tests add theirs (fsync off, more connections).
 */

export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  return null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** initdb and pg_ctl refuse to run as root, so as root they run as the postgres user. */
function runPg(bin: string, tool: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
    : [join(bin, tool), args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

export interface PgCluster {
  /** Superuser URL of the `postgres` database. */
  url: string;
  /** The same database through the cluster's Unix socket (its directory, `-k`) instead of 127.0.0.1. */
  socketUrl: string;
  version: string;
  /** Stops the server and deletes its files. */
  stop(): void;
}

export interface PgClusterOptions {
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string | number>;
  /**
   * A directory kept between runs (the benchmarks cache a seeded cluster there): the cluster is made in it when it
   * holds none yet, started from it otherwise, and `stop` leaves it in place. Absent: a temporary directory that
   * `stop` deletes.
   */
  dir?: string;
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('No PostgreSQL binaries under /usr/lib/postgresql');
  const kept = options.dir !== undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'billfold-pg-'));
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  if (!existsSync(join(data, 'PG_VERSION'))) {
    runPg(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C']);
  } else if (existsSync(join(data, 'postmaster.pid'))) {
    // A kept cluster still running from a run that was cut off: stopped, to start with this run's settings.
    try {
      runPg(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // not running: pg_ctl start clears a stale pid file itself
    }
  }
  const settings = { listen_addresses: '127.0.0.1', max_connections: 100, ...options.settings };
  const flags = Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
  runPg(bin, 'pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-o',
    `-p ${port} -k ${dir} ${flags}`,
    '-w',
    'start',
  ]);
  const version = runPg(bin, 'postgres', ['--version']).trim();
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    socketUrl: `postgres://postgres@/postgres?host=${encodeURIComponent(dir)}&port=${port}`,
    version,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runPg(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        if (!kept) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
