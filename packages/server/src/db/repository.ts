import type { Db } from './database.ts';

/**
 * Base of every repository: one method per query over `db`. `transaction` hands the work a copy of the
 * repository bound to the transaction, so services compose repository calls atomically.
 */
export abstract class Repository {
  constructor(protected readonly db: Db) {}

  transaction<T>(work: (repo: this) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return this.db
      .transaction()
      .execute((trx) => work(Object.assign(Object.create(Object.getPrototypeOf(this)), this, { db: trx })));
  }
}
