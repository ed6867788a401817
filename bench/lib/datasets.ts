import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type PgCluster, startPgCluster } from '../../packages/server/test/helpers/pg-cluster.ts';
import { DEFAULT_PASSWORD, type SeedOptions, type SeedResult, seedDatabase } from '../seed/seed.ts';
import { REPO_ROOT } from './server-process.ts';

/** Large files live outside the repository. */
export const WORK_DIR = process.env.BENCH_DIR ?? '/tmp/billfold-bench';
export const BENCH_USER = 'demo';
export const BENCH_PASSWORD = DEFAULT_PASSWORD;

/** Seeded SQLite files are reused while the generator, loader and schema are unchanged and the data is fresh. */
const MAX_AGE_MS = 3 * 86_400_000;

function sourceFingerprint(loader = 'bench/seed/sqlite-loader.ts'): string {
  const hash = createHash('sha256');
  const files = [
    'bench/seed/generate.ts',
    'bench/seed/loader.ts',
    loader,
    'bench/seed/seed.ts',
    'bench/seed/schedules.ts',
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
    // The forecast reads every schedule of the ledger: a thousand of them (docs/performance.md).
    schedules: 1_000,
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

/** A data set of many users, each with their own personal ledger (`bench/tenants.ts`). */
export interface TenantsSpec {
  users: number;
  invoicesPerUser: number;
  entitiesPerUser: number;
  seed: number;
  /** First user's name: the seeder names the others `<name>2`, `<name>3`, … */
  username: string;
}

export interface CachedCluster {
  cluster: PgCluster;
  seed: SeedInfo & { users: number; seededAt: number; dir: string };
}

/**
 * A PostgreSQL cluster holding the seeded data set, kept in `BENCH_DIR` between runs (a data directory per data
 * set: `tenants-pg-<users>x<invoices>-e<entities>-s<seed>`) and reused while the seeder, loader and migrations are
 * unchanged and the data is fresh; otherwise made and seeded again. The run only reads (and signs in), so the
 * cluster is used as it is, not copied. `settings` are the server settings of this run.
 */
export async function cachedPostgresCluster(
  spec: TenantsSpec,
  settings: Record<string, string | number>,
  reseed: boolean,
): Promise<CachedCluster> {
  mkdirSync(WORK_DIR, { recursive: true });
  const dir = join(
    WORK_DIR,
    `tenants-pg-${spec.users}x${spec.invoicesPerUser}-e${spec.entitiesPerUser}-s${spec.seed}-${spec.username}`,
  );
  const markerFile = `${dir}.json`;
  const fingerprint = sourceFingerprint('bench/seed/pg-loader.ts');
  let marker: Marker | null = null;
  if (!reseed && existsSync(markerFile) && existsSync(join(dir, 'data', 'PG_VERSION'))) {
    const stored = JSON.parse(readFileSync(markerFile, 'utf8')) as Marker;
    if (stored.fingerprint === fingerprint && Date.now() - stored.seededAt < MAX_AGE_MS) marker = stored;
  }
  if (!marker) {
    rmSync(markerFile, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
  const cluster = await startPgCluster({ dir, settings });
  try {
    const cached = marker !== null;
    if (!marker) {
      const total = spec.users * spec.invoicesPerUser;
      console.error(
        `Seeding PostgreSQL: ${spec.users.toLocaleString('en-US')} users × ${spec.invoicesPerUser.toLocaleString('en-US')} invoices (${total.toLocaleString('en-US')}) into ${dir}`,
      );
      const options: SeedOptions = {
        invoices: spec.invoicesPerUser,
        entities: spec.entitiesPerUser,
        users: spec.users,
        seed: spec.seed,
        username: spec.username,
        password: BENCH_PASSWORD,
        mode: 'force',
        progress: true,
      };
      const result = await seedDatabase({ dialect: 'postgres', url: cluster.url }, options);
      marker = { fingerprint, invoices: total, seededAt: Date.now(), seconds: result.seconds, counts: result.counts };
      writeFileSync(markerFile, JSON.stringify(marker, null, 2));
    }
    return {
      cluster,
      seed: {
        invoices: marker.invoices,
        seconds: marker.seconds,
        cached,
        counts: marker.counts,
        users: spec.users,
        seededAt: marker.seededAt,
        dir,
      },
    };
  } catch (err) {
    cluster.stop();
    throw err;
  }
}

/** A seeded SQLite file of many users, cached in `BENCH_DIR` like `sqliteDataset`'s (the run only reads it). */
export async function cachedSqliteTenants(
  spec: TenantsSpec,
  reseed: boolean,
): Promise<{ file: string; seed: SeedInfo & { users: number; seededAt: number } }> {
  mkdirSync(WORK_DIR, { recursive: true });
  const file = join(
    WORK_DIR,
    `tenants-${spec.users}x${spec.invoicesPerUser}-e${spec.entitiesPerUser}-s${spec.seed}-${spec.username}.db`,
  );
  const markerFile = `${file}.json`;
  const fingerprint = sourceFingerprint();
  let marker: Marker | null = null;
  if (!reseed && existsSync(file) && existsSync(markerFile)) {
    const stored = JSON.parse(readFileSync(markerFile, 'utf8')) as Marker;
    if (stored.fingerprint === fingerprint && Date.now() - stored.seededAt < MAX_AGE_MS) marker = stored;
  }
  const cached = marker !== null;
  if (!marker) {
    removeSqlite(file);
    rmSync(markerFile, { force: true });
    const total = spec.users * spec.invoicesPerUser;
    console.error(`Seeding SQLite: ${spec.users} users × ${spec.invoicesPerUser} invoices into ${file}`);
    const result = await seedDatabase(
      { dialect: 'sqlite', file },
      {
        invoices: spec.invoicesPerUser,
        entities: spec.entitiesPerUser,
        users: spec.users,
        seed: spec.seed,
        username: spec.username,
        password: BENCH_PASSWORD,
        mode: 'force',
        progress: true,
      },
    );
    marker = { fingerprint, invoices: total, seededAt: Date.now(), seconds: result.seconds, counts: result.counts };
    writeFileSync(markerFile, JSON.stringify(marker, null, 2));
  }
  return {
    file,
    seed: {
      invoices: marker.invoices,
      seconds: marker.seconds,
      cached,
      counts: marker.counts,
      users: spec.users,
      seededAt: marker.seededAt,
    },
  };
}
