import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_PASSWORD, type SeedResult, seedDatabase } from '../seed/seed.ts';
import { REPO_ROOT } from './server-process.ts';

/** Large files live outside the repository. */
export const WORK_DIR = process.env.BENCH_DIR ?? '/tmp/billfold-bench';
export const BENCH_USER = 'demo';
export const BENCH_PASSWORD = DEFAULT_PASSWORD;

/** Seeded SQLite files are reused while the generator, loader and schema are unchanged and the data is fresh. */
const MAX_AGE_MS = 3 * 86_400_000;

function sourceFingerprint(): string {
  const hash = createHash('sha256');
  const files = [
    'bench/seed/generate.ts',
    'bench/seed/loader.ts',
    'bench/seed/sqlite-loader.ts',
    'bench/seed/seed.ts',
    ...readdirSync(resolve(REPO_ROOT, 'packages/server/src/db/migrations')).map(
      (f) => `packages/server/src/db/migrations/${f}`,
    ),
  ].sort();
  for (const file of files) hash.update(file).update(readFileSync(resolve(REPO_ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

export interface SeedInfo {
  invoices: number;
  seconds: number;
  cached: boolean;
  counts: SeedResult['counts'];
}

interface Marker {
  fingerprint: string;
  invoices: number;
  seededAt: number;
  seconds: number;
  counts: SeedResult['counts'];
}

function seedOptions(invoices: number) {
  return {
    invoices,
    entities: 1_000,
    users: 1,
    seed: 1,
    username: BENCH_USER,
    password: BENCH_PASSWORD,
    mode: 'force' as const,
    progress: true,
  };
}

function removeSqlite(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

/**
 * A private copy of a seeded SQLite file for one run (the run writes payments into it). The seeded
 * original is kept and reused.
 */
export async function sqliteDataset(invoices: number, reseed: boolean): Promise<{ file: string; seed: SeedInfo }> {
  mkdirSync(WORK_DIR, { recursive: true });
  const original = join(WORK_DIR, `seed-${invoices}.db`);
  const markerFile = `${original}.json`;
  const fingerprint = sourceFingerprint();
  let marker: Marker | null = null;
  if (!reseed && existsSync(original) && existsSync(markerFile)) {
    const stored = JSON.parse(readFileSync(markerFile, 'utf8')) as Marker;
    if (stored.fingerprint === fingerprint && Date.now() - stored.seededAt < MAX_AGE_MS) marker = stored;
  }
  let cached = true;
  if (!marker) {
    cached = false;
    removeSqlite(original);
    rmSync(markerFile, { force: true });
    console.error(`Seeding SQLite (${invoices.toLocaleString('en-US')} invoices) into ${original}`);
    const result = await seedDatabase({ dialect: 'sqlite', file: original }, seedOptions(invoices));
    marker = { fingerprint, invoices, seededAt: Date.now(), seconds: result.seconds, counts: result.counts };
    writeFileSync(markerFile, JSON.stringify(marker, null, 2));
  }
  const copy = join(WORK_DIR, `run-${invoices}.db`);
  removeSqlite(copy);
  copyFileSync(original, copy);
  return { file: copy, seed: { invoices, seconds: marker.seconds, cached, counts: marker.counts } };
}

/** Seeds a fresh PostgreSQL database (the throwaway cluster is new on every run). */
export async function postgresDataset(url: string, invoices: number): Promise<SeedInfo> {
  console.error(`Seeding PostgreSQL (${invoices.toLocaleString('en-US')} invoices)`);
  const result = await seedDatabase({ dialect: 'postgres', url }, seedOptions(invoices));
  return { invoices, seconds: result.seconds, cached: false, counts: result.counts };
}
