import { CATEGORIES, type Category } from '@billfold/contract/categories';
import { addDays } from '@billfold/contract/dates';
import type { Flow } from '@billfold/contract/entries';
import { PAYMENT_METHOD_CODES, type PaymentMethodCode, splitMethod } from '@billfold/contract/payment-methods';
import { derivePayment } from '../../packages/server/src/modules/payment-totals/payment-totals.ts';
import { Random, WeightedPicker } from '../lib/random.ts';

/**
 * The benchmark data set, generated without I/O: one user's entities, then their invoices in date order
 * (so invoice numbers grow with dates, as they do when people enter bills as they come) in batches with
 * their payments. Every stored derivation matches what the write API keeps: entity columns are copied
 * onto entries and payment totals come from `derivePayment` over the entry's non-recycled payments.
 */

const DAY_MS = 86_400_000;
export const YEARS = 10;
const MAX_CENTS = 99_999_999_999;

export interface GenBill {
  id: number;
  name: string;
  nameKey: string;
  category: Category;
  internal: boolean;
  archived: boolean;
  recycledAt: number | null;
  createdAt: number;
}

export interface GenEntry {
  id: number;
  invoiceNumber: number;
  bill: GenBill;
  date: string;
  flow: Flow;
  amountCents: number;
  services: string;
  /** Most expenses are due 10–30 days after their date, half the income 14 or 30 days after; null without one. */
  dueDate: string | null;
  paidCents: number;
  paymentCount: number;
  balanceCents: number;
  payState: number;
  recycledAt: number | null;
  recycledCascade: 0 | 1;
  createdAt: number;
}

export interface GenPayment {
  id: number;
  entryId: number;
  date: string;
  amountCents: number;
  type: string;
  medium: string;
  notes: string;
  autopay: 0 | 1;
  recycledAt: number | null;
  recycledCascade: 0 | 1;
  createdAt: number;
}

export interface GenBatch {
  entries: GenEntry[];
  payments: GenPayment[];
}

export interface GenerateOptions {
  userId: number;
  entities: number;
  invoices: number;
  /** Same seed, same data. */
  seed: number;
  /** "Today" of the data set (epoch ms): dates end here and recycle times fall within the last 14 days. */
  now: number;
  firstBillId: number;
  firstEntryId: number;
  firstPaymentId: number;
  /** Invoice numbers start after this (the ledger's `last_invoice_number`). */
  lastInvoiceNumber: number;
  batchSize?: number;
}

/** Typical amount (median dollars, log spread) and usual methods of each category. */
interface Profile {
  median: number;
  sigma: number;
  methods: PaymentMethodCode[];
  words: string[];
  services: string[];
}

