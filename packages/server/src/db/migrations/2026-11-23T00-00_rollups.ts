import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Running totals of the live entries and payments, kept by triggers in the same transaction as every write
 * (so they stay exact whatever code path writes), for lists that count a million invoices and stats that
 * sum them in milliseconds. See docs/decisions/0400-rollups.md.
 *
 * - Live entry counts per value of the columns the list filters on (internal, archived, flow, pay_state,
 *   all copied on the entry itself), at four grains: overall (`entry_state_counts`, a few dozen rows per
 *   user), per month (`entry_month_state_counts`), per month and category (`entry_month_counts`) and per
 *   day and category (`entry_day_counts`).
 * - `entry_bill_totals`: per entity, flow and pay state: count and the stats sums of the entries.
 * - `payment_bill_totals`: per entity, flow, pay state and method: count and sum of the live payments of
 *   live entries.
 * Rows whose counts fall to zero stay (they add nothing); a rebuild drops them.
 */

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const STATE_KEY = ['internal', 'archived', 'flow', 'pay_state'] as const;

interface CountTable {
  table: string;
  /** The date grain, if any: its column and its value from a row alias. */
  period: { column: 'day' | 'month'; of: (r: string) => string } | null;
  keys: readonly string[];
}

const COUNT_TABLES: CountTable[] = [
  { table: 'entry_state_counts', period: null, keys: STATE_KEY },
  {
    table: 'entry_month_state_counts',
    period: { column: 'month', of: (r) => `substr(${r}.date, 1, 7)` },
    keys: STATE_KEY,
  },
  {
    table: 'entry_month_counts',
    period: { column: 'month', of: (r) => `substr(${r}.date, 1, 7)` },
    keys: ['category', ...STATE_KEY],
  },
  { table: 'entry_day_counts', period: { column: 'day', of: (r) => `${r}.date` }, keys: ['category', ...STATE_KEY] },
];

/** Key columns of a count table, and their values from a row alias. */
const keyColumns = (t: CountTable) => ['user_id', ...(t.period ? [t.period.column] : []), ...t.keys];
const keyValues = (t: CountTable, r: string) => [
  `${r}.user_id`,
  ...(t.period ? [t.period.of(r)] : []),
  ...t.keys.map((k) => `${r}.${k}`),
];
const ENTRY_SUMS = ['amount_cents', 'paid_cents', 'received_cents', 'overpaid_cents', 'balance_cents'] as const;

/** An entry's contribution to each stats sum, from a row alias (`NEW`, `OLD`, `n`…). */
function entrySums(r: string): Record<(typeof ENTRY_SUMS)[number], string> {
  return {
    amount_cents: `${r}.amount_cents`,
    paid_cents: `${r}.paid_cents`,
    received_cents: `CASE WHEN ${r}.paid_cents < ${r}.amount_cents THEN ${r}.paid_cents ELSE ${r}.amount_cents END`,
    overpaid_cents: `CASE WHEN ${r}.paid_cents > ${r}.amount_cents THEN ${r}.paid_cents - ${r}.amount_cents ELSE 0 END`,
    balance_cents: `${r}.balance_cents`,
  };
}

const live = (r: string) => `${r}.recycled_at IS NULL`;
/** `a IS DISTINCT FROM b` in both dialects (SQLite spells it `IS NOT`). */
const differs = (pg: boolean, a: string, b: string) => (pg ? `${a} IS DISTINCT FROM ${b}` : `${a} IS NOT ${b}`);

// ---------------------------------------------------------------- SQLite: row triggers

function sqliteAddCounts(t: CountTable, r: string): string {
  return `INSERT INTO ${t.table} (${keyColumns(t).join(', ')}, entry_count)
    SELECT ${keyValues(t, r).join(', ')}, 1 WHERE ${live(r)}
    ON CONFLICT DO UPDATE SET entry_count = entry_count + 1;`;
}

function sqliteSubCounts(t: CountTable, r: string): string {
  const values = keyValues(t, r);
  return `UPDATE ${t.table} SET entry_count = entry_count - 1
    WHERE ${live(r)} AND ${keyColumns(t)
      .map((c, i) => `${c} = ${values[i]}`)
      .join(' AND ')};`;
}

