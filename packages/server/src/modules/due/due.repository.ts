import { addDays } from '@billfold/contract/dates';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import { EntitySnapshots } from '../bills/entity-snapshots.ts';
import { ENTRY_VIEW_COLUMNS, type OwedEntryView } from '../entries/entry.mapper.ts';
import { PAY_STATE } from '../payment-totals/payment-totals.ts';
import type { OwedDay } from '../read-model/groups.ts';
import type { LedgerAt, LedgerIndexes } from '../read-model/ledger-indexes.ts';
import { pendingOccurrences, type ScheduledOccurrence, type ScheduleWithEntity } from './scheduled.ts';

/** Counts and owed sums of one window of due dates, in cents. */
export interface DueTotals {
  count: number;
  toPayCents: number;
  toCollectCents: number;
}

/**
 * Reads of live, unpaid invoices of active entities that have a due date: the rows of the partial index
 * `entries_live_unpaid_due`, written the way it states them so that both databases read it as a range.
 */
/** Overdue (any time before `today`), then from `today` to `today + d` for each `d` of `within`. */
export const dueWindows = (today: string, within: readonly number[]): { from: string | null; to: string }[] => [
  { from: null, to: addDays(today, -1) },
  ...within.map((d) => ({ from: today, to: addDays(today, d) })),
];

export class DueRepository extends Repository {
  constructor(
    db: Db,
    private readonly indexes?: LedgerIndexes,
    private readonly snapshots = new EntitySnapshots(db),
  ) {
    super(db);
  }