const PROFILES: Record<Category, Profile> = {
  Uncategorized: {
    median: 80,
    sigma: 1,
    methods: ['credit|web', 'debit|person'],
    words: ['General', 'Misc', 'Store'],
    services: ['Purchase', 'Order'],
  },
  'Auto Insurance': {
    median: 145,
    sigma: 0.25,
    methods: ['bank|ach', 'credit|web'],
    words: ['Auto Insurance', 'Car Insurance', 'Motor Cover'],
    services: ['Premium', 'Policy renewal'],
  },
  'Auto Loan': {
    median: 410,
    sigma: 0.15,
    methods: ['bank|ach', 'check|mail'],
    words: ['Auto Finance', 'Car Loans', 'Motor Credit'],
    services: ['Loan installment', 'Monthly payment'],
  },
  'Auto Repairs': {
    median: 320,
    sigma: 0.8,
    methods: ['credit|person', 'debit|person', 'cash|person'],
    words: ['Auto Repair', 'Tire & Brake', 'Garage'],
    services: ['Oil change', 'Brake service', 'Inspection', 'Repair'],
  },
  'Debt Payments': {
    median: 280,
    sigma: 0.6,
    methods: ['bank|ach', 'check|mail'],
    words: ['Card Services', 'Credit Union', 'Lending'],
    services: ['Minimum payment', 'Statement balance'],
  },
  Dining: {
    median: 42,
    sigma: 0.6,
    methods: ['credit|person', 'debit|person', 'cash|person', 'other|ewallet'],
    words: ['Bistro', 'Diner', 'Pizzeria', 'Grill', 'Cafe'],
    services: ['Dinner', 'Lunch', 'Takeout', 'Catering'],
  },
  Donations: {
    median: 50,
    sigma: 0.8,
    methods: ['credit|web', 'check|mail', 'other|service'],
    words: ['Foundation', 'Food Bank', 'Relief Fund'],
    services: ['Donation', 'Monthly pledge'],
  },
  Entertainment: {
    median: 35,
    sigma: 0.7,
    methods: ['credit|web', 'debit|web', 'other|ewallet'],
    words: ['Cinema', 'Theater', 'Arena', 'Games'],
    services: ['Tickets', 'Admission', 'Season pass'],
  },
  Financial: {
    median: 500,
    sigma: 1.2,
    methods: ['bank|ach', 'check|mail', 'cyber|web'],
    words: ['Bank', 'Brokerage', 'Advisors', 'Trust'],
    services: ['Fee', 'Transfer', 'Contribution', 'Interest'],
  },
  'Friends / Family': {
    median: 100,
    sigma: 1,
    methods: ['other|service', 'cash|person', 'check|person'],
    words: ['Family', 'Friends', 'Household'],
    services: ['Shared dinner', 'Gift', 'Loan', 'Trip share'],
  },
  Fuel: {
    median: 52,
    sigma: 0.3,
    methods: ['credit|person', 'debit|person'],
    words: ['Fuel', 'Gas Station', 'Petroleum'],
    services: ['Fill-up', 'Diesel', 'Gasoline'],
  },
  Groceries: {
    median: 95,
    sigma: 0.5,
    methods: ['debit|person', 'credit|person', 'cash|person', 'other|ewallet'],
    words: ['Market', 'Grocers', 'Foods', 'Farm Stand'],
    services: ['Weekly shop', 'Groceries', 'Delivery order'],
  },
  Healthcare: {
    median: 140,
    sigma: 1,
    methods: ['credit|web', 'check|mail', 'credit|person'],
    words: ['Medical Group', 'Clinic', 'Dental', 'Pharmacy'],
    services: ['Copay', 'Office visit', 'Prescription', 'Lab work'],
  },
  'HOA / Taxes': {
    median: 650,
    sigma: 0.8,
    methods: ['check|mail', 'bank|ach'],
    words: ['HOA', 'County Tax', 'Tax Office'],
    services: ['Quarterly dues', 'Property tax', 'Assessment'],
  },
  'Home Services': {
    median: 190,
    sigma: 0.7,
    methods: ['check|person', 'credit|web', 'other|service'],
    words: ['Plumbing', 'Lawn Care', 'Cleaning', 'Electricians'],
    services: ['Service call', 'Maintenance', 'Repair visit'],
  },
  Insurance: {
    median: 120,
    sigma: 0.4,
    methods: ['bank|ach', 'credit|web'],
    words: ['Life Insurance', 'Home Insurance', 'Mutual'],
    services: ['Premium', 'Policy'],
  },
  'Mortgage / Rent': {
    median: 1850,
    sigma: 0.12,
    methods: ['bank|ach', 'check|mail'],
    words: ['Mortgage', 'Properties', 'Realty', 'Apartments'],
    services: ['Rent', 'Mortgage payment'],
  },
  'Personal Care / Fitness': {
    median: 55,
    sigma: 0.5,
    methods: ['credit|person', 'debit|web', 'cash|person'],
    words: ['Fitness', 'Salon', 'Spa', 'Yoga'],
    services: ['Membership', 'Haircut', 'Class pack'],
  },
  Shopping: {
    median: 65,
    sigma: 0.9,
    methods: ['credit|web', 'credit|person', 'other|ewallet', 'debit|web'],
    words: ['Outlet', 'Emporium', 'Online Store', 'Boutique'],
    services: ['Order', 'Purchase', 'Return fee'],
  },
  Subscriptions: {
    median: 14,
    sigma: 0.5,
    methods: ['credit|web', 'debit|web'],
    words: ['Streaming', 'Cloud', 'News', 'Music'],
    services: ['Monthly plan', 'Annual plan', 'Subscription'],
  },
  Utilities: {
    median: 115,
    sigma: 0.4,
    methods: ['bank|ach', 'credit|web', 'debit|web'],
    words: ['Electric', 'Water', 'Gas & Power', 'Internet', 'Waste'],
    services: ['Monthly bill', 'Service charge', 'Usage'],
  },
};

