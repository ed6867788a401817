import { type Kysely, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from '../../src/db/migrations/index.ts';

/**
 * The database as it was before its data moved into ledgers (migration `2026-12-02T00-00_ledger_data`,
 * docs/decisions/0107-ledgers.md), for the migration's test and its benchmark (bench/ledger-migration.ts): the
 * schema at the migration before it, rows written in that shape (every data row owned by `user_id`), and the answers
 * SQL gives per user, read before the move and after it (where the owner is the user's personal ledger).
 * Frozen like a migration: it names the old columns on purpose and reads no application code but the migration list.
 */

// biome-ignore lint/suspicious/noExplicitAny: the old shape is not the schema's type any more
type AnyDb = Kysely<any>;
type Value = string | number | null;

export const BEFORE_LEDGER_DATA = '2026-12-01T00-00_ledgers';
export const LEDGER_DATA = '2026-12-02T00-00_ledger_data';

/** Runs the migrations up to and including `name` (and no further). */
export async function migrateTo(db: AnyDb, name: string): Promise<void> {
  if (!(name in migrations)) throw new Error(`no migration ${name}`);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
}

/** A user as sign-up made one at that release: the account (holding the invoice counter) and its personal ledger. */
export async function insertOldUser(
  db: AnyDb,
  user: { username: string; passwordHash: string; createdAt: number; lastInvoiceNumber: number },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      username_key: user.username.toLowerCase(),
      email: `${user.username.toLowerCase()}@example.com`,
      email_key: `${user.username.toLowerCase()}@example.com`,
      password_hash: user.passwordHash,
      role: 'ROLE_USER',
      mfa_enabled: 0,
      created_at: user.createdAt,
      last_login: user.createdAt,
      deactivated_at: null,
      last_invoice_number: user.lastInvoiceNumber,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  // `AuthRepository.insertUser` of that release: the ledger's own counter stayed 0, the user's counted.
  const ledger = await db
    .insertInto('ledgers')
    .values({ name: 'Personal', personal_user_id: id, created_at: user.createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('ledger_members')
    .values({ ledger_id: ledger.id, user_id: id, role: 'owner', joined_at: user.createdAt })
    .execute();
  return id;
}

/** Columns of the old shape's data rows, as the bench seeder wrote them (bench/seed/loader.ts at that release). */
export const OLD_COLUMNS = {
  bills: ['id', 'user_id', 'name', 'name_key', 'category', 'internal', 'status', 'recycled_at', 'created_at'],
  entries: [
    'id',
    'user_id',
    'bill_id',
    'invoice_number',
    'date',
    'flow',
    'amount_cents',
    'services',
    'due_date',
    'paid_cents',
    'balance_cents',
    'pay_state',
    'payment_count',
    'bill_name',
    'bill_name_key',
    'category',
    'internal',
    'archived',
    'recycled_at',
    'recycled_cascade',
    'created_at',
  ],
  payments: [
    'id',
    'user_id',
    'entry_id',
    'date',
    'amount_cents',
    'type',
    'medium',
    'notes',
    'autopay',
    'recycled_at',
    'recycled_cascade',
    'created_at',
  ],
} as const;

/** Rows per INSERT: ~20 columns each stays under both databases' bound-parameter limits. */
const CHUNK = 1000;

/** Plain multi-row INSERTs of rows given as values in `columns` order; the rollup triggers fire as for any write. */
export async function insertRows(db: AnyDb, table: string, columns: readonly string[], rows: Value[][]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK).map((r) => Object.fromEntries(columns.map((c, k) => [c, r[k] ?? null])));
    await db.insertInto(table).values(chunk).execute();
  }
}

/**
 * After rows written with their own ids: PostgreSQL's id sequences moved past them, as the app's inserts would
 * have moved them (SQLite's AUTOINCREMENT follows by itself).
 */
export async function syncSequences(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of ['bills', 'entries', 'payments']) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), m) from (select max(id) as m from ${sql.table(table)}) x
      where m is not null`.execute(db);
  }
}

/** Rollup tables and other derived tables keyed by the owner, compared in full. */
const ROLLUP_TABLES = [
  'entry_state_counts',
  'entry_month_state_counts',
  'entry_month_counts',
  'entry_day_counts',
  'entry_bill_totals',
  'payment_bill_totals',
];

/**
 * Every answer SQL gives per user over the data: invoices by flow, payment state, entity state, category, month
 * and bin (count, amounts, paid, balances, payment counts, invoice numbers), overdue and due invoices, payments by
 * method and bin (count, sum, largest), entities, schedules, categories and imports, the whole rollup tables, and
 * the invoice counter. `owner` names the column that holds the owner: `user_id` before the move, `ledger_id` after
 * (each personal ledger's answers are listed under its user). Values as text, so both databases' number types
 * compare alike.
 */
export async function ownerAnswers(db: AnyDb, owner: 'user_id' | 'ledger_id', today: string): Promise<Answers> {
  const userOf = new Map<string, string>();
  if (owner === 'ledger_id') {
    const ledgers = await sql<{ id: unknown; user: unknown }>`select id, personal_user_id as user
      from ledgers where personal_user_id is not null`.execute(db);
    for (const l of ledgers.rows) userOf.set(String(l.id), String(l.user));
  }
  const who = (value: unknown) =>
    owner === 'ledger_id' ? (userOf.get(String(value)) ?? `ledger ${value}`) : String(value);
  const o = sql.ref(owner);
  const answers: Answers = {};
  const add = (name: string, rows: Record<string, unknown>[]) => {
    const lines = rows.map((row) => {
      const { owner: ownerValue, ...rest } = row;
      return `${who(ownerValue)} ${JSON.stringify(Object.values(rest).map((v) => (v === null ? null : String(v))))}`;
    });
    answers[name] = lines.sort();
  };
  const run = async (name: string, query: ReturnType<typeof sql<Record<string, unknown>>>) =>
    add(name, (await query.execute(db)).rows);

  await run(
    'invoices',
    sql`select ${o} as owner, flow, pay_state, archived, internal, category, substr(date, 1, 7) as month,
      case when recycled_at is null then 0 else 1 end as binned, recycled_cascade,
      count(*) as n, sum(amount_cents) as amount, sum(paid_cents) as paid, sum(balance_cents) as balance,
      sum(payment_count) as payments, min(invoice_number) as first, max(invoice_number) as last,
      sum(invoice_number) as numbers, sum(length(services)) as services, max(date) as latest
      from entries group by ${o}, flow, pay_state, archived, internal, category, substr(date, 1, 7),
      case when recycled_at is null then 0 else 1 end, recycled_cascade`,
  );
  await run(
    'invoices by entity',
    sql`select ${o} as owner, bill_id, bill_name, count(*) as n, sum(amount_cents) as amount, sum(paid_cents) as paid,
      sum(balance_cents) as balance from entries where recycled_at is null group by ${o}, bill_id, bill_name`,
  );
  await run(
    'due',
    sql`select owner, due, count(*) as n, sum(balance_cents) as balance, min(due_date) as first, max(due_date) as last
      from (select ${o} as owner, balance_cents, due_date,
        case when due_date < ${today} then 'overdue' else 'upcoming' end as due
        from entries where recycled_at is null and due_date is not null and paid_cents < amount_cents) due_rows
      group by owner, due`,
  );
  await run(
    'payments',
    sql`select ${o} as owner, type, medium, autopay, case when recycled_at is null then 0 else 1 end as binned,
      recycled_cascade, count(*) as n, sum(amount_cents) as amount, max(amount_cents) as largest,
      min(amount_cents) as smallest, sum(entry_id) as entries, max(date) as latest, sum(length(notes)) as notes
      from payments group by ${o}, type, medium, autopay, case when recycled_at is null then 0 else 1 end,
      recycled_cascade`,
  );
  await run(
    'entities',
    sql`select ${o} as owner, category, internal, status, case when recycled_at is null then 0 else 1 end as binned,
      count(*) as n, sum(id) as ids, sum(length(name)) as names
      from bills group by ${o}, category, internal, status, case when recycled_at is null then 0 else 1 end`,
  );
  for (const table of ['schedules', 'categories', 'imports'])
    await run(table, sql`select ${o} as owner, count(*) as n, sum(id) as ids from ${sql.table(table)} group by ${o}`);
  for (const table of ROLLUP_TABLES) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    add(
      table,
      rows.map(({ [owner]: ownerValue, ...rest }) => ({
        owner: ownerValue,
        ...Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))),
      })),
    );
  }
  const counters =
    owner === 'user_id'
      ? await sql<Record<string, unknown>>`select id as owner, last_invoice_number from users`.execute(db)
      : await sql<Record<string, unknown>>`select id as owner, last_invoice_number from ledgers
          where personal_user_id is not null`.execute(db);
  add('invoice counter', counters.rows);
  return answers;
}

export type Answers = Record<string, string[]>;

/** For a failure message: the answers that differ, with a few lines of each side. */
export function answerDifferences(before: Answers, after: Answers): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const out: string[] = [];
  for (const name of names) {
    const was = before[name] ?? [];
    const now = after[name] ?? [];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    const wasSet = new Set(was);
    const nowSet = new Set(now);
    const gone = was.filter((line) => !nowSet.has(line)).slice(0, 3);
    const added = now.filter((line) => !wasSet.has(line)).slice(0, 3);
    out.push(`${name} (${was.length} → ${now.length} lines): - ${gone.join(' | ')} + ${added.join(' | ')}`);
  }
  return out;
}
