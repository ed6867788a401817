import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { utcDate } from '../packages/contract/src/dates.ts';
import type { DatabaseConfig } from '../packages/server/src/config.ts';
import { createDatabase, type Db, isSqlite, migrateToLatest } from '../packages/server/src/db/database.ts';
import {
  type Answers,
  answerDifferences,
  BEFORE_LEDGER_DATA,
  insertOldUser,
  insertRows,
  LEDGER_DATA,
  migrateTo,
  OLD_COLUMNS,
  ownerAnswers,
  syncSequences,
} from '../packages/server/test/helpers/old-shape.ts';
import { findPgBin, startPgCluster } from '../packages/server/test/helpers/pg-cluster.ts';
import { parseArgs } from './lib/args.ts';
import { Progress } from './lib/progress.ts';
import { type GenBill, type GenEntry, type GenPayment, generateUser } from './seed/generate.ts';
import { RollupAccumulator } from './seed/rollups.ts';

/**
 * `npm run bench:ledger-migration -- [options]`: the move of every user's data into their personal ledger
 * (migration `2026-12-02T00-00_ledger_data`, docs/decisions/0107-ledgers.md) on a database of the release before
 * it. The database is built at the migration before (Kysely's `migrateTo`), filled with the bench seeder's
 * generated invoices written in the old shape (every row owned by `user_id`; the rollup tables summed while
 * generating, as the seeder does), every answer SQL gives per user is read (test/helpers/old-shape.ts `ownerAnswers`: invoices by flow,
 * payment state, entity state, category, month and bin, due and overdue, payments by method, entities,
 * schedules, categories, imports, the whole rollup tables, the invoice counter), the migration runs alone and
 * is timed, and the answers are read again under each user's personal ledger: they must be identical. The exit
 * code is 1 when they are not. SQLite on a file in a temporary directory; PostgreSQL on a throwaway cluster.
 */

const HELP = `Usage: npm run bench:ledger-migration -- [options]

  --invoices N   invoices in all, spread over the users (default 1,000,000)
  --users N      users (default 4)
  --entities N   entities per user (default 300)
  --db LIST      sqlite,postgres (default both)
  --seed S       the generator's seed (default 20261202)
  --help`;

