import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * `user_data_versions.version` grows with every statement that inserts, updates or deletes a user's
 * invoices, in the same transaction, whatever code writes: every payment, edit, entity change, recycle,
 * restore and purge touches the invoices it affects. The list's response cache is valid only while the
 * version it was stored under is current (docs/decisions/0403-list-cache.md).
 */

/** The advisory lock class of the rollup triggers: a user's writes take it before any shared row. */
const LOCK_CLASS = 1650879588;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// Selected from `users`, so the cascade that deletes a whole account (its row already gone) bumps nothing.
const BUMP_SQLITE = (r: string) =>
  `INSERT INTO user_data_versions (user_id, version) SELECT id, 1 FROM users WHERE id = ${r}.user_id
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;`;

function sqliteTriggers(): string[] {
  return [
    `CREATE TRIGGER entries_version_insert AFTER INSERT ON entries BEGIN ${BUMP_SQLITE('NEW')} END`,
    `CREATE TRIGGER entries_version_update AFTER UPDATE ON entries BEGIN ${BUMP_SQLITE('NEW')} ${BUMP_SQLITE('OLD')} END`,
    `CREATE TRIGGER entries_version_delete AFTER DELETE ON entries BEGIN ${BUMP_SQLITE('OLD')} END`,
  ];
}

/**
 * Statement triggers over the transition tables, one bump per user and statement. The user's advisory lock
 * comes first (re-entrant; the rollup triggers take it too), so the version row is only ever locked under
 * it and two writers never wait on each other in opposite orders.
 */
function pgTriggers(): string[] {
  const fn = (name: string, tables: string[]) => {
    const users = tables.map((t) => `SELECT user_id FROM ${t}`).join(' UNION ');
    return `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, u.user_id::int) FROM (SELECT user_id FROM (${users}) a ORDER BY user_id) u;
INSERT INTO user_data_versions (user_id, version)
  SELECT id, 1 FROM users WHERE id IN (${users}) ORDER BY id
  ON CONFLICT (user_id) DO UPDATE SET version = user_data_versions.version + 1;
RETURN NULL;
END
$fn$`;
  };
  const trigger = (event: string, refs: string, fnName: string) =>
    `CREATE TRIGGER entries_version_${event.toLowerCase()} AFTER ${event} ON entries REFERENCING ${refs} FOR EACH STATEMENT EXECUTE FUNCTION ${fnName}()`;
  return [
    fn('version_entries_insert', ['new_rows']),
    fn('version_entries_update', ['new_rows', 'old_rows']),
    fn('version_entries_delete', ['old_rows']),
    trigger('INSERT', 'NEW TABLE AS new_rows', 'version_entries_insert'),
    trigger('UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', 'version_entries_update'),
    trigger('DELETE', 'OLD TABLE AS old_rows', 'version_entries_delete'),
  ];
}

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('user_data_versions')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  for (const statement of isPostgres(db) ? pgTriggers() : sqliteTriggers()) await sql.raw(statement).execute(db);
}

export async function down(db: Db): Promise<void> {
  const pg = isPostgres(db);
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`DROP TRIGGER IF EXISTS entries_version_${event}${pg ? ' ON entries' : ''}`).execute(db);
    if (pg) await sql.raw(`DROP FUNCTION IF EXISTS version_entries_${event}()`).execute(db);
  }
  await db.schema.dropTable('user_data_versions').ifExists().execute();
}
