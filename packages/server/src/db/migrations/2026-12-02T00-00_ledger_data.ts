import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * The data moves from its user to their personal ledger (docs/decisions/0107-ledgers.md): every data table's
 * `user_id` becomes `ledger_id`, referencing `ledgers.id` (ON DELETE CASCADE), and so do the rollup tables, the
 * data versions (`user_data_versions` becomes `ledger_data_versions`), the change log (`entry_changes`) and every
 * index, constraint and trigger that named the user. One transaction per database.
 *
 * Each personal ledger first takes its user's id as its own (nothing refers to a ledger yet but its members and
 * invitations, which follow), so every row of data keeps the value it holds: on PostgreSQL the move renames
 * columns and swaps constraints without writing one row of data; SQLite, which cannot change a foreign key in
 * place, rebuilds each table by one copy. Other ledgers (none before this release) move above every user id.
 *
 * The invoice counter is `ledgers.last_invoice_number` (filled by `2026-12-01T00-00_ledgers`):
 * `users.last_invoice_number` goes.
 */

/** The tables whose `user_id` names the owner of the data, parents before children. */
const DATA_TABLES = [
  'categories',
  'imports',
  'bills',
  'entries',
  'payments',
  'schedules',
  'entry_state_counts',
  'entry_month_state_counts',
  'entry_month_counts',
  'entry_day_counts',
  'entry_bill_totals',
  'payment_bill_totals',
  'entry_changes',
] as const;

/** Index names that said "user" now say "ledger". */
const INDEX_RENAMES: [string, string][] = [
  ['bills_user_name_live', 'bills_ledger_name_live'],
  ['bills_user_name', 'bills_ledger_name'],
  ['bills_user_category', 'bills_ledger_category'],
  ['entries_user_number', 'entries_ledger_number'],
  ['payments_user_recycled', 'payments_ledger_recycled'],
  ['imports_user', 'imports_ledger'],
  ['entry_changes_user_version', 'entry_changes_ledger_version'],
];

/** The trigger code, rewritten for ledgers: the owner column, the versions table and the owner's existence. */
function forLedgers(code: string): string {
  const out = code
    .replaceAll('user_data_versions', 'ledger_data_versions')
    .replaceAll('user_id', 'ledger_id')
    .replace(/\bFROM users\b/g, 'FROM ledgers');
  if (/\busers\b|user_id/.test(out)) throw new Error(`a trigger still names the user: ${out}`);
  return out;
}

function renamedIndex(name: string): string {
  return INDEX_RENAMES.find(([from]) => from === name)?.[1] ?? name;
}

/**
 * Personal ledgers take their user's id; other ledgers go above every user and ledger id, in their order. Two
 * steps through negative ids, so no id is ever held twice. Members and invitations follow their ledger.
 */
async function renumberLedgers(db: Db, pg: boolean): Promise<boolean> {
  await sql`create temporary table ledger_renumber (old_id bigint primary key, new_id bigint not null)`.execute(db);
  await sql`insert into ledger_renumber (old_id, new_id)
    select l.id, coalesce(l.personal_user_id,
      (select max(m) from (select max(id) as m from users union all select max(id) from ledgers) x)
        + row_number() over (partition by l.personal_user_id is null order by l.id))
    from ledgers l`.execute(db);
  await sql`delete from ledger_renumber where old_id = new_id`.execute(db);
  const moved = await sql<{ n: number }>`select count(*) as n from ledger_renumber`.execute(db);
  const any = Number(moved.rows[0]?.n ?? 0) > 0;
  if (any) {
    if (pg) {
      await sql`alter table ledger_members drop constraint ledger_members_ledger_id_fkey`.execute(db);
      await sql`alter table ledger_invitations drop constraint ledger_invitations_ledger_id_fkey`.execute(db);
    }
    for (const [table, column] of [
      ['ledgers', 'id'],
      ['ledger_members', 'ledger_id'],
      ['ledger_invitations', 'ledger_id'],
    ] as const) {
      await sql
        .raw(`update ${table} set ${column} = -(select r.new_id from ledger_renumber r where r.old_id = ${table}.${column})
          where ${column} in (select old_id from ledger_renumber)`)
        .execute(db);
      await sql.raw(`update ${table} set ${column} = -${column} where ${column} < 0`).execute(db);
    }
    if (pg) {
      for (const table of ['ledger_members', 'ledger_invitations']) {
        await sql
          .raw(`alter table ${table} add constraint ${table}_ledger_id_fkey foreign key (ledger_id)
            references ledgers (id) on delete cascade`)
          .execute(db);
      }
    }
  }
  await sql`drop table ledger_renumber`.execute(db);
  // The next ledger made takes an id above every one there is.
  if (pg) {
    await sql`select setval(pg_get_serial_sequence('ledgers', 'id'), m, true)
      from (select max(id) as m from ledgers) x where m is not null`.execute(db);
  } else {
    await sql`update sqlite_sequence set seq = (select max(id) from ledgers)
      where name = 'ledgers' and seq < (select max(id) from ledgers)`.execute(db);
  }
  return any;
}

// ---------------------------------------------------------------- PostgreSQL: in place