  /**
   * The ledgers a user is a member of, their personal ledger first, then by id: a reminder digest and a calendar
   * feed, which are the user's, cover every one of them (docs/decisions/0107-ledgers.md).
   */
  async ledgersOf(userId: number): Promise<{ id: number; name: string }[]> {
    const rows = await this.db
      .selectFrom('ledger_members as m')
      .innerJoin('ledgers as l', 'l.id', 'm.ledger_id')
      .select(['l.id', 'l.name'])
      .where('m.user_id', '=', userId)
      .orderBy(sql`case when l.personal_user_id = ${userId} then 0 else 1 end`)
      .orderBy('l.id')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name }));
  }

  private unpaidDue(ledgerId: number) {
    return this.db
      .selectFrom('entries')
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', 'is', null)
      .where('due_date', 'is not', null)
      .where(sql.ref('pay_state'), '<', sql.lit(PAY_STATE.paid))
      .where('archived', '=', 0);
  }

  /** What answered the ledger's latest read of open invoices: its index, or SQL (`Server-Timing`). */
  answeredBy(ledgerId: number): 'index' | 'sql' {
    return this.indexes?.answered(ledgerId) ?? 'sql';
  }

  /**
   * Overdue (due before `today`) and due from `today` to `today + d` for each `d` of `within`, in one range read
   * of the covering index up to the last window's end.
   */
  async totals(ledger: LedgerAt, today: string, within: readonly number[]): Promise<DueTotals[]> {
    // From the ledger's index when it is ready (one pass in memory), else one range read of the index below.
    const indexed = await this.indexes?.read(
      ledger.id,
      (index) => index.dueTotals(dueWindows(today, within)),
      ledger.version,
    );
    if (indexed) return indexed.value;
    const row = await this.totalsQuery(ledger.id, today, within).executeTakeFirst();
    const value = (key: string) => Number((row as Record<string, unknown> | undefined)?.[key] ?? 0);
    return [-1, ...within].map((_, i) => ({
      count: value(`n${i}`),
      toPayCents: value(`pay${i}`),
      toCollectCents: value(`get${i}`),
    }));
  }

  totalsQuery(ledgerId: number, today: string, within: readonly number[]) {
    const windows = dueWindows(today, within);
    const last = addDays(today, Math.max(0, ...within));
    const inWindow = (w: { from: string | null; to: string }) =>
      w.from === null ? sql`due_date <= ${w.to}` : sql`due_date >= ${w.from} and due_date <= ${w.to}`;
    return this.unpaidDue(ledgerId)
      .where('due_date', '<=', last)
      .select(
        windows.flatMap((w, i) => [
          sql<number>`sum(case when ${inWindow(w)} then 1 else 0 end)`.as(`n${i}`),
          sql<number>`sum(case when ${inWindow(w)} and flow = 'OUTGOING' then balance_cents else 0 end)`.as(`pay${i}`),
          sql<number>`sum(case when ${inWindow(w)} and flow = 'INCOMING' then balance_cents else 0 end)`.as(`get${i}`),
        ]),
      );
  }

  /**
   * The first `limit` invoices due in `[from, to]` (from the beginning when `from` is null), soonest first: built
   * from the ledger's index when it is ready (no query), else one range read of the index below.
   */
  async firstDue(ledger: LedgerAt, from: string | null, to: string, limit: number): Promise<OwedEntryView[]> {
    const indexed = await this.indexes?.read(ledger.id, (index) => index.firstDue(from, to, limit), ledger.version);
    if (indexed) return indexed.value;
    return this.firstDueQuery(ledger.id, from, to, limit).execute();
  }

  firstDueQuery(ledgerId: number, from: string | null, to: string, limit: number) {
    let q = this.unpaidDue(ledgerId).where('due_date', '<=', to);
    if (from !== null) q = q.where('due_date', '>=', from);
    return q
      .select([...ENTRY_VIEW_COLUMNS, 'balance_cents'])
      .orderBy('due_date')
      .orderBy('invoice_number')
      .limit(limit);
  }

  /**
   * Per due day in `[from, to]`, soonest first: how many invoices, what is still owed on the income and on the
   * expenses in cents, and the first `perDay` of the day by invoice number (the forecast). From the ledger's index
   * when it is ready, as the totals; else one grouped read and one ranked read of the index below.
   */
  async owedByDay(ledger: LedgerAt, from: string, to: string, perDay: number): Promise<OwedDay[]> {
    const ledgerId = ledger.id;
    const indexed = await this.indexes?.read(ledgerId, (index) => index.owedByDay(from, to, perDay), ledger.version);
    if (indexed) return indexed.value;
    const days = new Map<string, OwedDay>();
    const dayOf = (dueDate: string) => {
      const found = days.get(dueDate) ?? { dueDate, count: 0, incomeCents: 0, expenseCents: 0, first: [] };
      days.set(dueDate, found);
      return found;
    };
    for (const r of await this.owedPerDayQuery(ledgerId, from, to).execute()) {
      const owed = dayOf(r.due_date as string);
      owed.count += Number(r.n);
      if (r.flow === 'INCOMING') owed.incomeCents += Number(r.owed);
      else owed.expenseCents += Number(r.owed);
    }
    for (const r of await this.firstPerDayQuery(ledgerId, from, to, perDay).execute()) {
      dayOf(r.due_date as string).first.push({
        id: Number(r.id),
        invoice_number: Number(r.invoice_number),
        bill_id: Number(r.bill_id),
        bill_name: r.bill_name,
        due_date: r.due_date as string,
        flow: r.flow,
        services: r.services,
        balance_cents: Number(r.balance_cents),
      });
    }
    return [...days.values()].sort((a, b) => a.dueDate.localeCompare(b.dueDate));
  }

  private owedPerDayQuery(ledgerId: number, from: string, to: string) {
    return this.unpaidDue(ledgerId)
      .where('due_date', '>=', from)
      .where('due_date', '<=', to)
      .select((eb) => [
        'due_date',
        'flow',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('balance_cents').as('owed'),
      ])
      .groupBy(['due_date', 'flow']);
  }

  private firstPerDayQuery(ledgerId: number, from: string, to: string, perDay: number) {
    const ranked = this.unpaidDue(ledgerId)
      .where('due_date', '>=', from)
      .where('due_date', '<=', to)
      .select([
        'id',
        'invoice_number',
        'bill_id',
        'bill_name',
        'due_date',
        'flow',
        'services',
        'balance_cents',
        sql<number>`row_number() over (partition by due_date order by invoice_number)`.as('rank'),
      ]);
    return this.db
      .selectFrom(ranked.as('r'))
      .selectAll()
      .where('rank', '<=', perDay)
      .orderBy('due_date')
      .orderBy('invoice_number');
  }

  /** Invoices due from `from` on, soonest first, at most `limit`: the calendar feed and the reminders read these. */
  dueFrom(ledgerId: number, from: string, limit: number) {
    return this.unpaidDue(ledgerId)
      .where('due_date', '>=', from)
      .select([
        'id',
        'invoice_number',
        'bill_name',
        'date',
        'due_date',
        'flow',
        'balance_cents',
        'services',
        'created_at',
      ])
      .orderBy('due_date')
      .orderBy('invoice_number')
      .limit(limit)
      .execute();
  }

  /**
   * What the ledger's schedules will still create with a due date in `[from, to]` (from their cursor when `from` is
   * null): schedules not paused and not ended, of entities that are active and not in the recycle bin (the runner
   * passes over what falls due on the others, docs/decisions/1010-recurring-invoices.md), each occurrence at the amount
   * its invoice would get now (a schedule's estimate, docs/decisions/0212-estimated-amounts.md). From the ledger's
   * snapshot (`EntitySnapshots`) at the request's version, or at the version of the ledger index it read the invoices
   * from when that one is newer: an occurrence turned into an invoice is then never counted twice.
   */
  async scheduled(ledger: LedgerAt, from: string | null, to: string): Promise<ScheduledOccurrence[]> {
    const indexed = this.indexes?.versionOf(ledger.id);
    const at =
      ledger.version === undefined ? ledger : { id: ledger.id, version: Math.max(ledger.version, indexed ?? 0) };
    const { schedules, byId, estimates } = await this.snapshots.of(at);
    const pending: ScheduleWithEntity[] = [];
    for (const [billId, list] of schedules) {
      const bill = byId.get(billId);
      if (!bill || Number(bill.status) !== 1) continue;
      for (const s of list)
        if (Number(s.paused) === 0 && s.next_date !== null && s.next_date <= to)
          pending.push({ ...s, bill_name: bill.name, amount_cents: estimates.get(s.id) ?? s.amount_cents });
    }
    return pending.sort((a, b) => a.id - b.id).flatMap((s) => pendingOccurrences(s, from, to));
  }
}
