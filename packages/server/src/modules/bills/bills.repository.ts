import type { BillQuery } from '@billfold/contract/bills';
import { type Insertable, type RawBuilder, sql, type Updateable } from 'kysely';
import { readAside } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import type { BillRow, BillsTable, ScheduleRow } from '../../db/schema.ts';
import { entityCategory, readFilterBook } from '../categories/category-book.ts';
import { HistoryRepository } from '../history/history.repository.ts';
import { PaymentTotalsRepository } from '../payment-totals/payment-totals.repository.ts';
import { PAY_STATE, recycledEntry } from '../payment-totals/payment-totals.ts';
import { scheduleEstimates } from '../schedules/schedule-estimate.ts';
import { SchedulesRepository } from '../schedules/schedules.repository.ts';
import type { EntryBillColumns } from './bill.mapper.ts';
import type { NameHolder } from './bills.messages.ts';

export interface BillSearch {
  status?: BillQuery['status'];
  /** Lower-case substring of the name. */
  nameKey?: string | undefined;
  categories?: readonly string[] | undefined;
}

/** A live entity with what is open on it, as the overview reads it (cents; counts may come back as text). */
export interface BillOverviewRow extends BillRow {
  invoice_count: number | string;
  to_pay_cents: number | string;
  to_collect_cents: number | string;
  next_due: string | null;
  /** Where its name key and its category come in the database's order of the ledger's live entities (ties share one). */
  name_rank: number | string;
  category_rank: number | string;
}

