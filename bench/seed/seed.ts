import { sql } from 'kysely';
import type { DatabaseConfig } from '../../packages/server/src/config.ts';
import { createDatabase, type Db, migrateToLatest } from '../../packages/server/src/db/database.ts';
import { hashPassword } from '../../packages/server/src/lib/passwords.ts';
import { Progress } from '../lib/progress.ts';
import { generateUser } from './generate.ts';
import type { Loader, TableCounts } from './loader.ts';
import { PgLoader } from './pg-loader.ts';
import { RollupAccumulator } from './rollups.ts';
import { generateSchedules } from './schedules.ts';
import { SqliteLoader } from './sqlite-loader.ts';

export const DEFAULT_PASSWORD = 'Billfold-bench-1';

export interface SeedOptions {
  /** Invoices per user. */
  invoices: number;
  /** Entities per user. */
  entities: number;
  /** Schedules per user at least (default: those a share of the recurring entities get, about 17 in 100). */
  schedules?: number;
  users: number;
  /** Same seed, same data. */
  seed: number;
  /** First user's name; further users get a number appended (`demo2`, `demo3`, …). */
  username: string;
  password: string;
  /**
   * `empty`: refuse a database that holds any user or data (the default); `force`: wipe it first;
   * `append`: add the new users beside what is there.
   */
  mode: 'empty' | 'force' | 'append';
  /** "Today" of the data set; default the wall clock. */
  now?: number;
  /** Draw a progress bar on stderr. */
  progress?: boolean;
}

export interface SeedResult {
  users: { id: number; username: string }[];
  password: string;
  /** Rows in the database afterwards. */
  counts: TableCounts;
  seconds: number;
}

export class DatabaseNotEmptyError extends Error {
  constructor(readonly counts: TableCounts) {
    super(
      `The database already holds data (${counts.users} users, ${counts.bills} entities, ${counts.entries} invoices, ` +
        `${counts.payments} payments). Pass --force to wipe it first, or --append to add users beside it.`,
    );
  }
}

function hasData(c: TableCounts): boolean {
  return c.users + c.bills + c.entries + c.payments > 0;
}

function openLoader(config: DatabaseConfig): Loader {
  return config.dialect === 'sqlite' ? new SqliteLoader(config.file) : new PgLoader(config.url);
}

/** Schedules are few (a few per hundred entities): plain inserts through the app's own database layer. */
async function insertSchedules(config: DatabaseConfig, rows: ReturnType<typeof generateSchedules>): Promise<void> {
  const db = createDatabase(config);
  try {
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('schedules')
        .values(rows.slice(i, i + 500))
        .execute();
  } finally {
    await db.destroy();
  }
}

/** Migrates the database like the server does, then bulk-loads the data set. */
export async function seedDatabase(config: DatabaseConfig, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const now = options.now ?? Date.now();
  const db = createDatabase(config);
  try {
    await migrateToLatest(db);
    if (options.mode === 'force') {
      // Every table dropped and the migrations run again: the fastest way to empty a large database, and the schema
      // is fresh. (Not by migrating down: the move of the data into ledgers is not undone.)
      await dropEverything(db, config.dialect);
      await migrateToLatest(db);
    }
  } finally {
    await db.destroy();
  }

  const loader = openLoader(config);
  let closed = false;
  try {
    const before = await loader.counts();
    if (options.mode === 'empty' && hasData(before)) throw new DatabaseNotEmptyError(before);

    const taken = await loader.takenUsernames();
    const names: string[] = [];
    for (let n = 1; names.length < options.users; n++) {
      const name = n === 1 ? options.username : `${options.username}${n}`;
      if (!taken.has(name.toLowerCase())) names.push(name);
    }

    const progress = options.progress ? new Progress('seed', options.invoices * options.users) : null;
    await loader.prepare();
    const users: SeedResult['users'] = [];
    const schedules: ReturnType<typeof generateSchedules> = [];
    // One hash for every user (they share the password): thousands of tenants would otherwise spend minutes in
    // argon2 before the first invoice is written.
    const passwordHash = await hashPassword(options.password);
    let done = 0;
    for (const [u, username] of names.entries()) {
      const { userId: id, ledgerId } = await loader.insertUser({
        username,
        email: `${username.toLowerCase()}@example.com`,
        passwordHash,
        createdAt: now - 3_650 * 86_400_000,
        lastLogin: now,
        lastInvoiceNumber: options.invoices,
      });
      users.push({ id, username });
      const ids = await loader.nextIds();
      const generated = generateUser({
        userId: id,
        entities: options.entities,
        invoices: options.invoices,
        seed: options.seed + u,
        now,
        firstBillId: ids.bill,
        firstEntryId: ids.entry,
        firstPaymentId: ids.payment,
        lastInvoiceNumber: 0,
      });
      await loader.insertBills(ledgerId, generated.bills);
      schedules.push(...generateSchedules(ledgerId, generated.bills, options.seed + u, now, options.schedules));
      const rollups = new RollupAccumulator();
      // The next batch is generated while the previous one is written (PostgreSQL runs in parallel with us).
      let next = generated.batches.next();
      while (!next.done) {
        const batch = next.value;
        const writing = loader.insertBatch(ledgerId, batch.entries, batch.payments);
        for (const e of batch.entries) rollups.addEntry(ledgerId, e);
        for (const p of batch.payments) rollups.addPayment(ledgerId, p);
        rollups.endBatch();
        next = generated.batches.next();
        await writing;
        done += batch.entries.length;
        progress?.update(done, `users ${u + 1}/${names.length}`);
      }
      // The triggers are off during the load: the rollup tables get the sums made along the way.
      for (const t of rollups.tables()) await loader.insertTable(t.table, t.columns, t.rows);
    }
    progress?.finish();
    let indexes: Progress | null = null;
    await loader.finish((step, i, total) => {
      if (!options.progress) return;
      indexes ??= new Progress('indexes', total);
      indexes.update(i, step);
    });
    (indexes as Progress | null)?.finish();
    const counts = await loader.counts();
    await loader.close();
    closed = true;
    await insertSchedules(config, schedules);
    return { users, password: options.password, counts, seconds: (performance.now() - started) / 1000 };
  } finally {
    if (!closed) await loader.close();
  }
}

/** Drops every table of the database (their indexes and triggers with them) and, on PostgreSQL, every function. */
async function dropEverything(db: Db, dialect: DatabaseConfig['dialect']): Promise<void> {
  if (dialect === 'postgres') {
    await sql`drop schema public cascade`.execute(db);
    await sql`create schema public`.execute(db);
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    const tables = await sql<{ name: string }>`select name from sqlite_master
      where type = 'table' and name not like 'sqlite_%'`.execute(db);
    for (const { name } of tables.rows) await sql.raw(`drop table "${name}"`).execute(db);
    await sql`delete from sqlite_sequence`.execute(db).catch(() => undefined);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
