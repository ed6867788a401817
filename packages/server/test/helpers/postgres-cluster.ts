import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL cluster, or null when this machine has no PostgreSQL binaries. */
    pgUrl: string | null;
  }
}

function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  return null;
}

function freePort(): Promise<number> {
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
function runPg(bin: string, tool: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
    : [join(bin, tool), args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
}

/** Starts a throwaway PostgreSQL cluster on 127.0.0.1 for the whole test run and stops it afterwards. */
export default async function setup(project: TestProject) {
  const bin = findPgBin();
  if (!bin) {
    const banner = '!'.repeat(78);
    console.warn(
      `\n${banner}\n!! No PostgreSQL binaries under /usr/lib/postgresql: running the SQLite suite ONLY.\n${banner}\n`,
    );
    project.provide('pgUrl', null);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'billfold-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  runPg(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C']);
  runPg(bin, 'pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=300`,
    '-w',
    'start',
  ]);
  project.provide('pgUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);
  return () => {
    try {
      runPg(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
