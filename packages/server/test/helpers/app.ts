import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Config, DatabaseConfig } from '../../src/config.ts';

export type Dialect = DatabaseConfig['dialect'];

/** Every integration suite runs once per database: SQLite always, PostgreSQL when the harness started one. */
export const dialects: Dialect[] = inject('pgUrl') ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestClock {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
}

export function testClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

export interface TestDatabase {
  config: DatabaseConfig;
  drop: () => Promise<void>;
}

/** A brand-new empty database: a temporary SQLite file, or a fresh database in the test cluster. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'billfold-test-'));
    return {
      config: { dialect, file: join(dir, 'test.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = inject('pgUrl');
  if (!adminUrl) throw new Error('PostgreSQL is not available');
  const name = `billfold_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    config: { dialect, url: adminUrl.replace(/\/postgres$/, `/${name}`) },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export function testConfig(database: DatabaseConfig, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: tmpdir(),
    database,
    jwtSecret: 'test-secret-test-secret-test-secret-0123456789',
    mfaKey: 'test-mfa-key-test-mfa-key-test-mfa-key-0123',
    logLevel: 'silent',
    trustProxy: false,
    refreshReuseSeconds: 30,
    ledgerIndexMb: 512,
    // Each test that saves ledger indexes names its own folder (test/ledger-index-saved.test.ts).
    ledgerIndexDir: null,
    webRoot: null,
    now: Date.now,
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  database: TestDatabase;
  close: () => Promise<void>;
}

/** The real app on a fresh database of the given dialect, with a clock the test controls. */
export async function createTestApp(
  dialect: Dialect,
  overrides: Partial<Config> = {},
  options: Parameters<typeof buildApp>[1] = {},
): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const clock = testClock();
  // Each app's attachment files in a folder of its own, removed with it.
  const files = mkdtempSync(join(tmpdir(), 'billfold-files-'));
  const app = await buildApp(
    testConfig(database.config, { now: clock.now, attachments: { dir: files, s3: null }, ...overrides }),
    options,
  );
  await app.ready();
  return {
    app,
    clock,
    database,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(files, { recursive: true, force: true });
    },
  };
}

/** Another instance of the app on a test app's database and clock: a second server process, as far as state goes. */
export async function secondProcess(
  t: TestApp,
  overrides: Partial<Config> = {},
  options: Parameters<typeof buildApp>[1] = {},
): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(t.database.config, { now: t.clock.now, ...overrides }), options);
  await app.ready();
  return app;
}

/**
 * A test app and a second server process on its database for the suite (`describe`) it is called in: started before
 * its tests, handed to `use`, and closed after them. What one process writes, the other must see.
 */
export function withSecondProcess(dialect: Dialect, use: (t: TestApp, other: FastifyInstance) => void): void {
  let t: TestApp | undefined;
  let other: FastifyInstance | undefined;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    other = await secondProcess(t);
    use(t, other);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });
}

/**
 * Another server on the test app's database and clock that answers from the ledger index (docs/decisions/0405-
 * ledger-index.md), returned once the index of the ledger `headers` name has loaded: `path` is asked until its
 * `Server-Timing` says the index answered.
 */
export async function indexedServer(
  t: Pick<TestApp, 'database' | 'clock'>,
  headers: Record<string, string>,
  path = '/entries/stats',
): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(t.database.config, { now: t.clock.now }));
  for (let tries = 0; ; tries++) {
    const res = await app.inject({ method: 'GET', url: `/api/v1${path}`, headers });
    if (res.headers['server-timing'] === 'ledger;desc=index') return app;
    if (tries > 200) {
      await app.close();
      throw new Error('the ledger index did not load');
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
