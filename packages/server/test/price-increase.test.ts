import type { CreatedChannel } from '@billfold/contract/notifications';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPriceIncrease } from '../src/modules/entries/price-increase.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, editEntry, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { type Receiver, startReceiver } from './helpers/receivers.ts';
import { createSchedule } from './helpers/schedules.ts';

const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);
const SLOW = { timeout: 120_000 };

describe('the price increase threshold', () => {
  it('is exact in cents: more than the percent, never equal to it', () => {
    expect(isPriceIncrease(10_000, 11_000, 10)).toBe(false);
    expect(isPriceIncrease(10_000, 11_001, 10)).toBe(true);
    expect(isPriceIncrease(0, 1, 0)).toBe(false);
    expect(isPriceIncrease(1, 2, 0)).toBe(true);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999_999 }),
        fc.integer({ min: 0, max: 99_999_999_999 }),
        fc.integer({ min: 0, max: 1000 }),
        (before, after, percent) => {
          const exact = BigInt(after) * 100n > BigInt(before) * BigInt(100 + percent);
          expect(isPriceIncrease(before, after, percent)).toBe(exact);
        },
      ),
    );
  });
});

/**
 * The `price_increase` event (docs/decisions/0215-price-increase-event.md) through the outbox to a real webhook
 * receiver started here, on both databases, with the threshold at 10%.
 */
describe.each(dialects)('price_increase notifications on %s', (dialect) => {
  let t: TestApp;
  let hook: Receiver;
  let api: Api;
  let secret: string;
  const path = '/hook/prices';

  beforeAll(async () => {
    hook = await startReceiver();
    t = await createTestApp(dialect, { notifyAllowPrivate: true, notifyTimeoutSeconds: 20, priceIncreasePercent: 10 });
    t.clock.set(noon('2026-11-22'));
    api = { app: t.app, session: await signUp(t.app) };
    const res = await request(api, 'POST', '/notification-channels', {
      kind: 'webhook',
      name: 'Prices',
      url: `${hook.url}${path}`,
      events: ['price_increase'],
    });
    expect(res.statusCode, res.body).toBe(201);
    secret = res.json<CreatedChannel>().secret as string;
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  const received = async () => {
    await t.app.notifications.runOnce();
    return hook.received
      .filter((r) => r.path === path)
      .map(
        (r) =>
          new Webhook(secret).verify(r.body.toString(), r.headers as Record<string, string>) as {
            type: string;
            data: Record<string, unknown>;
          },
      );
  };

  it('tells about a recurring bill up by more than 10% when it is entered, once per invoice', SLOW, async () => {
    const power = await createBill(api, { name: 'City Power' });
    const plain = await createBill(api, { name: 'Corner Shop' });
    await createEntry(api, { billId: power.id, date: '2026-09-01', amount: 100, flow: 'expense' });
    await createEntry(api, { billId: plain.id, date: '2026-09-01', amount: 100, flow: 'expense' });
    // Recurring from now on: a schedule starting next year (it creates nothing yet).
    await createSchedule(api, power.id, { firstDate: '2027-01-01', amount: 100 });
    // Exactly 10% up: not more than the threshold. Then 11.01% up on 110.00: told. A shop without a schedule: never.
    await createEntry(api, { billId: power.id, date: '2026-10-01', amount: 110, flow: 'expense' });
    const up = await createEntry(api, { billId: power.id, date: '2026-11-01', amount: 122.12, flow: 'expense' });
    await createEntry(api, { billId: plain.id, date: '2026-10-01', amount: 500, flow: 'expense' });
    // An income of the entity compares with incomes only (none before it): nothing.
    await createEntry(api, { billId: power.id, date: '2026-11-02', amount: 1, flow: 'income' });
    const got = await received();
    expect(got.map((m) => m.type)).toEqual(['price_increase']);
    expect(got[0]?.data).toMatchObject({
      name: 'City Power',
      entryId: up.entryId,
      invoiceId: up.invoiceId,
      amount: 122.12,
      previousAmount: 110,
      previousDate: '2026-10-01',
      percent: 11,
      title: 'Price up 11.0%: City Power',
    });
    // Editing it again raises nothing more.
    await editEntry(api, { entryId: up.entryId, amount: 150 });
    expect(await received()).toHaveLength(1);
  });

  it('an estimate never tells; its confirmed amount does, against the last confirmed one', SLOW, async () => {
    const water = await createBill(api, { name: 'Water Board' });
    await createEntry(api, { billId: water.id, date: '2026-10-05', amount: 40, flow: 'expense' });
    // Same as last: the November invoice is estimated at 40.00, not an increase of anything.
    await createSchedule(api, water.id, { firstDate: '2026-11-05', amount: 1, amountMode: 'last' });
    const before = (await received()).length;
    const list = await request(api, 'GET', '/entries?partyList=Water%20Board&sortField=date&sortOrder=desc');
    const november = list.json<{ entries: { entryId: number; estimated: boolean; amount: number }[] }>().entries[0];
    expect(november).toMatchObject({ estimated: true, amount: 40 });
    expect(await received()).toHaveLength(before);
    // The actual bill comes in at 46.00 (+15%): confirmed by the edit, and told.
    await editEntry(api, { entryId: november?.entryId ?? 0, amount: 46 });
    const got = await received();
    expect(got).toHaveLength(before + 1);
    expect(got.at(-1)).toMatchObject({
      type: 'price_increase',
      data: { name: 'Water Board', amount: 46, previousAmount: 40, percent: 15 },
    });
  });
});
