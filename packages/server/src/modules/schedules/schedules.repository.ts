import { type Insertable, sql, type Updateable } from 'kysely';
import { isSqlite, readAside } from '../../db/database.ts';
import { notImporting } from '../../db/ledger-imports.ts';
import { NotificationEvents } from '../../db/notification-events.ts';
import { Repository } from '../../db/repository.ts';
import type { ScheduleOccurrencesTable, ScheduleRow, SchedulesTable } from '../../db/schema.ts';
import { EntriesRepository } from '../entries/entries.repository.ts';
import { PaymentsRepository } from '../payments/payments.repository.ts';

/** What a schedule's estimate is read by: the schedule (0 when not saved yet), its ledger, entity and flow. */
export type ActualsSource = Pick<ScheduleRow, 'id' | 'ledger_id' | 'bill_id' | 'flow'>;

/** A confirmed invoice `recentActuals` reads for schedule `sid`: one of its own (`own` 1) or of its entity's. */
type ActualRow = { sid: number; own: number; date: string; id: number; amount_cents: number };

/** The most schedules one statement of `recentActuals` reads for. */
export const ACTUALS_PER_STATEMENT = 1000;

/** Schedules, their occurrence claims, and the invoice and payment queries on the same connection. */
export class SchedulesRepository extends Repository {
  entries(): EntriesRepository {
    return new EntriesRepository(this.db);
  }

  /** The notification outbox, in this repository's transaction (docs/decisions/1150-notification-outbox.md). */
  notifications(): NotificationEvents {
    return new NotificationEvents(this.db);
  }

  payments(): PaymentsRepository {
    return new PaymentsRepository(this.db);
  }

  findBill(ledgerId: number, billId: number) {
    return this.db
      .selectFrom('bills')
      .select(['id', 'status', 'recycled_at'])
      .where('id', '=', billId)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
  }

  listOfBill(billId: number) {
    return this.db.selectFrom('schedules').selectAll().where('bill_id', '=', billId).orderBy('id').execute();
  }

  findOwned(ledgerId: number, id: number) {
    return this.db
      .selectFrom('schedules')
      .selectAll()
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
  }

