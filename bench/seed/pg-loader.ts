import pg from 'pg';
import type { GenBill, GenEntry, GenPayment } from './generate.ts';
import {
  BILL_COLUMNS,
  billValues,
  ENTRY_COLUMNS,
  entryValues,
  LEDGER_COLUMNS,
  type Loader,
  ledgerValues,
  MEMBER_COLUMNS,
  type NewUser,
  type NextIds,
  PAYMENT_COLUMNS,
  paymentValues,
  type SeededAccount,
  type TableCounts,
  USER_COLUMNS,
  userValues,
} from './loader.ts';

type Value = string | number | null;

/** PostgreSQL array type of each seeded column (everything else is text). */
const INTEGER_COLUMNS = new Set([
  'id',
  'ledger_id',
  'bill_id',
  'entry_id',
  'invoice_number',
  'amount_cents',
  'paid_cents',
  'balance_cents',
  'recycled_at',
  'created_at',
  'entry_count',
  'payment_count',
  'received_cents',
  'overpaid_cents',
]);
const INT4_COLUMNS = new Set([
  'pay_state',
  'payment_count',
  'internal',
  'archived',
  'recycled_cascade',
  'autopay',
  'status',
]);

function arrayType(column: string): string {
  if (INTEGER_COLUMNS.has(column)) return 'int8[]';
  if (INT4_COLUMNS.has(column)) return 'int4[]';
  return 'text[]';
}

/**
 * One `INSERT … SELECT * FROM unnest($1::int8[], $2::text[], …)` per table and batch: a handful of
 * parameters however many rows, so 10,000 rows travel in one round trip. Secondary indexes are dropped
 * during the load and rebuilt at the end from their `pg_indexes` definitions; the next batch is generated
 * while the previous one is being written.
 */
export class PgLoader implements Loader {
  private readonly client: pg.Client;
  private readonly connected: Promise<void>;
  private ready = false;
  private droppedIndexes: { name: string; def: string }[] = [];

  constructor(url: string) {
    this.client = new pg.Client({ connectionString: url });
    this.connected = this.client.connect().then(async () => {
      await this.client.query('SET synchronous_commit = off');
      await this.client.query("SET maintenance_work_mem = '256MB'");
      this.ready = true;
    });
  }

  /** Sent at once when connected (not after a microtask), so a batch is on the wire while the next is generated. */
  private query<R extends pg.QueryResultRow>(text: string, values?: Value[] | Value[][]) {
    if (this.ready) return this.client.query<R>(text, values);
    return this.connected.then(() => this.client.query<R>(text, values));
  }

  async counts(): Promise<TableCounts> {
    const { rows } = await this.query<{ users: string; bills: string; entries: string; payments: string }>(
      `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM bills) AS bills,
              (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM payments) AS payments`,
    );
    const r = rows[0];
    return {
      users: Number(r?.users),
      bills: Number(r?.bills),
      entries: Number(r?.entries),
      payments: Number(r?.payments),
    };
  }

  async takenUsernames(): Promise<Set<string>> {
    const { rows } = await this.query<{ username_key: string }>('SELECT username_key FROM users');
    return new Set(rows.map((r) => r.username_key));
  }

  async nextIds(): Promise<NextIds> {
    const { rows } = await this.query<{ bill: string; entry: string; payment: string }>(
      `SELECT (SELECT coalesce(max(id), 0) + 1 FROM bills) AS bill, (SELECT coalesce(max(id), 0) + 1 FROM entries) AS entry,
              (SELECT coalesce(max(id), 0) + 1 FROM payments) AS payment`,
    );
    const r = rows[0];
    return { bill: Number(r?.bill), entry: Number(r?.entry), payment: Number(r?.payment) };
  }