async function upPostgres(db: Db): Promise<void> {
  await renumberLedgers(db, true);
  // The owner of every data row: each references `users` by a constraint named after its column.
  for (const table of DATA_TABLES) {
    await sql.raw(`alter table ${table} rename column user_id to ledger_id`).execute(db);
    if (table === 'entry_changes') continue;
    await sql.raw(`alter table ${table} drop constraint ${table}_user_id_fkey`).execute(db);
    await sql
      .raw(`alter table ${table} add constraint ${table}_ledger_id_fkey foreign key (ledger_id)
        references ledgers (id) on delete cascade`)
      .execute(db);
  }
  await sql`alter table user_data_versions rename to ledger_data_versions`.execute(db);
  await sql`alter table ledger_data_versions rename column user_id to ledger_id`.execute(db);
  await sql`alter table ledger_data_versions drop constraint user_data_versions_user_id_fkey`.execute(db);
  await sql`alter table ledger_data_versions add constraint ledger_data_versions_ledger_id_fkey
    foreign key (ledger_id) references ledgers (id) on delete cascade`.execute(db);
  await sql`alter table ledger_data_versions rename constraint user_data_versions_pkey to ledger_data_versions_pkey`.execute(
    db,
  );
  for (const [from, to] of INDEX_RENAMES) await sql.raw(`alter index ${from} rename to ${to}`).execute(db);
  // The trigger functions (rollups, data versions, change log) read the owner: rewritten in place.
  const functions = await sql<{ definition: string }>`select pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() and (p.proname like 'rollup\\_%' or p.proname like 'version\\_%')`.execute(db);
  for (const { definition } of functions.rows) await sql.raw(forLedgers(definition)).execute(db);
  await sql`alter table users drop column last_invoice_number`.execute(db);
}

// ---------------------------------------------------------------- SQLite: rebuilt

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

async function upSqlite(db: Db): Promise<void> {
  // Foreign keys cannot be switched inside a transaction; they are checked in full before the commit.
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`begin immediate`.execute(db);
  try {
    await renumberLedgers(db, false);
    const tables = [...DATA_TABLES, 'user_data_versions'];
    const schema = (
      await sql<SchemaRow>`select type, name, tbl_name, sql from sqlite_master where sql is not null`.execute(db)
    ).rows;
    const triggers = schema.filter((r) => r.type === 'trigger');
    const indexes = schema.filter((r) => r.type === 'index' && tables.includes(r.tbl_name));
    // Triggers name the tables being rebuilt: dropped first, written again for ledgers at the end.
    for (const t of triggers) await sql.raw(`drop trigger "${t.name}"`).execute(db);
    for (const table of tables) {
      const create = schema.find((r) => r.type === 'table' && r.name === table)?.sql;
      if (!create) throw new Error(`no table ${table}`);
      const target = table === 'user_data_versions' ? 'ledger_data_versions' : table;
      const columns = (
        await sql<{ name: string; hidden: number }>`select name, hidden from pragma_table_xinfo(${table})`.execute(db)
      ).rows
        // Generated columns (hidden 2 and 3) are computed again, never copied.
        .filter((c) => c.hidden === 0)
        .map((c) => c.name);
      const rebuilt = create
        .replace(/^create table ("?)\w+\1/i, `create table "${target}_rebuilt"`)
        .replaceAll('"user_id"', '"ledger_id"')
        .replaceAll('references "users"', 'references "ledgers"')
        .replaceAll('"user_data_versions_', `"${target}_`);
      if (/user_id|"users"/.test(rebuilt)) throw new Error(`table ${table} still names the user: ${rebuilt}`);
      await sql.raw(rebuilt).execute(db);
      // An AUTOINCREMENT table keeps its counter: ids of purged rows are never given again.
      const counter = (await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db))
        .rows[0];
      const into = columns.map((c) => `"${c === 'user_id' ? 'ledger_id' : c}"`).join(', ');
      const from = columns.map((c) => `"${c}"`).join(', ');
      await sql.raw(`insert into "${target}_rebuilt" (${into}) select ${from} from "${table}"`).execute(db);
      await sql.raw(`drop table "${table}"`).execute(db);
      await sql.raw(`alter table "${target}_rebuilt" rename to "${target}"`).execute(db);
      if (counter) await sql`update sqlite_sequence set seq = ${counter.seq} where name = ${target}`.execute(db);
    }
    for (const index of indexes) {
      const name = renamedIndex(index.name);
      const text = (index.sql as string)
        .replace(`"${index.name}"`, `"${name}"`)
        .replaceAll('"user_id"', '"ledger_id"')
        .replace('on "user_data_versions"', 'on "ledger_data_versions"');
      await sql.raw(text).execute(db);
    }
    for (const t of triggers) await sql.raw(forLedgers(t.sql as string)).execute(db);
    await sql`alter table users drop column last_invoice_number`.execute(db);
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error(`foreign keys broken by the move: ${JSON.stringify(broken.rows)}`);
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function up(db: Db): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(): Promise<void> {
  throw new Error('the move of data into ledgers is not undone: restore the backup taken before the upgrade');
}