const args = parseArgs(process.argv.slice(2), {
  invoices: 'number',
  users: 'number',
  entities: 'number',
  db: 'string',
  seed: 'number',
  help: 'boolean',
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const INVOICES = args.invoices ?? 1_000_000;
const USERS = args.users ?? 4;
const ENTITIES = args.entities ?? 300;
const SEED = args.seed ?? 20261202;
const WANTED = (args.db ?? 'sqlite,postgres').split(',');
const NOW = Date.UTC(2026, 10, 25, 12);
const TODAY = utcDate(NOW);

const log = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const billRow = (userId: number, b: GenBill) => [
  b.id,
  userId,
  b.name,
  b.nameKey,
  b.category,
  b.internal ? 1 : 0,
  b.archived ? 0 : 1,
  b.recycledAt,
  b.createdAt,
];
const entryRow = (userId: number, e: GenEntry) => [
  e.id,
  userId,
  e.bill.id,
  e.invoiceNumber,
  e.date,
  e.flow,
  e.amountCents,
  e.services,
  e.dueDate,
  e.paidCents,
  e.balanceCents,
  e.payState,
  e.paymentCount,
  e.bill.name,
  e.bill.nameKey,
  e.bill.category,
  e.bill.internal ? 1 : 0,
  e.bill.archived ? 1 : 0,
  e.recycledAt,
  e.recycledCascade,
  e.createdAt,
];
const paymentRow = (userId: number, p: GenPayment) => [
  p.id,
  userId,
  p.entryId,
  p.date,
  p.amountCents,
  p.type,
  p.medium,
  p.notes,
  p.autopay,
  p.recycledAt,
  p.recycledCascade,
  p.createdAt,
];

/** The database of the release before the move, with the generated data set in its shape. */
async function fillOldShape(db: Db): Promise<{ entries: number; payments: number; seconds: number }> {
  const started = performance.now();
  await migrateTo(db, BEFORE_LEDGER_DATA);
  // As the bench seeder loads: the rollup triggers off, their tables summed along the way and written at the end.
  const triggers = await triggersOff(db);
  const progress = new Progress('old shape', INVOICES);
  const next = { bill: 1, entry: 1, payment: 1 };
  let entries = 0;
  let payments = 0;
  for (let u = 0; u < USERS; u++) {
    const invoices = Math.floor(INVOICES / USERS) + (u < INVOICES % USERS ? 1 : 0);
    const userId = await insertOldUser(db, {
      username: `before${u + 1}`,
      // Nobody signs in: the bench reads SQL only.
      passwordHash: 'x',
      createdAt: NOW - 3_650 * 86_400_000,
      lastInvoiceNumber: invoices,
    });
    const generated = generateUser({
      userId,
      entities: ENTITIES,
      invoices,
      seed: SEED + u,
      now: NOW,
      firstBillId: next.bill,
      firstEntryId: next.entry,
      firstPaymentId: next.payment,
      lastInvoiceNumber: 0,
    });
    await insertRows(
      db,
      'bills',
      OLD_COLUMNS.bills,
      generated.bills.map((b) => billRow(userId, b)),
    );
    next.bill += generated.bills.length;
    const rollups = new RollupAccumulator();
    for (const batch of generated.batches) {
      for (const e of batch.entries) rollups.addEntry(userId, e);
      for (const p of batch.payments) rollups.addPayment(userId, p);
      rollups.endBatch();
      await db.transaction().execute(async (trx) => {
        await insertRows(
          trx,
          'entries',
          OLD_COLUMNS.entries,
          batch.entries.map((e) => entryRow(userId, e)),
        );
        await insertRows(
          trx,
          'payments',
          OLD_COLUMNS.payments,
          batch.payments.map((p) => paymentRow(userId, p)),
        );
      });
      entries += batch.entries.length;
      payments += batch.payments.length;
      next.entry += batch.entries.length;
      next.payment += batch.payments.length;
      progress.update(entries, `user ${u + 1}/${USERS}`);
    }
    // The accumulator names the owner as the current schema does; the old shape calls it `user_id`.
    for (const t of rollups.tables()) {
      const columns = t.columns.map((c) => (c === 'ledger_id' ? 'user_id' : c));
      await insertRows(db, t.table, columns, t.rows);
    }
  }
  progress.finish();
  await triggers.restore();
  await syncSequences(db);
  return { entries, payments, seconds: (performance.now() - started) / 1000 };
}

/**
 * The bench seeder's load mode for entries and payments: their triggers and secondary indexes off during the
 * load (SQLite: dropped and made again after it), and made again, whole, before anything is read.
 */
async function triggersOff(db: Db): Promise<{ restore: () => Promise<void> }> {
  const statements: string[] = [];
  if (isSqlite(db)) {
    const found = await sql<{ type: string; name: string; sql: string }>`select type, name, sql from sqlite_master
      where type in ('trigger', 'index') and tbl_name in ('entries', 'payments') and sql is not null`.execute(db);
    for (const t of found.rows) {
      await sql.raw(`drop ${t.type} "${t.name}"`).execute(db);
      statements.push(t.sql);
    }
  } else {
    const found = await sql<{ name: string; definition: string }>`select i.indexname as name, i.indexdef as definition
      from pg_indexes i where i.schemaname = current_schema() and i.tablename in ('entries', 'payments')
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
    for (const index of found.rows) {
      await sql.raw(`drop index "${index.name}"`).execute(db);
      statements.push(index.definition);
    }
    await sql`alter table entries disable trigger user`.execute(db);
    await sql`alter table payments disable trigger user`.execute(db);
    statements.push('alter table entries enable trigger user', 'alter table payments enable trigger user');
  }
  return {
    restore: async () => {
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}

interface Outcome {
  dialect: string;
  entries: number;
  payments: number;
  loadSeconds: number;
  migrationSeconds: number;
  answerLines: number;
  differences: string[];
  size?: string;
}

async function benchDatabase(dialect: 'sqlite' | 'postgres', config: DatabaseConfig): Promise<Outcome> {
  const db = createDatabase(config);
  try {
    log(`\n${dialect}: building the database of the release before the move (${INVOICES.toLocaleString()} invoices)`);
    const filled = await fillOldShape(db);
    log(
      `${dialect}: ${filled.entries} invoices, ${filled.payments} payments written in ${seconds(filled.seconds * 1000)}`,
    );
    const readStart = performance.now();
    const before: Answers = await ownerAnswers(db, 'user_id', TODAY);
    const lines = Object.values(before).reduce((n, a) => n + a.length, 0);
    log(`${dialect}: ${lines} answer lines read before in ${seconds(performance.now() - readStart)}`);
    const started = performance.now();
    await migrateTo(db, LEDGER_DATA);
    const migrationMs = performance.now() - started;
    log(`${dialect}: ${LEDGER_DATA} took ${seconds(migrationMs)}`);
    await migrateToLatest(db);
    const after = await ownerAnswers(db, 'ledger_id', TODAY);
    const differences = answerDifferences(before, after);
    return {
      dialect,
      entries: filled.entries,
      payments: filled.payments,
      loadSeconds: filled.seconds,
      migrationSeconds: migrationMs / 1000,
      answerLines: lines,
      differences,
    };
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<number> {
  log(`ledger migration bench: ${INVOICES.toLocaleString()} invoices, ${USERS} users, seed ${SEED}`);
  const outcomes: Outcome[] = [];
  if (WANTED.includes('sqlite')) {
    const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'billfold-ledger-migration-'));
    try {
      const file = join(dir, 'before.db');
      const outcome = await benchDatabase('sqlite', { dialect: 'sqlite', file });
      outcome.size = `${(statSync(file).size / 1024 ** 2).toFixed(0)} MB`;
      outcomes.push(outcome);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (WANTED.includes('postgres')) {
    if (!findPgBin()) log('!! No PostgreSQL binaries under /usr/lib/postgresql: PostgreSQL skipped.');
    else {
      const cluster = await startPgCluster({
        settings: { shared_buffers: '512MB', work_mem: '16MB', max_wal_size: '4GB', checkpoint_timeout: '15min' },
      });
      try {
        outcomes.push(await benchDatabase('postgres', { dialect: 'postgres', url: cluster.url }));
      } finally {
        cluster.stop();
      }
    }
  }
  console.log(`\nMigration ${LEDGER_DATA}, seed ${SEED}, ${USERS} users`);
  console.log('database   invoices   payments   load      migration  answers compared  identical');
  for (const o of outcomes) {
    console.log(
      `${o.dialect.padEnd(10)} ${String(o.entries).padStart(8)} ${String(o.payments).padStart(10)}   ${seconds(o.loadSeconds * 1000).padEnd(9)} ${seconds(o.migrationSeconds * 1000).padEnd(10)} ${String(o.answerLines).padStart(16)}  ${o.differences.length === 0 ? 'yes' : 'NO'}${o.size ? `  (file ${o.size})` : ''}`,
    );
    for (const d of o.differences) console.log(`  differs: ${d}`);
  }
  return outcomes.length > 0 && outcomes.every((o) => o.differences.length === 0) ? 0 : 1;
}

process.exitCode = await main();
