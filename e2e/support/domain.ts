/**
 * Seeding of entities, invoices and payments through the real API (fetch), for the screen specs. Each helper
 * takes overrides for what a test is about and returns the server's answer.
 */
import type { ApiSession } from './api.ts';

let sequence = 0;
const unique = (prefix: string) => {
  sequence += 1;
  return `${prefix} ${Date.now().toString(36)}${sequence}`;
};

export interface BillData {
  id: number;
  name: string;
  category: string;
  internal: boolean;
  status: 0 | 1;
  recycle: boolean;
}

export interface EntryData {
  entryId: number;
  invoiceId: number;
  billId: number;
  name: string;
  date: string;
  flow: 'INCOMING' | 'OUTGOING';
  amount: number;
  services: string;
  status: boolean;
  overpaid: boolean;
  balance: { totalBalance: number; totalOverpaid: number };
  internal: boolean;
  archived: boolean;
  recycle: boolean;
}

export interface PaymentData {
  paymentId: number;
  entryId: number;
  date: string;
  amount: number;
  type: string;
  medium: string;
  notes: string;
  autopay: boolean;
  recycle: boolean;
}

export interface RecycleItemData {
  entityType: 'Entity' | 'Invoice' | 'Payment';
  entityId: number;
  partyName: string | null;
  invoiceNumber: number | null;
}

export function createEntity(
  api: ApiSession,
  overrides: Partial<{ name: string; category: string; internal: boolean }> = {},
): Promise<BillData> {
  return api.request<BillData>('POST', '/bills', {
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
  overrides: Partial<{ date: string; flow: string; amount: number; services: string }> = {},
): Promise<EntryData> {
  return api.request<EntryData>('POST', '/entries/new', {
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
  overrides: Partial<{
    date: string;
    amount: number;
    type: string;
    medium: string;
    notes: string;
    autopay: boolean;
  }> = {},
): Promise<PaymentData> {
  return api.request<PaymentData>('POST', '/payments', {
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

export function getEntry(api: ApiSession, entryId: number): Promise<EntryData> {
  return api.request<EntryData>('GET', `/entries/${entryId}`);
}

export function getEntity(api: ApiSession, billId: number): Promise<BillData> {
  return api.request<BillData>('GET', `/bills/${billId}`);
}

export async function listPayments(api: ApiSession, entryId: number): Promise<PaymentData[]> {
  return (await api.request<{ paymentDTOList: PaymentData[] }>('GET', `/payments?entryId=${entryId}`)).paymentDTOList;
}

export async function listRecycleBin(api: ApiSession): Promise<RecycleItemData[]> {
  return (await api.request<{ recycleItems: RecycleItemData[] }>('GET', '/recycle')).recycleItems;
}

export function archiveEntity(api: ApiSession, billId: number): Promise<BillData> {
  return api.request<BillData>('PUT', '/bills', { id: billId, status: 0 });
}

/** An entity with one invoice of `amount`, and the payments given (amounts). */
export async function seedInvoice(
  api: ApiSession,
  options: {
    entity?: Parameters<typeof createEntity>[1];
    invoice?: Parameters<typeof createInvoice>[2];
    payments?: number[];
  } = {},
): Promise<{ entity: BillData; entry: EntryData; payments: PaymentData[] }> {
  const entity = await createEntity(api, options.entity);
  const entry = await createInvoice(api, entity.id, options.invoice);
  const payments: PaymentData[] = [];
  for (const amount of options.payments ?? []) payments.push(await createPayment(api, entry.entryId, { amount }));
  return { entity, entry: await getEntry(api, entry.entryId), payments };
}
