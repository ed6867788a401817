import type { Bill, CreateBillBody } from '@billfold/contract/bills';
import type { CreateEntryBody, Entry } from '@billfold/contract/entries';
import type { CreatePaymentBody, Payment } from '@billfold/contract/payments';
import type { RecycleItem } from '@billfold/contract/recycle';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Session } from './factories.ts';

/**
 * API-level factories: every row is made through the same HTTP calls a client makes, with data that passes
 * every rule; a test overrides only what it is about. Each throws when the call does not succeed.
 */

let sequence = 0;

export interface Api {
  app: FastifyInstance;
  session: Session;
}

/** What a test sends to create one: the contract's request bodies, every field optional (a factory fills the rest). */
export type BillInput = Partial<CreateBillBody>;
export type EntryInput = Partial<CreateEntryBody>;
export type PaymentInput = Partial<CreatePaymentBody>;

async function call<T>(
  { app, session }: Api,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload: unknown,
  expected: number,
): Promise<T> {
  const res = await app.inject({ method, url: `/api/v1${url}`, headers: session.headers, payload: payload as object });
  if (res.statusCode !== expected) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
  return res.json<T>();
}

export function billData(overrides: BillInput = {}) {
  sequence += 1;
  return { name: `Entity ${sequence}`, status: 1, category: 'Utilities', internal: false, ...overrides };
}

export function createBill(api: Api, overrides: BillInput = {}): Promise<Bill> {
  return call<Bill>(api, 'POST', '/bills', billData(overrides), 201);
}

/** An invoice; without a `billId` it gets a fresh entity of its own. */
export async function createEntry(api: Api, overrides: EntryInput = {}): Promise<Entry> {
  const billId = overrides.billId ?? (await createBill(api)).id;
  const data = { date: '2026-11-01', flow: 'income', amount: 100, services: 'Consulting', ...overrides, billId };
  return call<Entry>(api, 'POST', '/entries/new', data, 201);
}

/** A payment; without an `entryId` it gets a fresh invoice of its own. */
export async function createPayment(api: Api, overrides: PaymentInput = {}): Promise<Payment> {
  const entryId = overrides.entryId ?? (await createEntry(api)).entryId;
  const data = {
    date: '2026-11-05',
    amount: 25,
    type: 'bank',
    medium: 'ach',
    notes: '',
    autopay: false,
    ...overrides,
    entryId,
  };
  return call<Payment>(api, 'POST', '/payments', data, 201);
}

export const getBill = (api: Api, id: number, query = '') =>
  call<Bill>(api, 'GET', `/bills/${id}${query}`, undefined, 200);
export const getEntry = (api: Api, id: number, query = '') =>
  call<Entry>(api, 'GET', `/entries/${id}${query}`, undefined, 200);
export const getPayment = (api: Api, id: number) => call<Payment>(api, 'GET', `/payments/${id}`, undefined, 200);
export const listPayments = async (api: Api, entryId: number) =>
  (await call<{ paymentDTOList: Payment[] }>(api, 'GET', `/payments?entryId=${entryId}`, undefined, 200))
    .paymentDTOList;
export const listRecycle = async (api: Api) =>
  (await call<{ recycleItems: RecycleItem[] }>(api, 'GET', '/recycle', undefined, 200)).recycleItems;

export const updateBill = (api: Api, body: Record<string, unknown> & { id: number }) =>
  call<Bill>(api, 'PUT', '/bills', body, 200);
export const editEntry = (api: Api, body: Record<string, unknown> & { entryId: number }) =>
  call<Entry>(api, 'PUT', '/entries/edit', body, 200);
export const updatePayment = (api: Api, body: Record<string, unknown> & { paymentId: number }) =>
  call<Payment>(api, 'PUT', '/payments', body, 200);

/** A raw request as the session's user, for asserting status codes. */
export function request(
  { app, session }: Api,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return app.inject({ method, url: `/api/v1${url}`, headers: session.headers, payload: payload as object });
}

/**
 * GET `path` on `app` as `api`'s user past the list cache (`Cache-Control: no-cache`), which must answer 200: its body
 * and what answered it (`Server-Timing`, e.g. `ledger;desc=index`). `app` may be another process than `api.app`.
 */
export async function uncachedGet(app: FastifyInstance, api: Api, path: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/v1${path}`,
    headers: { ...api.session.headers, 'cache-control': 'no-cache' },
  });
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  return { body: res.body, timing: res.headers['server-timing'] };
}
