/**
 * Ledger seeding through the real API (fetch, bearer token), for the home page specs: entities, invoices and
 * payments in known states, dated relative to today so the default "last 30 days" view is predictable.
 */
import { type ApiSession, createSignedInUser } from './api.ts';

export interface SeededBill {
  id: number;
  name: string;
  category: string;
  internal: boolean;
  status: 0 | 1;
}

export interface SeededEntry {
  entryId: number;
  invoiceId: number;
  billId: number;
  name: string;
  date: string;
  flow: 'INCOMING' | 'OUTGOING';
  amount: number;
  status: boolean;
  overpaid: boolean;
  balance: { totalBalance: number; totalOverpaid: number };
  internal: boolean;
  archived: boolean;
}

/** `YYYY-MM-DD` of `days` before today in the local time zone (the browser and the test share the machine's). */
export function daysAgo(days: number, now = new Date()): string {
  const date = new Date(now);
  date.setDate(date.getDate() - days);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

export function createBill(
  api: ApiSession,
  bill: { name: string; category?: string; internal?: boolean },
): Promise<SeededBill> {
  return api.request<SeededBill>('POST', '/bills', {
    name: bill.name,
    status: 1,
    category: bill.category ?? 'Uncategorized',
    internal: bill.internal ?? false,
  });
}

export function archiveBill(api: ApiSession, bill: SeededBill): Promise<SeededBill> {
  return api.request<SeededBill>('PUT', '/bills', { ...bill, status: 0 });
}

export function createEntry(
  api: ApiSession,
  entry: { billId: number; date: string; flow: 'income' | 'expense'; amount: number; services?: string },
): Promise<SeededEntry> {
  return api.request<SeededEntry>('POST', '/entries/new', { services: '', ...entry });
}

export function addPayment(
  api: ApiSession,
  payment: { entryId: number; date: string; amount: number; method: string; notes?: string },
): Promise<unknown> {
  const [type, medium] = payment.method.split('|');
  return api.request('POST', '/payments', {
    entryId: payment.entryId,
    date: payment.date,
    amount: payment.amount,
    type,
    medium,
    notes: payment.notes ?? '',
    autopay: false,
  });
}

export function getEntry(api: ApiSession, entryId: number): Promise<SeededEntry> {
  return api.request<SeededEntry>('GET', `/entries/${entryId}`);
}

export interface Ledger {
  api: ApiSession;
  bills: Record<'acme' | 'power' | 'grocer' | 'savings' | 'landlord', SeededBill>;
  /** By role in the data set; entries are re-read after their payments, so the derived fields are current. */
  entries: Record<
    | 'acmePaid'
    | 'acmeOverpaid'
    | 'powerPartial'
    | 'powerUnpaid'
    | 'grocerPaid'
    | 'savingsInternal'
    | 'landlordArchived'
    | 'acmeOld',
    SeededEntry
  >;
}

/**
 * A small ledger with one invoice in every state the home page tells apart:
 *
 * | role | entity (category) | flow | amount | days ago | payments | state |
 * |---|---|---|---|---|---|---|
 * | acmePaid | Acme Corp (Financial) | income | 1000.00 | 5 | 1000.00 bank|ach | paid |
 * | acmeOverpaid | Acme Corp | income | 500.00 | 10 | 550.00 check|mail | overpaid |
 * | powerPartial | City Power (Utilities) | expense | 120.50 | 3 | 50.00 credit|web | in progress |
 * | powerUnpaid | City Power | expense | 80.00 | 20 | — | unpaid |
 * | grocerPaid | Corner Grocer (Groceries) | expense | 45.25 | 1 | 45.25 debit|person | paid |
 * | savingsInternal | Savings Transfer (internal, Financial) | expense | 300.00 | 7 | — | unpaid, internal |
 * | landlordArchived | Old Landlord (Mortgage / Rent), archived | expense | 1500.00 | 15 | 1500.00 check|person | paid |
 * | acmeOld | Acme Corp | income | 2000.00 | 40 | — | unpaid, before the default range |
 *
 * The default view (last 30 days, active entities) therefore lists six invoices.
 */
export async function seedLedger(api?: ApiSession): Promise<Ledger> {
  const session = api ?? (await createSignedInUser());
  const [acme, power, grocer, savings, landlord] = await Promise.all([
    createBill(session, { name: 'Acme Corp', category: 'Financial' }),
    createBill(session, { name: 'City Power', category: 'Utilities' }),
    createBill(session, { name: 'Corner Grocer', category: 'Groceries' }),
    createBill(session, { name: 'Savings Transfer', category: 'Financial', internal: true }),
    createBill(session, { name: 'Old Landlord', category: 'Mortgage / Rent' }),
  ]);
  // Sequential, so invoice numbers follow this order (1 … 8).
  const acmePaid = await createEntry(session, {
    billId: acme.id,
    date: daysAgo(5),
    flow: 'income',
    amount: 1000,
    services: 'Consulting March',
  });
  const acmeOverpaid = await createEntry(session, {
    billId: acme.id,
    date: daysAgo(10),
    flow: 'income',
    amount: 500,
    services: 'Workshop',
  });
  const powerPartial = await createEntry(session, {
    billId: power.id,
    date: daysAgo(3),
    flow: 'expense',
    amount: 120.5,
    services: 'Electricity',
  });
  const powerUnpaid = await createEntry(session, {
    billId: power.id,
    date: daysAgo(20),
    flow: 'expense',
    amount: 80,
    services: 'Gas',
  });
  const grocerPaid = await createEntry(session, {
    billId: grocer.id,
    date: daysAgo(1),
    flow: 'expense',
    amount: 45.25,
    services: 'Weekly shop',
  });
  const savingsInternal = await createEntry(session, {
    billId: savings.id,
    date: daysAgo(7),
    flow: 'expense',
    amount: 300,
    services: 'To savings',
  });
  const landlordArchived = await createEntry(session, {
    billId: landlord.id,
    date: daysAgo(15),
    flow: 'expense',
    amount: 1500,
    services: 'Rent',
  });
  const acmeOld = await createEntry(session, {
    billId: acme.id,
    date: daysAgo(40),
    flow: 'income',
    amount: 2000,
    services: 'Retainer',
  });

  await addPayment(session, { entryId: acmePaid.entryId, date: daysAgo(4), amount: 1000, method: 'bank|ach' });
  await addPayment(session, { entryId: acmeOverpaid.entryId, date: daysAgo(9), amount: 550, method: 'check|mail' });
  await addPayment(session, { entryId: powerPartial.entryId, date: daysAgo(2), amount: 50, method: 'credit|web' });
  await addPayment(session, { entryId: grocerPaid.entryId, date: daysAgo(1), amount: 45.25, method: 'debit|person' });
  await addPayment(session, {
    entryId: landlordArchived.entryId,
    date: daysAgo(14),
    amount: 1500,
    method: 'check|person',
  });
  const landlordNow = await archiveBill(session, landlord);

  const reread = (entry: SeededEntry) => getEntry(session, entry.entryId);
  return {
    api: session,
    bills: { acme, power, grocer, savings, landlord: landlordNow },
    entries: {
      acmePaid: await reread(acmePaid),
      acmeOverpaid: await reread(acmeOverpaid),
      powerPartial: await reread(powerPartial),
      powerUnpaid: await reread(powerUnpaid),
      grocerPaid: await reread(grocerPaid),
      savingsInternal: await reread(savingsInternal),
      landlordArchived: await reread(landlordArchived),
      acmeOld: await reread(acmeOld),
    },
  };
}

/** Many plain invoices of one entity (for paging), `count` days apart from today backwards, amounts 1.00, 2.00, … */
export async function seedMany(api: ApiSession, count: number, name = 'Bulk Biller'): Promise<SeededEntry[]> {
  const bill = await createBill(api, { name, category: 'Shopping' });
  const entries: SeededEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    entries.push(
      await createEntry(api, {
        billId: bill.id,
        date: daysAgo(i % 28),
        flow: 'expense',
        amount: i + 1,
        services: `Item ${i + 1}`,
      }),
    );
  }
  return entries;
}
