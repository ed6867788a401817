import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * `entry_changes`: which invoices a user's data version changed, stamped with that version. The triggers of
 * migration `2026-11-25T00-00_data_versions` are replaced by ones that raise the version AND log each
 * invoice written (its own row, or one of its payments), in the same transaction, whatever code writes. The
 * in-memory ledger index (docs/decisions/0405-ledger-index.md) catches up from version v by re-reading the
 * invoices logged above v. Payments raise the version too now: the index keeps their sums per method.
 *
 * On PostgreSQL the stamps are taken under the user's advisory lock, held to commit, so one user's versions
 * commit in order: a reader that sees version v sees every change stamped up to v. `at` (epoch ms, database
 * clock) lets the hourly purge drop old rows.
 */

const LOCK_CLASS = 1650879588;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const SQLITE_NOW = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

// Selected from `users`, so the cascade that deletes a whole account (its row already gone) writes nothing.
const sqliteBump = (userRef: string) =>
  `INSERT INTO user_data_versions (user_id, version) SELECT id, 1 FROM users WHERE id = ${userRef}
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;`;
const sqliteLog = (userRef: string, entryRef: string) =>
  `INSERT INTO entry_changes (user_id, version, entry_id, at)
  SELECT user_id, version, ${entryRef}, ${SQLITE_NOW} FROM user_data_versions WHERE user_id = ${userRef};`;

function sqliteStatements(): string[] {
  const trigger = (name: string, event: string, table: string, r: 'NEW' | 'OLD', entry: string) =>
    `CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN ${sqliteBump(`${r}.user_id`)} ${sqliteLog(`${r}.user_id`, `${r}.${entry}`)} END`;
  return [
    'DROP TRIGGER entries_version_insert',
    'DROP TRIGGER entries_version_update',
    'DROP TRIGGER entries_version_delete',
    trigger('entries_version_insert', 'INSERT', 'entries', 'NEW', 'id'),
    // An invoice's user and a payment's invoice never change: NEW names the same rows as OLD.
    trigger('entries_version_update', 'UPDATE', 'entries', 'NEW', 'id'),
    trigger('entries_version_delete', 'DELETE', 'entries', 'OLD', 'id'),
    trigger('payments_version_insert', 'INSERT', 'payments', 'NEW', 'entry_id'),
    trigger('payments_version_update', 'UPDATE', 'payments', 'NEW', 'entry_id'),
    trigger('payments_version_delete', 'DELETE', 'payments', 'OLD', 'entry_id'),
  ];
}

/**
 * Statement triggers over the transition tables: the user's advisory lock first (re-entrant; the rollup
 * triggers take it too), one bump per user and statement, then one log row per invoice written.
 */
function pgFunction(name: string, tables: readonly string[], entry: string, log = true): string {
  const users = tables.map((t) => `SELECT user_id FROM ${t}`).join(' UNION ');
  const written = tables.map((t) => `SELECT user_id, ${entry} AS entry_id FROM ${t}`).join(' UNION ');
  const logRows = `INSERT INTO entry_changes (user_id, version, entry_id, at)
  SELECT w.user_id, v.version, w.entry_id, (extract(epoch from clock_timestamp()) * 1000)::bigint
  FROM (${written}) w JOIN user_data_versions v ON v.user_id = w.user_id;`;
  return `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, u.user_id::int) FROM (SELECT user_id FROM (${users}) a ORDER BY user_id) u;
INSERT INTO user_data_versions (user_id, version)
  SELECT id, 1 FROM users WHERE id IN (${users}) ORDER BY id
  ON CONFLICT (user_id) DO UPDATE SET version = user_data_versions.version + 1;
${log ? logRows : ''}
RETURN NULL;
END
$fn$`;
}

const PG_ENTRY_FUNCTIONS = [
  ['version_entries_insert', ['new_rows']],
  ['version_entries_update', ['new_rows', 'old_rows']],
  ['version_entries_delete', ['old_rows']],
] as const;

function pgStatements(): string[] {
  const trigger = (table: string, event: string, refs: string, fnName: string) =>
    `CREATE TRIGGER ${table}_version_${event.toLowerCase()} AFTER ${event} ON ${table} REFERENCING ${refs} FOR EACH STATEMENT EXECUTE FUNCTION ${fnName}()`;
  return [
    // The entries' functions keep their names, so their triggers stay as they are.
    ...PG_ENTRY_FUNCTIONS.map(([name, tables]) => pgFunction(name, tables, 'id')),
    pgFunction('version_payments_insert', ['new_rows'], 'entry_id'),
    pgFunction('version_payments_update', ['new_rows', 'old_rows'], 'entry_id'),
    pgFunction('version_payments_delete', ['old_rows'], 'entry_id'),
    trigger('payments', 'INSERT', 'NEW TABLE AS new_rows', 'version_payments_insert'),
    trigger('payments', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', 'version_payments_update'),
    trigger('payments', 'DELETE', 'OLD TABLE AS old_rows', 'version_payments_delete'),
  ];
}

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('entry_changes')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('entry_id', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('entry_changes_user_version')
    .on('entry_changes')
    .columns(['user_id', 'version'])
    .execute();
  await db.schema.createIndex('entry_changes_at').on('entry_changes').column('at').execute();
  for (const statement of isPostgres(db) ? pgStatements() : sqliteStatements()) await sql.raw(statement).execute(db);
}

export async function down(db: Db): Promise<void> {
  const pg = isPostgres(db);
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`DROP TRIGGER IF EXISTS payments_version_${event}${pg ? ' ON payments' : ''}`).execute(db);
    if (pg) await sql.raw(`DROP FUNCTION IF EXISTS version_payments_${event}()`).execute(db);
  }
  // The entries' version triggers as they were: raising the version, logging nothing.
  if (pg) {
    for (const [name, tables] of PG_ENTRY_FUNCTIONS) await sql.raw(pgFunction(name, tables, 'id', false)).execute(db);
  } else {
    for (const event of ['insert', 'update', 'delete'])
      await sql.raw(`DROP TRIGGER entries_version_${event}`).execute(db);
    const bump = (r: string) => sqliteBump(`${r}.user_id`);
    await sql.raw(`CREATE TRIGGER entries_version_insert AFTER INSERT ON entries BEGIN ${bump('NEW')} END`).execute(db);
    await sql
      .raw(`CREATE TRIGGER entries_version_update AFTER UPDATE ON entries BEGIN ${bump('NEW')} ${bump('OLD')} END`)
      .execute(db);
    await sql.raw(`CREATE TRIGGER entries_version_delete AFTER DELETE ON entries BEGIN ${bump('OLD')} END`).execute(db);
  }
  await db.schema.dropTable('entry_changes').ifExists().execute();
}
