import SQLite from 'better-sqlite3';
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

/** Rows per multi-row INSERT: fewer statement executions, well under SQLite's 32,766 parameters. */
const ROWS_PER_STATEMENT = 100;

function insertSql(table: string, columns: readonly string[], rows: number): string {
  const tuple = `(${columns.map(() => '?').join(',')})`;
  return `INSERT INTO ${table} (${columns.join(',')}) VALUES ${Array(rows).fill(tuple).join(',')}`;
}

/**
 * Raw better-sqlite3: prepared multi-row INSERTs in one transaction per batch, with the secondary indexes
 * of entries and payments dropped during the load and rebuilt once at the end (a sort per index instead of
 * a million random B-tree inserts each). The index definitions are read back from `sqlite_master`, so the
 * rebuilt indexes are exactly the migration's.
 */
export class SqliteLoader implements Loader {
  private readonly db: SQLite.Database;
  private droppedIndexes: { name: string; sql: string }[] = [];
  private droppedTriggers: { name: string; sql: string }[] = [];

  constructor(file: string) {
    this.db = new SQLite(file);
    this.db.pragma('journal_mode = WAL');
    // Nothing to protect during a seed: a crash means seeding again.
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -262144');
    this.db.pragma('temp_store = MEMORY');
  }

  async counts(): Promise<TableCounts> {
    const count = (table: string) => (this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { users: count('users'), bills: count('bills'), entries: count('entries'), payments: count('payments') };
  }

  async takenUsernames(): Promise<Set<string>> {
    const rows = this.db.prepare('SELECT username_key FROM users').all() as { username_key: string }[];
    return new Set(rows.map((r) => r.username_key));
  }

  async nextIds(): Promise<NextIds> {
    const max = (table: string) =>
      (this.db.prepare(`SELECT coalesce(max(id), 0) AS n FROM ${table}`).get() as { n: number }).n + 1;
    return { bill: max('bills'), entry: max('entries'), payment: max('payments') };
  }

  async prepare(): Promise<void> {
    this.droppedIndexes = this.db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('entries', 'payments') AND sql IS NOT NULL",
      )
      .all() as { name: string; sql: string }[];
    for (const index of this.droppedIndexes) this.db.exec(`DROP INDEX "${index.name}"`);
    // The rollup triggers would fire per row; the seeder rebuilds the rollups once at the end instead.
    this.droppedTriggers = this.db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('entries', 'payments')")
      .all() as { name: string; sql: string }[];
    for (const trigger of this.droppedTriggers) this.db.exec(`DROP TRIGGER "${trigger.name}"`);
  }

  async insertUser(user: NewUser): Promise<SeededAccount> {
    return this.db.transaction(() => {
      const userId = Number(
        this.db.prepare(insertSql('users', USER_COLUMNS, 1)).run(...userValues(user)).lastInsertRowid,
      );
      const ledgerId = Number(
        this.db.prepare(insertSql('ledgers', LEDGER_COLUMNS, 1)).run(...ledgerValues(userId, user)).lastInsertRowid,
      );
      this.db.prepare(insertSql('ledger_members', MEMBER_COLUMNS, 1)).run(ledgerId, userId, 'owner', user.createdAt);
      return { userId, ledgerId };
    })();
  }

  async insertBills(ledgerId: number, bills: GenBill[]): Promise<void> {
    this.insertRows('bills', BILL_COLUMNS, bills, (b) => billValues(ledgerId, b));
  }

  async insertBatch(ledgerId: number, entries: GenEntry[], payments: GenPayment[]): Promise<void> {
    this.db.transaction(() => {
      this.insertRows('entries', ENTRY_COLUMNS, entries, (e) => entryValues(ledgerId, e));
      this.insertRows('payments', PAYMENT_COLUMNS, payments, (p) => paymentValues(ledgerId, p));
    })();
  }

  async insertTable(table: string, columns: readonly string[], rows: Value[][]): Promise<void> {
    this.insertRows(table, columns, rows, (r) => r);
  }

  private readonly statements = new Map<string, SQLite.Statement>();

  private statement(table: string, columns: readonly string[], rows: number): SQLite.Statement {
    const key = `${table}:${rows}`;
    let stmt = this.statements.get(key);
    if (!stmt) {
      stmt = this.db.prepare(insertSql(table, columns, rows));
      this.statements.set(key, stmt);
    }
    return stmt;
  }

  private insertRows<T>(table: string, columns: readonly string[], rows: T[], values: (row: T) => Value[]): void {
    const run = this.db.transaction(() => {
      let i = 0;
      const full = this.statement(table, columns, ROWS_PER_STATEMENT);
      for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) {
        const params: Value[] = [];
        for (let j = i; j < i + ROWS_PER_STATEMENT; j++) params.push(...values(rows[j] as T));
        full.run(params);
      }
      const single = this.statement(table, columns, 1);
      for (; i < rows.length; i++) single.run(values(rows[i] as T));
    });
    run();
  }

  async finish(onStep?: (step: string, done: number, total: number) => void): Promise<void> {
    const total = this.droppedIndexes.length + 1;
    for (const [i, index] of this.droppedIndexes.entries()) {
      onStep?.(index.name, i, total);
      this.db.exec(index.sql);
    }
    this.droppedIndexes = [];
    for (const trigger of this.droppedTriggers) this.db.exec(trigger.sql);
    this.droppedTriggers = [];
    onStep?.('checkpoint', total - 1, total);
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
