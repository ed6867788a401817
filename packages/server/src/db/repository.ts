import type { Db } from './database.ts';

/** Deadlock and serialization failures (PostgreSQL) and a lost write-lock race (SQLite): safe to run again. */
const RETRYABLE_CODES = new Set(['40P01', '40001', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']);
const MAX_ATTEMPTS = 5;

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}

/**
 * Runs `work` in a transaction of `db`, again from the start (it has written nothing) when the database aborts it to
 * break a deadlock or a lost write-lock race, a few times with a growing random pause, before the error goes on.
 */
export async function retryingTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/**
 * Base of every repository: one method per query over `db`. `transaction` hands the work a copy of the
 * repository bound to the transaction, so services compose repository calls atomically. When the database
 * aborts the transaction to break a deadlock, the whole unit of work runs again from the start (it has
 * written nothing), a few times with a growing random pause, before the error reaches the client.
 */
export abstract class Repository {
  constructor(protected readonly db: Db) {}

  /**
   * Reads the ledger's row with a no-op update that holds its lock until the transaction ends: one ledger's writes
   * that check a count or a sum first (its categories, its attachments' quota) run one at a time.
   */
  async lockLedgerRow(ledgerId: number): Promise<void> {
    await this.db
      .updateTable('ledgers')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', ledgerId)
      .execute();
  }

  async transaction<T>(work: (repo: this) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return retryingTransaction(this.db, (trx) =>
      work(Object.assign(Object.create(Object.getPrototypeOf(this)), this, { db: trx })),
    );
  }
}