function sqliteAddBill(r: string): string {
  const sums = entrySums(r);
  return `INSERT INTO entry_bill_totals (user_id, bill_id, flow, pay_state, entry_count, ${ENTRY_SUMS.join(', ')})
    SELECT ${r}.user_id, ${r}.bill_id, ${r}.flow, ${r}.pay_state, 1, ${ENTRY_SUMS.map((s) => sums[s]).join(', ')}
    WHERE ${live(r)}
    ON CONFLICT DO UPDATE SET entry_count = entry_count + 1, ${ENTRY_SUMS.map((s) => `${s} = ${s} + excluded.${s}`).join(', ')};`;
}

function sqliteSubBill(r: string): string {
  const sums = entrySums(r);
  return `UPDATE entry_bill_totals SET entry_count = entry_count - 1, ${ENTRY_SUMS.map((s) => `${s} = ${s} - (${sums[s]})`).join(', ')}
    WHERE ${live(r)} AND user_id = ${r}.user_id AND bill_id = ${r}.bill_id AND flow = ${r}.flow AND pay_state = ${r}.pay_state;`;
}

/** The entry's live payments, grouped by method, added to (or taken from) the entry's current group. */
function sqliteAddPayments(r: string): string {
  return `INSERT INTO payment_bill_totals (user_id, bill_id, flow, pay_state, type, medium, payment_count, amount_cents)
    SELECT ${r}.user_id, ${r}.bill_id, ${r}.flow, ${r}.pay_state, p.type, p.medium, count(*), sum(p.amount_cents)
    FROM payments p WHERE ${live(r)} AND p.entry_id = ${r}.id AND p.recycled_at IS NULL GROUP BY p.type, p.medium
    ON CONFLICT DO UPDATE SET payment_count = payment_count + excluded.payment_count, amount_cents = amount_cents + excluded.amount_cents;`;
}

function sqliteSubPayments(r: string): string {
  return `UPDATE payment_bill_totals SET payment_count = payment_count - s.n, amount_cents = amount_cents - s.total
    FROM (SELECT p.type AS t, p.medium AS m, count(*) AS n, sum(p.amount_cents) AS total
            FROM payments p WHERE p.entry_id = ${r}.id AND p.recycled_at IS NULL GROUP BY p.type, p.medium) AS s
    WHERE ${live(r)} AND user_id = ${r}.user_id AND bill_id = ${r}.bill_id AND flow = ${r}.flow
      AND pay_state = ${r}.pay_state AND type = s.t AND medium = s.m;`;
}

/** One payment added to (taken from) the group of its entry, if both are live. */
function sqlitePayment(r: string, sign: 1 | -1): string {
  if (sign === 1) {
    return `INSERT INTO payment_bill_totals (user_id, bill_id, flow, pay_state, type, medium, payment_count, amount_cents)
      SELECT e.user_id, e.bill_id, e.flow, e.pay_state, ${r}.type, ${r}.medium, 1, ${r}.amount_cents
      FROM entries e WHERE ${live(r)} AND e.id = ${r}.entry_id AND e.recycled_at IS NULL
      ON CONFLICT DO UPDATE SET payment_count = payment_count + 1, amount_cents = amount_cents + excluded.amount_cents;`;
  }
  return `UPDATE payment_bill_totals SET payment_count = payment_count - 1, amount_cents = amount_cents - ${r}.amount_cents
    WHERE ${live(r)} AND type = ${r}.type AND medium = ${r}.medium AND (user_id, bill_id, flow, pay_state) IN
      (SELECT e.user_id, e.bill_id, e.flow, e.pay_state FROM entries e WHERE e.id = ${r}.entry_id AND e.recycled_at IS NULL);`;
}