const PLACES = [
  'Acme',
  'Summit',
  'Lakeside',
  'Riverbend',
  'Northgate',
  'Oakwood',
  'Pioneer',
  'Harbor',
  'Granite',
  'Sunrise',
  'Cedar',
  'Metro',
  'Valley',
  'Bayview',
  'Redwood',
  'Evergreen',
  'Liberty',
  'Prairie',
  'Silverline',
  'Westfield',
  'Blue Ridge',
  'Maple',
  'Crescent',
  'Ironwood',
  'Highland',
  'Coastal',
  'Union',
  'Keystone',
  'Golden',
  'Willow',
];

const INCOME_WORDS = ['Consulting Client', 'Payroll', 'Rental Tenant', 'Dividends', 'Freelance Client', 'Royalties'];
const INCOME_METHODS: PaymentMethodCode[] = ['bank|ach', 'check|mail', 'other|service', 'cash|person'];
const NOTES = [
  'Paid online',
  'Confirmation sent by email',
  'Late fee included',
  'Split across two cards',
  'Receipt in folder',
  'Autopay',
  'Partial, rest next month',
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Per-entity behaviour the invoices follow. */
interface BillModel {
  bill: GenBill;
  flow: Flow;
  median: number;
  sigma: number;
  preferred: PaymentMethodCode;
  autopay: boolean;
  services: string[];
  /** Archived entities stop getting invoices after this day index. */
  lastDay: number;
}

export interface GeneratedUser {
  bills: GenBill[];
  /** Invoices in date order, `batchSize` at a time, each with its payments. */
  batches: Generator<GenBatch>;
}

export function generateUser(options: GenerateOptions): GeneratedUser {
  const random = new Random(options.seed * 7919 + options.userId);
  const today = Math.floor(options.now / DAY_MS);
  const firstDay = today - YEARS * 365 - Math.floor(YEARS / 4);
  const dayCount = today - firstDay + 1;
  const days: string[] = [];
  for (let d = firstDay; d <= today; d++) days.push(new Date(d * DAY_MS).toISOString().slice(0, 10));
  const models = makeBills(options, random, dayCount);
  return { bills: models.map((m) => m.bill), batches: makeBatches(options, random, models, days, firstDay) };
}

function makeBills(options: GenerateOptions, random: Random, dayCount: number): BillModel[] {
  const names = new Set<string>();
  const uniqueName = (base: string) => {
    let name = base;
    for (let n = 2; names.has(name.toLowerCase()); n++) name = `${base} ${n}`;
    names.add(name.toLowerCase());
    return name;
  };
  const categoryPicker = new WeightedPicker<Category>(
    CATEGORIES,
    CATEGORIES.map((c) => (c === 'Uncategorized' ? 3 : c === 'Mortgage / Rent' ? 1 : 5)),
  );
  const models: BillModel[] = [];
  // Recycled entities are the smallest ones: a few hundred invoices go to the bin with them.
  const recycledCount = Math.max(1, Math.round(options.entities * 0.005));
  for (let i = 0; i < options.entities; i++) {
    // The first 21 entities cover every category once; the rest are drawn by weight.
    const category = i < CATEGORIES.length ? (CATEGORIES[i] as Category) : categoryPicker.pick(random);
    const profile = PROFILES[category];
    const roll = random.next();
    const internal = i >= CATEGORIES.length && roll < 0.04;
    const income = !internal && roll >= 0.04 && roll < 0.16;
    const archived = i >= 2 && random.chance(0.08);
    const recycled = i >= options.entities - recycledCount;
    const place = random.pick(PLACES);
    let name: string;
    if (internal) name = uniqueName(`Transfer to ${random.pick(['Savings', 'Brokerage', 'Joint Account', 'IRA'])}`);
    else if (income) name = uniqueName(`${place} ${random.pick(INCOME_WORDS)}`);
    else name = uniqueName(`${place} ${random.pick(profile.words)}`);
    const createdDay = Math.floor(random.next() * dayCount * 0.3);
    const bill: GenBill = {
      id: options.firstBillId + i,
      name,
      nameKey: name.toLowerCase(),
      category,
      internal,
      archived,
      recycledAt: recycled ? options.now - random.int(1, 10 * 24) * 3_600_000 : null,
      createdAt: options.now - (dayCount - createdDay) * DAY_MS,
    };
    models.push({
      bill,
      flow: income ? 'INCOMING' : 'OUTGOING',
      median: income ? 1_500 : internal ? 800 : profile.median,
      sigma: income ? 1 : profile.sigma,
      preferred: income ? random.pick(INCOME_METHODS) : random.pick(profile.methods),
      autopay: random.chance(0.3),
      services: income ? ['Invoice', 'Salary', 'Rent received', 'Payout'] : profile.services,
      lastDay: archived ? Math.floor(dayCount * (0.3 + 0.6 * random.next())) : dayCount,
    });
  }
  return models;
}

function* makeBatches(
  options: GenerateOptions,
  random: Random,
  models: BillModel[],
  days: string[],
  firstDay: number,
): Generator<GenBatch> {
  // Due dates draw from their own stream, so every other column stays what the same seed always gave.
  const dueRandom = new Random(options.seed * 7919 + options.userId + 104_729);
  const batchSize = options.batchSize ?? 10_000;
  const dayCount = days.length;
  const lastDayIndex = dayCount - 1;
  // Zipf-like weights over a shuffled order: a few busy entities, a long tail. Recycled ones are smallest.
  const order = models.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const rank = new Array<number>(models.length);
  let nextRank = 1;
  for (const i of order) if (models[i]?.bill.recycledAt === null) rank[i] = nextRank++;
  for (const i of order) if (models[i]?.bill.recycledAt !== null) rank[i] = nextRank++;
  const picker = new WeightedPicker(
    models,
    models.map((_, i) => 1 / (rank[i] as number) ** 0.9),
  );
  const paymentCounts = new WeightedPicker([0, 1, 2, 3, 4], [10, 45, 31, 10, 4]);

  let entryId = options.firstEntryId;
  let paymentId = options.firstPaymentId;
  let invoiceNumber = options.lastInvoiceNumber;
  let entries: GenEntry[] = [];
  let payments: GenPayment[] = [];

  for (let n = 0; n < options.invoices; n++) {
    // u^0.75 puts more invoices in recent years, as a growing household or business has.
    const dayIndex = Math.min(lastDayIndex, Math.floor(((n + 0.5) / options.invoices) ** 0.75 * dayCount));
    let model = picker.pick(random);
    for (let tries = 0; model.lastDay < dayIndex && tries < 8; tries++) model = picker.pick(random);
    const bill = model.bill;
    const flow = bill.internal ? 'OUTGOING' : random.chance(0.02) ? flip(model.flow) : model.flow;
    let amountCents = Math.round(random.logNormal(model.median, model.sigma) * 100);
    if (random.chance(0.3)) amountCents = Math.round(amountCents / 100) * 100;
    amountCents = Math.min(Math.max(amountCents, 100), MAX_CENTS);
    const date = days[dayIndex] as string;
    const createdAt = (firstDay + dayIndex) * DAY_MS + random.int(8, 20) * 3_600_000;
    entryId += 1;
    invoiceNumber += 1;
    const id = entryId - 1;

    // Recycled: with the entity (cascade), or on its own (0.15 %); either way its payments go with it.
    let recycledAt: number | null = null;
    let recycledCascade: 0 | 1 = 0;
    if (bill.recycledAt !== null) {
      recycledAt = bill.recycledAt;
      recycledCascade = 1;
    } else if (random.chance(0.0015)) {
      recycledAt = options.now - random.int(1, 13 * 24) * 3_600_000;
    }

    // Recent invoices are more often still open.
    const age = lastDayIndex - dayIndex;
    let count = age < 30 && random.chance(0.55) ? 0 : paymentCounts.pick(random);
    let total = 0;
    if (count > 0) {
      const outcome = random.next();
      if (outcome < 0.85) total = amountCents;
      else if (outcome < 0.95) total = Math.round(amountCents * (0.2 + 0.7 * random.next()));
      else total = Math.round(amountCents * (1.01 + 0.19 * random.next()));
      count = Math.min(count, total);
    }
    let livePaid = 0;
    let liveCount = 0;
    let remaining = total;
    let payDay = dayIndex;
    for (let p = 0; p < count; p++) {
      const last = p === count - 1;
      const share = last ? remaining : Math.max(1, Math.round((remaining / (count - p)) * (0.5 + random.next())));
      const cents = Math.min(share, remaining - (count - p - 1));
      remaining -= cents;
      payDay = Math.min(lastDayIndex, payDay + random.int(0, 20));
      const code = random.chance(0.75) ? model.preferred : random.pick(PAYMENT_METHOD_CODES);
      const [type, medium] = splitMethod(code);
      let paymentRecycledAt = recycledAt;
      let paymentCascade: 0 | 1 = recycledAt === null ? 0 : 1;
      // A few payments deleted on their own (0.1 %): they stay out of the entry's totals.
      if (random.chance(0.001)) {
        paymentRecycledAt = options.now - random.int(1, 13 * 24) * 3_600_000;
        paymentCascade = 0;
      }
      if (paymentRecycledAt === null) {
        livePaid += cents;
        liveCount += 1;
      }
      payments.push({
        id: paymentId++,
        entryId: id,
        date: days[payDay] as string,
        amountCents: cents,
        type,
        medium,
        notes: random.chance(0.15) ? random.pick(NOTES) : '',
        autopay: model.autopay && (code === 'bank|ach' || code === 'credit|web' || code === 'debit|web') ? 1 : 0,
        recycledAt: paymentRecycledAt,
        recycledCascade: paymentCascade,
        createdAt: (firstDay + payDay) * DAY_MS + random.int(8, 20) * 3_600_000,
      });
    }
    const derived = derivePayment(amountCents, livePaid, liveCount);
    entries.push({
      id,
      invoiceNumber,
      bill,
      date,
      flow,
      amountCents,
      services: random.chance(0.15)
        ? ''
        : `${random.pick(model.services)} ${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`,
      dueDate: dueDateFor(dueRandom, date, flow, bill.internal),
      paidCents: derived.paid_cents,
      paymentCount: derived.payment_count,
      balanceCents: derived.balance_cents,
      payState: derived.pay_state,
      recycledAt,
      recycledCascade,
      createdAt,
    });
    if (entries.length >= batchSize) {
      yield { entries, payments };
      entries = [];
      payments = [];
    }
  }
  if (entries.length > 0) yield { entries, payments };
}

/** Bills come with terms: most expenses are due 10 to 30 days on, invoices one sends are net 14 or net 30. */
function dueDateFor(random: Random, date: string, flow: Flow, internal: boolean): string | null {
  if (internal) return null;
  if (flow === 'OUTGOING') return random.chance(0.85) ? addDays(date, random.int(10, 30)) : null;
  return random.chance(0.5) ? addDays(date, random.pick([14, 30])) : null;
}

function flip(flow: Flow): Flow {
  return flow === 'INCOMING' ? 'OUTGOING' : 'INCOMING';
}
