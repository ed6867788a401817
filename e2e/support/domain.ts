/**
 * Seeding of entities, invoices and payments through the real API (fetch, bearer token). Each helper takes
 * overrides for what a test is about and returns the server's answer; `seedLedger` and `seedMany` build the home
 * page specs' data sets, dated relative to today so the default "last 30 days" view is predictable.
 */

import type { Bill, CreateBillBody } from '@billfold/contract/bills';
import type { CreateEntryBody, Entry } from '@billfold/contract/entries';
import type { CreatePaymentBody, Payment, PaymentList } from '@billfold/contract/payments';
import type { RecycleItem, RecycleList } from '@billfold/contract/recycle';
import { type ApiSession, createSignedInUser } from './api.ts';
import { textPdf } from './files.ts';

let sequence = 0;
const unique = (prefix: string) => {
  sequence += 1;
  return `${prefix} ${Date.now().toString(36)}${sequence}`;
};

/** `YYYY-MM-DD` of `days` before today in the local time zone (the browser and the test share the machine's). */
export function daysAgo(days: number, now = new Date()): string {
  const date = new Date(now);
  date.setDate(date.getDate() - days);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

export function createEntity(api: ApiSession, overrides: Partial<CreateBillBody> = {}): Promise<Bill> {
  return api.request<Bill>('POST', '/bills', {
    name: unique('Entity'),
    category: 'Utilities',
    internal: false,
    status: 1,
    ...overrides,
  });
}

export function createInvoice(
  api: ApiSession,
  billId: number,
  overrides: Partial<Omit<CreateEntryBody, 'billId'>> = {},
): Promise<Entry> {
  return api.request<Entry>('POST', '/entries/new', {
    billId,
    date: '2026-01-15',
    flow: 'expense',
    amount: 100,
    services: 'Seeded invoice',
    ...overrides,
  });
}

export function createPayment(
  api: ApiSession,
  entryId: number,
  overrides: Partial<Omit<CreatePaymentBody, 'entryId'>> = {},
): Promise<Payment> {
  return api.request<Payment>('POST', '/payments', {
    entryId,
    date: '2026-01-20',
    amount: 25,
    type: 'bank',
    medium: 'ach',
    notes: '',
    autopay: false,
    ...overrides,
  });
}

/**
 * Attaches a one-page PDF named `name` (its text is the name, so each is a different file) to an invoice (`entries`)
 * or a payment (`payments`) through the API, as the upload form does.
 */
export async function attachFile(
  api: ApiSession,
  owner: 'entries' | 'payments',
  id: number,
  name: string,
): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(textPdf(name))], { type: 'application/pdf' }), name);
  const res = await fetch(`${api.origin}/api/v1/${owner}/${id}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.accessToken}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`attaching ${name}: ${res.status} ${await res.text()}`);
}

export function getEntry(api: ApiSession, entryId: number): Promise<Entry> {
  return api.request<Entry>('GET', `/entries/${entryId}`);
}

export function getEntity(api: ApiSession, billId: number): Promise<Bill> {
  return api.request<Bill>('GET', `/bills/${billId}`);
}

export async function listPayments(api: ApiSession, entryId: number): Promise<Payment[]> {
  return (await api.request<PaymentList>('GET', `/payments?entryId=${entryId}`)).paymentDTOList;
}

export async function listRecycleBin(api: ApiSession): Promise<RecycleItem[]> {
  return (await api.request<RecycleList>('GET', '/recycle')).recycleItems;
}

export function archiveEntity(api: ApiSession, billId: number): Promise<Bill> {
  return api.request<Bill>('PUT', '/bills', { id: billId, status: 0 });
}

/** An entity with one invoice of `amount`, and the payments given (amounts). */
export async function seedInvoice(
  api: ApiSession,
  options: {
    entity?: Parameters<typeof createEntity>[1];
    invoice?: Parameters<typeof createInvoice>[2];
    payments?: number[];
  } = {},
): Promise<{ entity: Bill; entry: Entry; payments: Payment[] }> {
  const entity = await createEntity(api, options.entity);
  const entry = await createInvoice(api, entity.id, options.invoice);
  const payments: Payment[] = [];
  for (const amount of options.payments ?? []) payments.push(await createPayment(api, entry.entryId, { amount }));
  return { entity, entry: await getEntry(api, entry.entryId), payments };
}

export interface Ledger {
  api: ApiSession;
  bills: Record<'acme' | 'power' | 'grocer' | 'savings' | 'landlord', Bill>;
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
    Entry
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
    createEntity(session, { name: 'Acme Corp', category: 'Financial' }),
    createEntity(session, { name: 'City Power', category: 'Utilities' }),
    createEntity(session, { name: 'Corner Grocer', category: 'Groceries' }),
    createEntity(session, { name: 'Savings Transfer', category: 'Financial', internal: true }),
    createEntity(session, { name: 'Old Landlord', category: 'Mortgage / Rent' }),
  ]);
  const invoice = (bill: Bill, days: number, flow: string, amount: number, services: string) =>
    createInvoice(session, bill.id, { date: daysAgo(days), flow, amount, services });
  // Sequential, so invoice numbers follow this order (1 … 8).
  const acmePaid = await invoice(acme, 5, 'income', 1000, 'Consulting March');
  const acmeOverpaid = await invoice(acme, 10, 'income', 500, 'Workshop');
  const powerPartial = await invoice(power, 3, 'expense', 120.5, 'Electricity');
  const powerUnpaid = await invoice(power, 20, 'expense', 80, 'Gas');
  const grocerPaid = await invoice(grocer, 1, 'expense', 45.25, 'Weekly shop');
  const savingsInternal = await invoice(savings, 7, 'expense', 300, 'To savings');
  const landlordArchived = await invoice(landlord, 15, 'expense', 1500, 'Rent');
  const acmeOld = await invoice(acme, 40, 'income', 2000, 'Retainer');

  const payment = (entry: Entry, days: number, amount: number, type: string, medium: string) =>
    createPayment(session, entry.entryId, { date: daysAgo(days), amount, type, medium });
  await payment(acmePaid, 4, 1000, 'bank', 'ach');
  await payment(acmeOverpaid, 9, 550, 'check', 'mail');
  await payment(powerPartial, 2, 50, 'credit', 'web');
  await payment(grocerPaid, 1, 45.25, 'debit', 'person');
  await payment(landlordArchived, 14, 1500, 'check', 'person');
  const landlordNow = await archiveEntity(session, landlord.id);

  const reread = (entry: Entry) => getEntry(session, entry.entryId);
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
export async function seedMany(api: ApiSession, count: number, name = 'Bulk Biller'): Promise<Entry[]> {
  const bill = await createEntity(api, { name, category: 'Shopping' });
  const entries: Entry[] = [];
  for (let i = 0; i < count; i += 1) {
    entries.push(
      await createInvoice(api, bill.id, {
        date: daysAgo(i % 28),
        flow: 'expense',
        amount: i + 1,
        services: `Item ${i + 1}`,
      }),
    );
  }
  return entries;
}