function sqliteTriggers(): string[] {
  const eitherLive = `(${live('OLD')} OR ${live('NEW')})`;
  const changed = (cols: string[]) =>
    `((${live('OLD')}) <> (${live('NEW')}) OR ${cols.map((c) => differs(false, `OLD.${c}`, `NEW.${c}`)).join(' OR ')})`;
  const counts = (r: string, sign: 1 | -1) =>
    COUNT_TABLES.map((t) => (sign === 1 ? sqliteAddCounts(t, r) : sqliteSubCounts(t, r)));
  const trigger = (name: string, when: string, table: string, event: string, body: string[]) =>
    `CREATE TRIGGER ${name} AFTER ${event} ON ${table} WHEN ${when} BEGIN\n${body.join('\n')}\nEND`;
  return [
    trigger('entries_rollup_insert', live('NEW'), 'entries', 'INSERT', [
      ...counts('NEW', 1),
      sqliteAddBill('NEW'),
      sqliteAddPayments('NEW'),
    ]),
    trigger('entries_rollup_delete', live('OLD'), 'entries', 'DELETE', [
      ...counts('OLD', -1),
      sqliteSubBill('OLD'),
      sqliteSubPayments('OLD'),
    ]),
    trigger(
      'entries_rollup_update_counts',
      `${eitherLive} AND ${changed(['user_id', 'date', 'category', ...STATE_KEY])}`,
      'entries',
      'UPDATE',
      [...counts('OLD', -1), ...counts('NEW', 1)],
    ),
    trigger(
      'entries_rollup_update_bill',
      `${eitherLive} AND ${changed(['user_id', 'bill_id', 'flow', 'pay_state', 'amount_cents', 'paid_cents', 'balance_cents'])}`,
      'entries',
      'UPDATE',
      [sqliteSubBill('OLD'), sqliteAddBill('NEW')],
    ),
    trigger(
      'entries_rollup_update_payments',
      `${eitherLive} AND ${changed(['user_id', 'bill_id', 'flow', 'pay_state'])}`,
      'entries',
      'UPDATE',
      [sqliteSubPayments('OLD'), sqliteAddPayments('NEW')],
    ),
    trigger('payments_rollup_insert', live('NEW'), 'payments', 'INSERT', [sqlitePayment('NEW', 1)]),
    trigger('payments_rollup_delete', live('OLD'), 'payments', 'DELETE', [sqlitePayment('OLD', -1)]),
    trigger(
      'payments_rollup_update',
      `${eitherLive} AND ${changed(['entry_id', 'type', 'medium', 'amount_cents'])}`,
      'payments',
      'UPDATE',
      [sqlitePayment('OLD', -1), sqlitePayment('NEW', 1)],
    ),
  ];
}

// ---------------------------------------------------------------- PostgreSQL: statement triggers

/**
 * PostgreSQL runs one trigger per statement over its transition tables: a change of ten thousand rows (an
 * entity archived) is a handful of set-based statements, not ten thousand. Every statement adds the new
 * rows (+1) and takes the old ones (−1) and keeps only keys whose delta is not zero, so rows that did not
 * change cancel out.
 */
/**
 * While an account (or entity) is deleted, its rollup rows go by foreign-key cascade before the cascaded
 * deletes of its entries and payments fire their triggers: those must not write rows for it again.
 */
const OWNER_EXISTS = (r: string) => `EXISTS (SELECT 1 FROM users u WHERE u.id = ${r}.user_id)`;
const BILL_EXISTS = (r: string) => `EXISTS (SELECT 1 FROM bills b WHERE b.id = ${r}.bill_id)`;

function pgDeltas(sources: { table: string; sign: 1 | -1 }[], columns: string, where: string): string {
  return sources
    .map(({ table, sign }) => `SELECT ${columns}, ${sign} AS sign FROM ${table} r WHERE ${where}`)
    .join(' UNION ALL ');
}

function pgEntryStatements(sources: { table: string; sign: 1 | -1 }[]): string[] {
  const countCols = `r.user_id, r.date, r.category, ${STATE_KEY.map((c) => `r.${c}`).join(', ')}`;
  const sums = entrySums('r');
  const out: string[] = [];
  for (const t of COUNT_TABLES) {
    const values = keyValues(t, 'd');
    out.push(`INSERT INTO ${t.table} AS t (${keyColumns(t).join(', ')}, entry_count)
      SELECT ${values.join(', ')}, sum(d.sign)
      FROM (${pgDeltas(sources, countCols, live('r'))}) d
      WHERE ${OWNER_EXISTS('d')}
      GROUP BY ${values.join(', ')}
      HAVING sum(d.sign) <> 0
      ON CONFLICT (${keyColumns(t).join(', ')}) DO UPDATE SET entry_count = t.entry_count + excluded.entry_count;`);
  }
  const billCols = `r.user_id, r.bill_id, r.flow, r.pay_state, ${ENTRY_SUMS.map((s) => `${sums[s]} AS ${s}`).join(', ')}`;
  out.push(`INSERT INTO entry_bill_totals AS t (user_id, bill_id, flow, pay_state, entry_count, ${ENTRY_SUMS.join(', ')})
    SELECT d.user_id, d.bill_id, d.flow, d.pay_state, sum(d.sign), ${ENTRY_SUMS.map((s) => `sum(d.sign * d.${s})`).join(', ')}
    FROM (${pgDeltas(sources, billCols, live('r'))}) d
    WHERE ${OWNER_EXISTS('d')} AND ${BILL_EXISTS('d')}
    GROUP BY d.user_id, d.bill_id, d.flow, d.pay_state
    HAVING sum(d.sign) <> 0 OR ${ENTRY_SUMS.map((s) => `sum(d.sign * d.${s}) <> 0`).join(' OR ')}
    ON CONFLICT (user_id, bill_id, flow, pay_state) DO UPDATE SET entry_count = t.entry_count + excluded.entry_count,
      ${ENTRY_SUMS.map((s) => `${s} = t.${s} + excluded.${s}`).join(', ')};`);
  return out;
}

