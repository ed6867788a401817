import type { Insertable, Updateable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { PaymentsTable } from '../../db/schema.ts';
import { PaymentTotalsRepository } from '../payment-totals/payment-totals.repository.ts';

export class PaymentsRepository extends Repository {
  /** The invoice's lock and totals, on the same connection (and transaction) as this repository. */
  paymentTotals(): PaymentTotalsRepository {
    return new PaymentTotalsRepository(this.db);
  }

  /** Live payments of one invoice, newest first with a unique tie-breaker. */
  listLive(entryId: number) {
    return this.db
      .selectFrom('payments')
      .selectAll()
      .where('entry_id', '=', entryId)
      .where('recycled_at', 'is', null)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  findOwned(ledgerId: number, id: number) {
    return this.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
  }

  insert(row: Insertable<PaymentsTable>) {
    return this.db.insertInto('payments').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<PaymentsTable>) {
    return this.db.updateTable('payments').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }
}