  /** The schedule with its row lock held until the transaction ends (a no-op update, as for invoices). */
  lock(id: number) {
    return this.db
      .updateTable('schedules')
      .set((eb) => ({ paused: eb.ref('paused') }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  insert(row: Insertable<SchedulesTable>) {
    return this.db.insertInto('schedules').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<SchedulesTable>) {
    return this.db.updateTable('schedules').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('schedules').where('id', '=', id).execute();
  }

  /** The latest occurrence date already claimed, or undefined. */
  async lastClaimed(scheduleId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('schedule_occurrences')
      .select((eb) => eb.fn.max('occurrence_date').as('last'))
      .where('schedule_id', '=', scheduleId)
      .executeTakeFirst();
    return row?.last ?? undefined;
  }

  /**
   * Schedules with an occurrence due by `today` that are not paused, oldest first; none of a ledger an account import
   * is still writing (db/ledger-imports.ts).
   */
  async dueIds(today: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('schedules')
      .select('id')
      .where('next_date', '<=', today)
      .where('paused', '=', 0)
      .where(notImporting('ledger_id'))
      .orderBy('next_date')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The entity's live invoices (not in the recycle bin) dated on one of `dates` with this amount, oldest first:
   * what an invoice a schedule creates on those dates would stand beside.
   */
  sameInvoices(ledgerId: number, billId: number, dates: readonly string[], amountCents: number) {
    if (dates.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('entries')
      .select(['id', 'invoice_number', 'date'])
      .where('ledger_id', '=', ledgerId)
      .where('bill_id', '=', billId)
      .where('date', 'in', [...dates])
      .where('amount_cents', '=', amountCents)
      .where('recycled_at', 'is', null)
      .orderBy('date')
      .orderBy('id')
      .execute();
  }

  claim(row: Insertable<ScheduleOccurrencesTable>) {
    return this.db.insertInto('schedule_occurrences').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Claims the occurrence unless it is claimed already (an existing invoice taken over by a save told to skip
   * duplicates): the new claim, or undefined. One statement, on the unique key (schedule, date).
   */
  claimIfFree(row: Insertable<ScheduleOccurrencesTable>) {
    return this.db
      .insertInto('schedule_occurrences')
      .values(row)
      .onConflict((oc) => oc.columns(['schedule_id', 'occurrence_date']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async setOccurrence(id: number, changes: Updateable<ScheduleOccurrencesTable>): Promise<void> {
    await this.db.updateTable('schedule_occurrences').set(changes).where('id', '=', id).execute();
  }

  /**
   * Occurrences whose automatic payment is due by `today` (of `scheduleId` only, when given); none of a ledger an
   * account import is still writing.
   */
  async dueAutopayIds(today: string, limit: number, scheduleId?: number): Promise<number[]> {
    let query = this.db
      .selectFrom('schedule_occurrences')
      .select('id')
      .where('autopay_date', '<=', today)
      .where('schedule_id', 'in', (eb) => eb.selectFrom('schedules').select('id').where(notImporting('ledger_id')))
      .orderBy('autopay_date')
      .orderBy('id')
      .limit(limit);
    if (scheduleId !== undefined) query = query.where('schedule_id', '=', scheduleId);
    return (await query.execute()).map((r) => r.id);
  }

  findOccurrence(id: number) {
    return this.db.selectFrom('schedule_occurrences').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Takes the occurrence's pending automatic payment (clears the `date` read before): false when another process
   * took it first (the row lock makes this wait until that one commits, then find the date gone).
   */
  async takeAutopay(id: number, date: string): Promise<boolean> {
    const result = await this.db
      .updateTable('schedule_occurrences')
      .set({ autopay_date: null })
      .where('id', '=', id)
      .where('autopay_date', '=', date)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * For each schedule (by id; 0 for one not saved yet), the amounts, newest first by date then id, of at most `limit`
   * confirmed live invoices it created; or, when it has none, of its entity's confirmed live invoices of its flow:
   * what an estimate goes by (docs/decisions/0212-estimated-amounts.md). One statement for up to
   * `ACTUALS_PER_STATEMENT` of them (each binds four values; SQLite takes at most 32,766 in one statement): each
   * schedule's own invoices, and its entity's from the `limit`-th newest on (a seek of `entries_live_bill_date`
   * finds that date), of which only a schedule without own ones uses any.
   */
  async recentActuals(sources: readonly ActualsSource[], limit: number): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (limit <= 0 || sources.length === 0) return out;
    const found: ActualRow[] = [];
    for (let at = 0; at < sources.length; at += ACTUALS_PER_STATEMENT) {
      const part = sources.slice(at, at + ACTUALS_PER_STATEMENT);
      // Tens of milliseconds for a thousand variable schedules: on SQLite off the loop (the forecast reads them all).
      found.push(...(await readAside(this.db, this.recentActualsQuery(part, limit))));
    }
    // Newest first, the schedule's own before its entity's; a schedule with own invoices keeps only those.
    found.sort((a, b) => b.own - a.own || (a.date < b.date ? 1 : a.date > b.date ? -1 : Number(b.id) - Number(a.id)));
    const ownOf = new Set(found.filter((r) => Number(r.own) === 1).map((r) => Number(r.sid)));
    for (const r of found) {
      const sid = Number(r.sid);
      if (Number(r.own) === 0 && ownOf.has(sid)) continue;
      const amounts = out.get(sid) ?? [];
      if (amounts.length < limit) amounts.push(Number(r.amount_cents));
      out.set(sid, amounts);
    }
    return out;
  }

  /**
   * The statement of `recentActuals` (test/query-plan.test.ts reads its plan). `cross join` keeps SQLite reading from
   * the schedules outward (it would otherwise scan every invoice of the ledger first); the cut-off is a date only, so
   * that its seek walks `entries_live_bill_date` without a sort, and every invoice of that last day is read and
   * ordered by `recentActuals`.
   */
  recentActualsQuery(sources: readonly ActualsSource[], limit: number) {
    const rows = sources.map(
      (s) =>
        sql`(cast(${s.id} as bigint), cast(${s.ledger_id} as bigint), cast(${s.bill_id} as bigint), cast(${s.flow} as text))`,
    );
    const confirmed = (alias: string) =>
      sql`${sql.ref(`${alias}.recycled_at`)} is null and ${sql.ref(`${alias}.estimated`)} = 0`;
    const sameEntity = (alias: string) =>
      sql`${sql.ref(`${alias}.ledger_id`)} = src.ledger_id and ${sql.ref(`${alias}.bill_id`)} = src.bill_id and ${sql.ref(`${alias}.flow`)} = src.flow`;
    const entityNewest = sql`${sameEntity('e')} and ${confirmed('e')}
          and e.date >= coalesce((
            select x.date from entries x where ${sameEntity('x')} and ${confirmed('x')}
            order by x.date desc limit 1 offset ${limit - 1}
          ), '')`;
    // Each schedule's entity is sought on its own. PostgreSQL is told so with a lateral join that `offset 0` keeps
    // from being flattened into a plain join: as one, with 188 sources instead of 201, its planner hashed them against
    // a scan of every invoice of the database (1.7 s instead of 5 ms; docs/performance.md). SQLite has no lateral
    // join and seeks per source anyway (test/query-plan.test.ts).
    const ownEntity = isSqlite(this.db)
      ? sql`from src cross join entries e where ${entityNewest}`
      : sql`from src cross join lateral (
          select e.date, e.id, e.amount_cents from entries e where ${entityNewest} offset 0
        ) e`;
    return sql<ActualRow>`
      with src (sid, ledger_id, bill_id, flow) as (values ${sql.join(rows)})
      select src.sid as sid, 1 as own, e.date as date, e.id as id, e.amount_cents as amount_cents
        from src
        cross join schedule_occurrences o
        join entries e on e.id = o.entry_id
        where o.schedule_id = src.sid and ${confirmed('e')}
      union all
      select src.sid, 0, e.date, e.id, e.amount_cents
        ${ownEntity}`;
  }

  findSchedule(id: number) {
    return this.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findEntry(id: number) {
    return this.db.selectFrom('entries').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