  async prepare(): Promise<void> {
    // Foreign keys are satisfied by construction; skipping their per-row checks (superuser only) halves the load.
    await this.query('SET session_replication_role = replica').catch(() => undefined);
    // The rollup triggers would fire per batch; the seeder rebuilds the rollups once at the end instead.
    await this.query('ALTER TABLE entries DISABLE TRIGGER USER');
    await this.query('ALTER TABLE payments DISABLE TRIGGER USER');
    const { rows } = await this.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename IN ('entries', 'payments')
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    this.droppedIndexes = rows.map((r) => ({ name: r.indexname, def: r.indexdef }));
    for (const index of this.droppedIndexes) await this.query(`DROP INDEX "${index.name}"`);
  }

  async insertUser(user: NewUser): Promise<SeededAccount> {
    const insert = async (table: string, columns: readonly string[], values: (string | number | null)[]) => {
      const placeholders = columns.map((_, i) => `$${i + 1}`).join(',');
      const { rows } = await this.query<{ id: string }>(
        `INSERT INTO ${table} (${columns.join(',')}) VALUES (${placeholders})${table === 'ledger_members' ? '' : ' RETURNING id'}`,
        values,
      );
      return Number(rows[0]?.id);
    };
    const userId = await insert('users', USER_COLUMNS, userValues(user));
    const ledgerId = await insert('ledgers', LEDGER_COLUMNS, ledgerValues(userId, user));
    await insert('ledger_members', MEMBER_COLUMNS, [ledgerId, userId, 'owner', user.createdAt]);
    return { userId, ledgerId };
  }

  async insertBills(ledgerId: number, bills: GenBill[]): Promise<void> {
    await this.insertRows('bills', BILL_COLUMNS, bills, (b) => billValues(ledgerId, b));
  }

  async insertBatch(ledgerId: number, entries: GenEntry[], payments: GenPayment[]): Promise<void> {
    await Promise.all([
      this.insertRows('entries', ENTRY_COLUMNS, entries, (e) => entryValues(ledgerId, e)),
      this.insertRows('payments', PAYMENT_COLUMNS, payments, (p) => paymentValues(ledgerId, p)),
    ]);
  }

  async insertTable(table: string, columns: readonly string[], rows: Value[][]): Promise<void> {
    for (let i = 0; i < rows.length; i += 10_000) {
      await this.insertRows(table, columns, rows.slice(i, i + 10_000), (r) => r);
    }
  }

  private insertRows<T>(table: string, columns: readonly string[], rows: T[], values: (row: T) => Value[]) {
    if (rows.length === 0) return Promise.resolve();
    const arrays: Value[][] = columns.map(() => new Array<Value>(rows.length));
    rows.forEach((row, r) => {
      values(row).forEach((v, c) => {
        (arrays[c] as Value[])[r] = v;
      });
    });
    const casts = columns.map((c, i) => `$${i + 1}::${arrayType(c)}`).join(',');
    return this.query(`INSERT INTO ${table} (${columns.join(',')}) SELECT * FROM unnest(${casts})`, arrays);
  }

  async finish(onStep?: (step: string, done: number, total: number) => void): Promise<void> {
    const total = this.droppedIndexes.length + 1;
    for (const [i, index] of this.droppedIndexes.entries()) {
      onStep?.(index.name, i, total);
      await this.query(index.def);
    }
    this.droppedIndexes = [];
    await this.query('SET session_replication_role = DEFAULT').catch(() => undefined);
    await this.query('ALTER TABLE entries ENABLE TRIGGER USER');
    await this.query('ALTER TABLE payments ENABLE TRIGGER USER');
    for (const table of ['bills', 'entries', 'payments']) {
      await this.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 1) FROM ${table}))`,
      );
    }
    onStep?.('vacuum analyze', total - 1, total);
    // What autovacuum would do within a minute of a bulk load: statistics, and the visibility map that
    // lets index-only scans skip the table.
    await this.query('VACUUM ANALYZE');
  }

  async close(): Promise<void> {
    await this.connected.catch(() => undefined);
    await this.client.end();
  }
}