/** Live payments of entries that moved between groups (or became live or not). */
function pgPaymentsOfEntries(sources: { table: string; sign: 1 | -1 }[], movedOnly: boolean): string {
  const keys = ['user_id', 'bill_id', 'flow', 'pay_state'];
  let deltas: string;
  if (movedOnly) {
    const tuple = (r: string) => `(${keys.map((k) => `${r}.${k}`).join(', ')}, ${live(r)})`;
    deltas = `SELECT n.id, n.user_id, n.bill_id, n.flow, n.pay_state, 1 AS sign FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE ${live('n')} AND ${tuple('n')} IS DISTINCT FROM ${tuple('o')}
      UNION ALL
      SELECT o.id, o.user_id, o.bill_id, o.flow, o.pay_state, -1 AS sign FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE ${live('o')} AND ${tuple('n')} IS DISTINCT FROM ${tuple('o')}`;
  } else {
    deltas = pgDeltas(sources, 'r.id, r.user_id, r.bill_id, r.flow, r.pay_state', live('r'));
  }
  return `INSERT INTO payment_bill_totals AS t (user_id, bill_id, flow, pay_state, type, medium, payment_count, amount_cents)
    SELECT k.user_id, k.bill_id, k.flow, k.pay_state, p.type, p.medium, sum(k.sign), sum(k.sign * p.amount_cents)
    FROM (${deltas}) k JOIN payments p ON p.entry_id = k.id AND p.recycled_at IS NULL
    WHERE ${OWNER_EXISTS('k')} AND ${BILL_EXISTS('k')}
    GROUP BY k.user_id, k.bill_id, k.flow, k.pay_state, p.type, p.medium
    HAVING sum(k.sign) <> 0 OR sum(k.sign * p.amount_cents) <> 0
    ON CONFLICT (user_id, bill_id, flow, pay_state, type, medium) DO UPDATE SET
      payment_count = t.payment_count + excluded.payment_count, amount_cents = t.amount_cents + excluded.amount_cents;`;
}

function pgPaymentStatement(sources: { table: string; sign: 1 | -1 }[]): string {
  return `INSERT INTO payment_bill_totals AS t (user_id, bill_id, flow, pay_state, type, medium, payment_count, amount_cents)
    SELECT e.user_id, e.bill_id, e.flow, e.pay_state, d.type, d.medium, sum(d.sign), sum(d.sign * d.amount_cents)
    FROM (${pgDeltas(sources, 'r.entry_id, r.type, r.medium, r.amount_cents', live('r'))}) d
    JOIN entries e ON e.id = d.entry_id AND e.recycled_at IS NULL
    WHERE ${OWNER_EXISTS('e')} AND ${BILL_EXISTS('e')}
    GROUP BY e.user_id, e.bill_id, e.flow, e.pay_state, d.type, d.medium
    HAVING sum(d.sign) <> 0 OR sum(d.sign * d.amount_cents) <> 0
    ON CONFLICT (user_id, bill_id, flow, pay_state, type, medium) DO UPDATE SET
      payment_count = t.payment_count + excluded.payment_count, amount_cents = t.amount_cents + excluded.amount_cents;`;
}

/** Advisory-lock class of the rollups ("bfld"); the second key is the user id. */
const LOCK_CLASS = 1650879588;

/**
 * Before touching a user's rollup rows, a statement takes that user's advisory lock (held to the end of the
 * transaction): two writes of one user then update the shared rollup rows one after the other, never in
 * opposite orders (which deadlocks). Writes lock their invoice or entity first and take this lock only at
 * their first real change, and nothing locks other users' rows, so the lock adds no cycle of its own.
 */
function pgLockUsers(tables: string[]): string {
  const ids = tables.map((t) => `SELECT user_id FROM ${t}`).join(' UNION ');
  return `PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, u.user_id::int) FROM (SELECT user_id FROM (${ids}) a ORDER BY user_id) u;`;
}