/** `%`, `_` and the escape character itself match literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

export class BillsRepository extends Repository {
  /** The payment totals' locks and sums, on the same connection (and transaction) as this repository. */
  paymentTotals(): PaymentTotalsRepository {
    return new PaymentTotalsRepository(this.db);
  }

  /** The change history, on the same connection (and transaction), for writes at instant `at`. */
  history(at: number): HistoryRepository {
    return new HistoryRepository(this.db, at);
  }

  /** The stored category an entity's input names (docs/decisions/0105-categories-of-your-own.md). */
  entityCategory(ledgerId: number, value: unknown): Promise<string> {
    return entityCategory(this.db, ledgerId, value);
  }

  /** A filter's category values as stored names; the ledger's own are read only when a value is not built in. */
  async categoryFilter(ledgerId: number, values: readonly string[]): Promise<string[]> {
    const book = await readFilterBook(this.db, ledgerId, values);
    return values.map((value) => book.filterName(value));
  }

  list(ledgerId: number, search: BillSearch) {
    let query = this.db
      .selectFrom('bills')
      .selectAll()
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', 'is', null);
    if (search.status === 'active') query = query.where('status', '=', 1);
    if (search.status === 'inactive') query = query.where('status', '=', 0);
    if (search.nameKey) query = query.where(sql<boolean>`name_key like ${containsPattern(search.nameKey)} escape '!'`);
    if (search.categories && search.categories.length > 0) query = query.where('category', 'in', search.categories);
    return query.orderBy('name_key').orderBy('id').execute();
  }

  /**
   * Every live entity of the ledger with its invoice count and open balances, summed from the per-entity rollup
   * (`entry_bill_totals`, a few rows per entity: docs/decisions/0400-rollups.md), the earliest due date of its unpaid
   * invoices (one seek each in `entries_live_unpaid_bill_due`, written as that index's condition states it; none for an
   * archived entity, as the due summary leaves it out) and the ranks its name key and category take in the database's
   * collation, by which the overview sorts them (`EntitySnapshots`).
   */
  overviewRowsQuery(ledgerId: number): RawBuilder<BillOverviewRow> {
    const paid = sql.lit(PAY_STATE.paid);
    return sql<BillOverviewRow>`
      with t as (
        select bill_id,
          sum(entry_count) as invoice_count,
          sum(case when flow = 'OUTGOING' then balance_cents else 0 end) as to_pay_cents,
          sum(case when flow = 'INCOMING' then balance_cents else 0 end) as to_collect_cents
        from entry_bill_totals where ledger_id = ${ledgerId} group by bill_id
      )
      select b.*, coalesce(t.invoice_count, 0) as invoice_count, coalesce(t.to_pay_cents, 0) as to_pay_cents,
        coalesce(t.to_collect_cents, 0) as to_collect_cents,
        case when b.status = 1 then (
          select min(e.due_date) from entries e
          where e.bill_id = b.id and e.recycled_at is null and e.due_date is not null and e.pay_state < ${paid}
        ) end as next_due,
        dense_rank() over (order by b.name_key) as name_rank,
        dense_rank() over (order by b.category) as category_rank
      from bills b left join t on t.bill_id = b.id
      where b.ledger_id = ${ledgerId} and b.recycled_at is null`;
  }

  /** `overviewRowsQuery`'s rows; on SQLite off the loop (milliseconds of sums for a thousand entities). */
  overviewRows(ledgerId: number): Promise<BillOverviewRow[]> {
    return readAside(this.db, this.overviewRowsQuery(ledgerId));
  }

  /** The schedules of the ledger's live entities, by entity then id (`schedules_bill`, a seek per entity). */
  schedulesOfLedger(ledgerId: number): Promise<ScheduleRow[]> {
    return readAside(
      this.db,
      this.db
        .selectFrom('bills as b')
        .innerJoin('schedules as s', 's.bill_id', 'b.id')
        .selectAll('s')
        .where('b.ledger_id', '=', ledgerId)
        .where('b.recycled_at', 'is', null)
        .orderBy('s.bill_id')
        .orderBy('s.id'),
    );
  }

  /** What the next invoice of each of these schedules would get now, by schedule id (one read for all of them). */
  scheduleEstimates(schedules: readonly ScheduleRow[]): Promise<Map<number, number>> {
    return scheduleEstimates(new SchedulesRepository(this.db), schedules);
  }

  findOwned(ledgerId: number, id: number) {
    return this.db
      .selectFrom('bills')
      .selectAll()
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
  }

  /** Reads the entity with a no-op update that holds its row lock until the transaction ends. */
  lockOwned(ledgerId: number, id: number) {
    return this.paymentTotals().lockBill(ledgerId, id);
  }

  /** Whether another live entity of this ledger holds the name, and whether that one is archived. */
  async nameHolder(ledgerId: number, nameKey: string, exceptId: number | null): Promise<NameHolder | null> {
    let query = this.db
      .selectFrom('bills')
      .select('status')
      .where('ledger_id', '=', ledgerId)
      .where('name_key', '=', nameKey)
      .where('recycled_at', 'is', null);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    const row = await query.executeTakeFirst();
    if (!row) return null;
    return row.status === 0 ? 'archived' : 'active';
  }

  insert(row: Insertable<BillsTable>) {
    return this.db.insertInto('bills').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<BillsTable>) {
    return this.db.updateTable('bills').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Copies the entity's columns onto all its invoices (recycled ones too, so a restore needs no fix-up). */
  copyToEntries(billId: number, columns: EntryBillColumns) {
    return this.db.updateTable('entries').set(columns).where('bill_id', '=', billId).execute();
  }

  /**
   * Deletes the entity's live invoices with it, flagged as cascaded. Their payments go next (see
   * `recyclePaymentsOfCascadedEntries`), so their totals drop to nothing paid here already.
   */
  recycleLiveEntries(billId: number, at: number) {
    return this.db
      .updateTable('entries')
      .set(recycledEntry(at, 1))
      .where('bill_id', '=', billId)
      .where('recycled_at', 'is', null)
      .returningAll()
      .execute();
  }

  recyclePaymentsOfCascadedEntries(billId: number, at: number) {
    return this.db
      .updateTable('payments')
      .set({ recycled_at: at, recycled_cascade: 1 })
      .where('recycled_at', 'is', null)
      .where('entry_id', 'in', (eb) =>
        eb
          .selectFrom('entries')
          .select('id')
          .where('bill_id', '=', billId)
          .where('recycled_at', '=', at)
          .where('recycled_cascade', '=', 1),
      )
      .returningAll()
      .execute();
  }

  /** Payments that left with a cascaded invoice come back with it; run before `restoreCascadedEntries`. */
  restorePaymentsOfCascadedEntries(billId: number) {
    return this.db
      .updateTable('payments')
      .set({ recycled_at: null, recycled_cascade: 0 })
      .where('recycled_at', 'is not', null)
      .where('recycled_cascade', '=', 1)
      .where('entry_id', 'in', (eb) =>
        eb
          .selectFrom('entries')
          .select('id')
          .where('bill_id', '=', billId)
          .where('recycled_at', 'is not', null)
          .where('recycled_cascade', '=', 1),
      )
      .returningAll()
      .execute();
  }

  /** Restores the invoices deleted together with the entity; returns them for the totals refresh and history. */
  restoreCascadedEntries(billId: number) {
    return this.db
      .updateTable('entries')
      .set({ recycled_at: null, recycled_cascade: 0 })
      .where('bill_id', '=', billId)
      .where('recycled_at', 'is not', null)
      .where('recycled_cascade', '=', 1)
      .returningAll()
      .execute();
  }
}
