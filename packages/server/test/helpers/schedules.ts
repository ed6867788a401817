import type { Schedule, ScheduleBody } from '@billfold/contract/schedules';
import type { Db } from '../../src/db/database.ts';
import { type Api, request } from './domain.ts';

/** A valid schedule body (monthly rent on the 1st); a test overrides what it is about. */
export function scheduleData(overrides: Partial<ScheduleBody> = {}): ScheduleBody {
  return {
    cadence: 'monthly',
    interval: 1,
    firstDate: '2026-12-01',
    amount: 1250,
    flow: 'expense',
    description: 'Rent {month} {year}',
    dueDays: 5,
    ...overrides,
  };
}

export async function createSchedule(api: Api, billId: number, overrides: Partial<ScheduleBody> = {}) {
  const res = await request(api, 'POST', `/bills/${billId}/schedules`, scheduleData(overrides));
  if (res.statusCode !== 201) throw new Error(`create schedule → ${res.statusCode}: ${res.body}`);
  return res.json<Schedule>();
}

/** The invoices of an entity as stored, in date order: what a schedule created, read behind no service. */
export function storedInvoices(db: Db, billId: number) {
  return db
    .selectFrom('entries')
    .select([
      'id',
      'invoice_number',
      'date',
      'due_date',
      'amount_cents',
      'services',
      'flow',
      'paid_cents',
      'recycled_at',
    ])
    .where('bill_id', '=', billId)
    .orderBy('date')
    .orderBy('id')
    .execute();
}
