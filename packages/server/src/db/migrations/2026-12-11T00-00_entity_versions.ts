import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * A ledger's data version (`ledger_data_versions`) rises with every write to its entities and schedules too, in the
 * same transaction, whatever code writes: until now only invoices and payments raised it. What is kept per version
 * (the entities' overview and the schedules, docs/decisions/0406-entity-overview.md) is then exact for as long as the
 * version stays, as the list cache and the ledger index are.
 *
 * Each raise is logged in `entry_changes` under the new version with `entry_id` 0, no invoice: a saved ledger index
 * is caught up from the log only when every version since its copy has rows there (the log keeps an hour), and a
 * version that changed no invoice has nothing for it to read again.
 *
 * - SQLite: a row trigger per table and event, as the invoices' (one writer at a time, so no lock).
 * - PostgreSQL: a deferred row trigger, which runs at commit. It takes the ledger's advisory lock and then raises the
 *   version, as the invoices' statement triggers do. At commit, the transaction asks for no row lock after it:
 *   writes lock the schedule and the entity before the invoices (the schedule runner, `lockBill`), and an immediate
 *   trigger on those rows would take the ledger's lock between them, so that two writers could wait on each other.
 *   A ledger deleted in the same transaction (its rows going by cascade) raises nothing: the version is selected
 *   from `ledgers`.
 */

const LOCK_CLASS = 1650879588;
const TABLES = ['bills', 'schedules'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const SQLITE_NOW = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;
const PG_NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

const sqliteBump = (ledgerRef: string) =>
  `INSERT INTO ledger_data_versions (ledger_id, version) SELECT id, 1 FROM ledgers WHERE id = ${ledgerRef}
  ON CONFLICT (ledger_id) DO UPDATE SET version = version + 1;
  INSERT INTO entry_changes (ledger_id, version, entry_id, at)
  SELECT ledger_id, version, 0, ${SQLITE_NOW} FROM ledger_data_versions WHERE ledger_id = ${ledgerRef};`;

const PG_FUNCTION = `CREATE FUNCTION version_ledger_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE lid bigint := CASE WHEN TG_OP = 'DELETE' THEN OLD.ledger_id ELSE NEW.ledger_id END;
BEGIN
PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, lid::int);
INSERT INTO ledger_data_versions (ledger_id, version)
  SELECT id, 1 FROM ledgers WHERE id = lid
  ON CONFLICT (ledger_id) DO UPDATE SET version = ledger_data_versions.version + 1;
INSERT INTO entry_changes (ledger_id, version, entry_id, at)
  SELECT ledger_id, version, 0, ${PG_NOW} FROM ledger_data_versions WHERE ledger_id = lid;
RETURN NULL;
END
$fn$`;

export async function up(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw(PG_FUNCTION).execute(db);
    for (const table of TABLES)
      await sql
        .raw(
          `CREATE CONSTRAINT TRIGGER ${table}_version AFTER INSERT OR UPDATE OR DELETE ON ${table}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION version_ledger_row()`,
        )
        .execute(db);
    return;
  }
  for (const table of TABLES)
    for (const event of EVENTS) {
      const row = event === 'delete' ? 'OLD' : 'NEW';
      await sql
        .raw(
          `CREATE TRIGGER ${table}_version_${event} AFTER ${event.toUpperCase()} ON ${table} BEGIN ${sqliteBump(`${row}.ledger_id`)} END`,
        )
        .execute(db);
    }
}

export async function down(db: Db): Promise<void> {
  if (isPostgres(db)) {
    for (const table of TABLES) await sql.raw(`DROP TRIGGER IF EXISTS ${table}_version ON ${table}`).execute(db);
    await sql.raw('DROP FUNCTION IF EXISTS version_ledger_row()').execute(db);
    return;
  }
  for (const table of TABLES)
    for (const event of EVENTS) await sql.raw(`DROP TRIGGER IF EXISTS ${table}_version_${event}`).execute(db);
}
