import type { Category } from '@billfold/contract/categories';
import { addDays, utcDate } from '@billfold/contract/dates';
import type { PaymentMethodCode } from '@billfold/contract/payment-methods';
import { type Cadence, firstOccurrenceOnOrAfter } from '@billfold/contract/schedule-dates';
import type { Insertable } from 'kysely';
import type { SchedulesTable } from '../../packages/server/src/db/schema.ts';
import { Random } from '../lib/random.ts';
import type { GenBill } from './generate.ts';

/** What a recurring bill of a category looks like: how often, how much (dollars), its terms and how it is paid. */
interface Recurring {
  share: number;
  cadence: Cadence;
  interval?: number;
  dollars: [number, number];
  template: string;
  dueDays: [number, number];
  autopay: { chance: number; methods: PaymentMethodCode[] };
  /** Ends after this many invoices (a loan), or open-ended. */
  count?: [number, number];
  /**
   * Bills that vary from month to month are estimated (docs/decisions/0212-estimated-amounts.md): every other
   * schedule of the kind "same as last", the others "average of the last 3"; none when left out (fixed).
   */
  estimated?: true;
}

const MONTHLY_AUTOPAY = { chance: 0.6, methods: ['bank|ach', 'debit|web'] as PaymentMethodCode[] };

/** Categories whose bills recur, and how; the rest get no schedule. */
export const RECURRING: Partial<Record<Category, Recurring>> = {
  'Mortgage / Rent': {
    share: 0.8,
    cadence: 'monthly',
    dollars: [900, 3200],
    template: 'Rent {month} {year}',
    dueDays: [0, 5],
    autopay: MONTHLY_AUTOPAY,
  },
  Utilities: {
    share: 0.6,
    cadence: 'monthly',
    dollars: [40, 260],
    template: 'Service {month} {year}',
    dueDays: [14, 21],
    estimated: true,
    autopay: MONTHLY_AUTOPAY,
  },
  Subscriptions: {
    share: 0.7,
    cadence: 'monthly',
    dollars: [5, 25],
    template: 'Subscription {month} {year}',
    dueDays: [0, 0],
    autopay: { chance: 0.95, methods: ['credit|web', 'other|ewallet'] },
  },
  Insurance: {
    share: 0.5,
    cadence: 'quarterly',
    dollars: [150, 700],
    template: 'Premium {quarter} {year}',
    dueDays: [10, 30],
    autopay: MONTHLY_AUTOPAY,
  },
  'Auto Insurance': {
    share: 0.5,
    cadence: 'yearly',
    dollars: [600, 1900],
    template: 'Annual premium {year}',
    dueDays: [15, 30],
    autopay: { chance: 0.3, methods: ['bank|ach'] },
  },
  'Auto Loan': {
    share: 0.7,
    cadence: 'monthly',
    dollars: [250, 650],
    template: 'Loan payment {n}',
    dueDays: [0, 10],
    autopay: MONTHLY_AUTOPAY,
    count: [12, 60],
  },
  'Home Services': {
    share: 0.3,
    cadence: 'weekly',
    interval: 2,
    dollars: [60, 160],
    template: 'Cleaning {date}',
    dueDays: [0, 7],
    estimated: true,
    autopay: { chance: 0.2, methods: ['other|service'] },
  },
  'Personal Care / Fitness': {
    share: 0.3,
    cadence: 'monthly',
    dollars: [20, 90],
    template: 'Membership {month}',
    dueDays: [0, 0],
    autopay: { chance: 0.9, methods: ['credit|web'] },
  },
};

/**
 * Schedules for a ledger's seeded entities: a share of the entities of recurring categories (rent, utilities,
 * subscriptions, insurance, loans, cleaning, gym), one in twenty paused; then, while there are fewer than `atLeast`,
 * further schedules on entities of those categories drawn at random (an entity may have several: a second
 * subscription, a parking space beside the rent). Each starts with its first occurrence after `now`, so it has
 * created nothing yet and the server's job has nothing to back-fill at start-up.
 */
export function generateSchedules(ledgerId: number, bills: readonly GenBill[], seed: number, now: number, atLeast = 0) {
  const random = new Random(seed * 104_729 + ledgerId);
  const tomorrow = addDays(utcDate(now), 1);
  const rows: Insertable<SchedulesTable>[] = [];
  const add = (bill: GenBill, kind: Recurring) => {
    const day = random.int(1, 28) + (random.chance(0.1) ? 3 : 0);
    const rule = {
      cadence: kind.cadence,
      interval: kind.interval ?? 1,
      dayOfMonth: kind.cadence === 'weekly' ? null : Math.min(day, 31),
      firstDate: tomorrow,
      endDate: null,
    };
    const start = firstOccurrenceOnOrAfter(rule, tomorrow) ?? tomorrow;
    const autopay = random.chance(kind.autopay.chance) ? random.pick(kind.autopay.methods) : null;
    rows.push({
      ledger_id: ledgerId,
      bill_id: bill.id,
      cadence: rule.cadence,
      interval: rule.interval,
      day_of_month: rule.dayOfMonth,
      first_date: start,
      end_date: null,
      max_count: kind.count ? random.int(kind.count[0], kind.count[1]) : null,
      amount_cents: random.int(kind.dollars[0] * 100, kind.dollars[1] * 100),
      flow: 'OUTGOING',
      template: kind.template,
      due_days: random.int(kind.dueDays[0], kind.dueDays[1]),
      autopay_method: autopay,
      // One in twenty is paused.
      paused: rows.length % 20 === 7 ? 1 : 0,
      next_date: start,
      created_count: 0,
      created_at: now,
      // No draw of the generator: the same seed still makes the same data set as before estimates.
      ...(!kind.estimated
        ? { amount_mode: 'fixed', amount_of: null }
        : rows.length % 2 === 0
          ? { amount_mode: 'last', amount_of: null }
          : { amount_mode: 'average', amount_of: 3 }),
    });
  };
  const seen = new Set<Category>();
  const recurring: [GenBill, Recurring][] = [];
  for (const bill of bills) {
    const kind = RECURRING[bill.category];
    // The first entity of each recurring category always has one, so even a small data set shows every kind.
    const first = !seen.has(bill.category);
    seen.add(bill.category);
    if (!kind || bill.internal) continue;
    recurring.push([bill, kind]);
    if (first || random.chance(kind.share)) add(bill, kind);
  }
  while (rows.length < atLeast && recurring.length > 0) add(...random.pick(recurring));
  return rows;
}
