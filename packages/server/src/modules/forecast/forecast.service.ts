import { addDays, utcDate } from '@billfold/contract/dates';
import type { Flow } from '@billfold/contract/entries';
import {
  FORECAST_ITEMS_PER_DAY,
  FORECAST_MONTHS,
  type Forecast,
  type ForecastItem,
  forecastEnd,
} from '@billfold/contract/forecast';
import { fromCents } from '@billfold/contract/money';
import type { Actor } from '../../lib/actor.ts';
import type { DueRepository } from '../due/due.repository.ts';
import { describeOccurrence, occurrenceOrder, type ScheduledOccurrence } from '../due/scheduled.ts';
import type { OpenInvoiceRow } from '../read-model/groups.ts';
import { day as dayNumber, isoDay } from '../read-model/ledger-index-columns.ts';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import type { ForecastRepository } from './forecast.repository.ts';

interface Day {
  incomeCents: number;
  expenseCents: number;
  items: ForecastItem[];
  count: number;
}

/** An invoice row of the due reads (an overdue one of `firstDue`, or a day's of `owedByDay`): what the forecast lists of it. */
type OpenRow = Omit<OpenInvoiceRow, 'due_date'> & { due_date: string | null };

const invoiceItem = (r: OpenRow): ForecastItem => ({
  kind: 'invoice',
  entryId: Number(r.id),
  invoiceId: Number(r.invoice_number),
  scheduleId: null,
  entityId: Number(r.bill_id),
  name: r.bill_name,
  dueDate: r.due_date ?? '',
  flow: r.flow as Flow,
  amount: fromCents(Number(r.balance_cents)),
  description: r.services,
});

const occurrenceItem = (o: ScheduledOccurrence): ForecastItem => ({
  kind: 'occurrence',
  entryId: null,
  invoiceId: null,
  scheduleId: o.scheduleId,
  entityId: o.entityId,
  name: o.name,
  dueDate: o.dueDate,
  flow: o.flow,
  amount: fromCents(o.amountCents),
  description: describeOccurrence(o),
});

/**
 * The cash-flow forecast (docs/decisions/1014-forecast.md): every day from today to the end of the horizon, with
 * what open invoices (their balance, by due date) and the schedules' pending occurrences (their amount, by due date)
 * bring in and take out, and the running balance from the ledger's starting balance. What is overdue counts today.
 * Sums in cents.
 */
export class ForecastService {
  constructor(
    private readonly due: DueRepository,
    private readonly repo: ForecastRepository,
    private readonly now: () => number,
  ) {}

  async forecast(
    ledger: LedgerAt,
    query: { months?: number | undefined; today?: string | undefined },
  ): Promise<Forecast> {
    const ledgerId = ledger.id;
    const today = query.today ?? utcDate(this.now());
    const months = query.months ?? FORECAST_MONTHS.default;
    const end = forecastEnd(today, months);
    const yesterday = addDays(today, -1);
    const days = new Map<string, Day>();
    const dayOf = (date: string) => {
      const key = date < today ? today : date;
      const day = days.get(key) ?? { incomeCents: 0, expenseCents: 0, items: [], count: 0 };
      days.set(key, day);
      return day;
    };
    const add = (day: Day, flow: string, cents: number, count: number) => {
      if (flow === 'INCOMING') day.incomeCents += cents;
      else day.expenseCents += cents;
      day.count += count;
    };
    // The item is made only when the day lists it: a long horizon reaches thousands of occurrences.
    const list = (day: Day, item: () => ForecastItem) => {
      if (day.items.length < FORECAST_ITEMS_PER_DAY) day.items.push(item());
    };
    const [overdue] = await this.due.totals(ledger, today, []);
    const first = dayOf(today);
    add(first, 'OUTGOING', overdue?.toPayCents ?? 0, 0);
    add(first, 'INCOMING', overdue?.toCollectCents ?? 0, overdue?.count ?? 0);
    for (const row of await this.due.firstDue(ledger, null, yesterday, FORECAST_ITEMS_PER_DAY))
      list(first, () => invoiceItem(row));
    for (const owed of await this.due.owedByDay(ledger, today, end, FORECAST_ITEMS_PER_DAY)) {
      const day = dayOf(owed.dueDate);
      add(day, 'INCOMING', owed.incomeCents, 0);
      add(day, 'OUTGOING', owed.expenseCents, owed.count);
      for (const row of owed.first) list(day, () => invoiceItem(row));
    }
    // After the invoices, as the due summary: an occurrence turned into an invoice meanwhile is missed, not doubled.
    // Every occurrence is summed into its day; only the days with room left for items sort theirs, to list the
    // first: a long horizon has thousands of occurrences, a day a few.
    const occurrences = await this.due.scheduled(ledger, null, end);
    const perDay = new Map<Day, ScheduledOccurrence[]>();
    for (const o of occurrences) {
      const day = dayOf(o.dueDate);
      add(day, o.flow, o.amountCents, 1);
      if (day.items.length >= FORECAST_ITEMS_PER_DAY) continue;
      const pending = perDay.get(day);
      if (pending) pending.push(o);
      else perDay.set(day, [o]);
    }
    const order = occurrenceOrder(occurrences);
    for (const [day, pending] of perDay) {
      for (const o of pending.sort(order).slice(0, FORECAST_ITEMS_PER_DAY - day.items.length)) {
        day.items.push(occurrenceItem(o));
      }
    }
    const starting = await this.repo.startingBalance(ledgerId);
    let balance = starting ?? 0;
    let lowest = { date: today, cents: Number.POSITIVE_INFINITY };
    let income = 0;
    let expenses = 0;
    const out: Forecast['days'] = [];
    // By day number: a date's text is looked up once it has been made (`isoDay`), not made afresh for each day.
    for (let d = dayNumber(today), last = dayNumber(end); d <= last; d++) {
      const date = isoDay(d);
      const day = days.get(date);
      const inCents = day?.incomeCents ?? 0;
      const outCents = day?.expenseCents ?? 0;
      balance += inCents - outCents;
      income += inCents;
      expenses += outCents;
      if (balance < lowest.cents) lowest = { date, cents: balance };
      out.push({
        date,
        income: fromCents(inCents),
        expenses: fromCents(outCents),
        balance: fromCents(balance),
        items: day?.items ?? [],
        more: (day?.count ?? 0) - (day?.items.length ?? 0),
      });
    }
    return {
      today,
      endDate: end,
      months,
      startingBalance: starting === null ? null : fromCents(starting),
      days: out,
      lowest: { date: lowest.date, balance: fromCents(lowest.cents) },
      income: fromCents(income),
      expenses: fromCents(expenses),
    };
  }

  /** What answered the forecast's invoices: the ledger's index, or SQL while it loads. */
  answeredBy(ledgerId: number): 'index' | 'sql' {
    return this.due.answeredBy(ledgerId);
  }

  async startingBalance(ledgerId: number): Promise<{ balance: number | null }> {
    const cents = await this.repo.startingBalance(ledgerId);
    return { balance: cents === null ? null : fromCents(cents) };
  }

  async setStartingBalance(actor: Actor, cents: number | null): Promise<{ balance: number | null }> {
    await this.repo.setStartingBalance(actor.ledgerId, cents, this.now());
    return { balance: cents === null ? null : fromCents(cents) };
  }
}