/** An UPDATE that changes none of the columns the rollups read (the write side's lock update) does nothing. */
function pgSkipUnchanged(columns: string[]): string {
  const tuple = (r: string) => `(${columns.map((c) => `${r}.${c}`).join(', ')}, ${live(r)})`;
  return `IF NOT EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE ${tuple('n')} IS DISTINCT FROM ${tuple('o')}) THEN
  RETURN NULL;
END IF;`;
}

function pgTriggers(): string[] {
  const NEW = { table: 'new_rows', sign: 1 as const };
  const OLD = { table: 'old_rows', sign: -1 as const };
  const entryColumns = [
    'user_id',
    'bill_id',
    'date',
    'category',
    ...STATE_KEY,
    'amount_cents',
    'paid_cents',
    'balance_cents',
  ];
  const paymentColumns = ['user_id', 'entry_id', 'type', 'medium', 'amount_cents'];
  const fn = (name: string, body: string[]) =>
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
${body.join('\n')}
RETURN NULL;
END
$fn$`;
  const trigger = (name: string, table: string, event: string, fnName: string) => {
    const refs =
      event === 'INSERT'
        ? 'NEW TABLE AS new_rows'
        : event === 'DELETE'
          ? 'OLD TABLE AS old_rows'
          : 'OLD TABLE AS old_rows NEW TABLE AS new_rows';
    return `CREATE TRIGGER ${name} AFTER ${event} ON ${table} REFERENCING ${refs} FOR EACH STATEMENT EXECUTE FUNCTION ${fnName}()`;
  };
  return [
    fn('rollup_entries_insert', [
      pgLockUsers(['new_rows']),
      ...pgEntryStatements([NEW]),
      pgPaymentsOfEntries([NEW], false),
    ]),
    fn('rollup_entries_delete', [
      pgLockUsers(['old_rows']),
      ...pgEntryStatements([OLD]),
      pgPaymentsOfEntries([OLD], false),
    ]),
    fn('rollup_entries_update', [
      pgSkipUnchanged(entryColumns),
      pgLockUsers(['new_rows', 'old_rows']),
      ...pgEntryStatements([NEW, OLD]),
      pgPaymentsOfEntries([NEW, OLD], true),
    ]),
    fn('rollup_payments_insert', [pgLockUsers(['new_rows']), pgPaymentStatement([NEW])]),
    fn('rollup_payments_delete', [pgLockUsers(['old_rows']), pgPaymentStatement([OLD])]),
    fn('rollup_payments_update', [
      pgSkipUnchanged(paymentColumns),
      pgLockUsers(['new_rows', 'old_rows']),
      pgPaymentStatement([NEW, OLD]),
    ]),
    trigger('entries_rollup_insert', 'entries', 'INSERT', 'rollup_entries_insert'),
    trigger('entries_rollup_delete', 'entries', 'DELETE', 'rollup_entries_delete'),
    trigger('entries_rollup_update', 'entries', 'UPDATE', 'rollup_entries_update'),
    trigger('payments_rollup_insert', 'payments', 'INSERT', 'rollup_payments_insert'),
    trigger('payments_rollup_delete', 'payments', 'DELETE', 'rollup_payments_delete'),
    trigger('payments_rollup_update', 'payments', 'UPDATE', 'rollup_payments_update'),
  ];
}

// ---------------------------------------------------------------- tables

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  const withoutRowid = (builder: { modifyEnd: (s: ReturnType<typeof sql>) => unknown }) =>
    pg ? builder : builder.modifyEnd(sql`without rowid`);

  for (const t of COUNT_TABLES) {
    let create = db.schema
      .createTable(t.table)
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'));
    if (t.period) create = create.addColumn(t.period.column, 'text', (c) => c.notNull());
    for (const k of t.keys) {
      create = create.addColumn(k, k === 'category' || k === 'flow' ? 'text' : 'integer', (c) => c.notNull());
    }
    create = create
      .addColumn('entry_count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${t.table}_pk`, keyColumns(t) as never);
    await (withoutRowid(create) as typeof create).execute();
    // Category filters with a date range: the months (days) of the chosen categories only.
    if (t.period && t.keys.includes('category')) {
      await db.schema
        .createIndex(`${t.table}_category`)
        .on(t.table)
        .columns(['user_id', 'category', t.period.column])
        .execute();
    }
  }

  let bills = db.schema
    .createTable('entry_bill_totals')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bill_id', 'bigint', (c) => c.notNull().references('bills.id').onDelete('cascade'))
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('pay_state', 'integer', (c) => c.notNull())
    .addColumn('entry_count', 'bigint', (c) => c.notNull());
  for (const s of ENTRY_SUMS) bills = bills.addColumn(s, 'bigint', (c) => c.notNull());
  bills = bills.addPrimaryKeyConstraint('entry_bill_totals_pk', ['user_id', 'bill_id', 'flow', 'pay_state']);
  await (withoutRowid(bills) as typeof bills).execute();

  const payments = db.schema
    .createTable('payment_bill_totals')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bill_id', 'bigint', (c) => c.notNull().references('bills.id').onDelete('cascade'))
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('pay_state', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('medium', 'text', (c) => c.notNull())
    .addColumn('payment_count', 'bigint', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_bill_totals_pk', ['user_id', 'bill_id', 'flow', 'pay_state', 'type', 'medium']);
  await (withoutRowid(payments) as typeof payments).execute();

  // The largest single payment of a broad selection: walk the live payments from the largest down.
  await db.schema
    .createIndex('payments_live_amount')
    .on('payments')
    .columns(['user_id', 'amount_cents'])
    .where(sql.ref('recycled_at'), 'is', null)
    .execute();

  for (const statement of pg ? pgTriggers() : sqliteTriggers()) await sql.raw(statement).execute(db);

  // Existing data (none before release; kept for a database migrated with data in it).
  await rebuild(db);
}

/** Recomputes every rollup from the base tables (the same SQL as `rebuildRollups` in db/rollups.ts). */
async function rebuild(db: Db): Promise<void> {
  const sums = entrySums('e');
  for (const t of COUNT_TABLES) {
    const values = keyValues(t, 'e');
    await sql
      .raw(`INSERT INTO ${t.table} (${keyColumns(t).join(', ')}, entry_count)
        SELECT ${values.join(', ')}, count(*) FROM entries e WHERE e.recycled_at IS NULL GROUP BY ${values.join(', ')}`)
      .execute(db);
  }
  await sql
    .raw(`INSERT INTO entry_bill_totals (user_id, bill_id, flow, pay_state, entry_count, ${ENTRY_SUMS.join(', ')})
      SELECT e.user_id, e.bill_id, e.flow, e.pay_state, count(*), ${ENTRY_SUMS.map((s) => `sum(${sums[s]})`).join(', ')}
      FROM entries e WHERE e.recycled_at IS NULL GROUP BY e.user_id, e.bill_id, e.flow, e.pay_state`)
    .execute(db);
  await sql
    .raw(`INSERT INTO payment_bill_totals (user_id, bill_id, flow, pay_state, type, medium, payment_count, amount_cents)
      SELECT e.user_id, e.bill_id, e.flow, e.pay_state, p.type, p.medium, count(*), sum(p.amount_cents)
      FROM payments p JOIN entries e ON e.id = p.entry_id
      WHERE p.recycled_at IS NULL AND e.recycled_at IS NULL
      GROUP BY e.user_id, e.bill_id, e.flow, e.pay_state, p.type, p.medium`)
    .execute(db);
}

export async function down(db: Db): Promise<void> {
  const pg = isPostgres(db);
  for (const t of [
    'entries_rollup_insert',
    'entries_rollup_delete',
    'entries_rollup_update',
    'entries_rollup_update_counts',
    'entries_rollup_update_bill',
    'entries_rollup_update_payments',
  ]) {
    await sql.raw(pg ? `DROP TRIGGER IF EXISTS ${t} ON entries` : `DROP TRIGGER IF EXISTS ${t}`).execute(db);
  }
  for (const t of ['payments_rollup_insert', 'payments_rollup_delete', 'payments_rollup_update']) {
    await sql.raw(pg ? `DROP TRIGGER IF EXISTS ${t} ON payments` : `DROP TRIGGER IF EXISTS ${t}`).execute(db);
  }
  if (pg) {
    for (const f of [
      'rollup_entries_insert',
      'rollup_entries_delete',
      'rollup_entries_update',
      'rollup_payments_insert',
      'rollup_payments_delete',
      'rollup_payments_update',
    ]) {
      await sql.raw(`DROP FUNCTION IF EXISTS ${f}()`).execute(db);
    }
  }
  await db.schema.dropIndex('payments_live_amount').ifExists().execute();
  for (const table of ['payment_bill_totals', 'entry_bill_totals', ...COUNT_TABLES.map((t) => t.table)]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
