import { describe, expect, it } from 'vitest';
import { dialects } from './helpers/app.ts';
import { startReceiver } from './helpers/receivers.ts';
import { type ServerDeployment, serverDeployment, until } from './helpers/server-deployment.ts';
import { call } from './helpers/server-process.ts';

const outbox = (d: ServerDeployment) =>
  d.read((db) =>
    db.selectFrom('notification_messages').select(['id', 'status', 'claim_token']).orderBy('id').execute(),
  );

/**
 * A user with a webhook channel hearing due-soon, and `count` invoices due today: the next start's hourly jobs
 * queue one message per invoice. Leaves the server stopped.
 */
async function queueDueSoon(d: ServerDeployment, receiverUrl: string, count: number): Promise<void> {
  const server = await d.start();
  const token = await d.signUp();
  await call(server.url, token, 'POST', '/notification-channels', {
    kind: 'webhook',
    name: 'Crash',
    url: `${receiverUrl}/crash`,
    events: ['due_soon'],
    daysAhead: 30,
  });
  const today = new Date().toISOString().slice(0, 10);
  const bill = (await call(server.url, token, 'POST', '/bills', {
    name: 'Power',
    status: 1,
    category: 'Utilities',
    internal: false,
  })) as { id: number };
  for (let i = 0; i < count; i++) {
    await call(server.url, token, 'POST', '/entries/new', {
      billId: bill.id,
      date: today,
      dueDate: today,
      flow: 'expense',
      amount: 10 + i,
      services: `Bill ${i}`,
    });
  }
  await server.stop();
}

/** How many times each `webhook-id` arrived. */
function arrivals(received: { headers: Record<string, unknown> }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of received) {
    const id = r.headers['webhook-id'] as string;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/**
 * The outbox through a SIGKILL and a SIGTERM (docs/decisions/1150-notification-outbox.md), with the real server
 * process sending a queue of webhook messages to a slow receiver.
 */
describe.each(dialects)('notifications through a kill on %s', (dialect) => {
  /*
   * SIGKILL mid-way. A new process sends the rest once the dead one's leases run out: every message arrives, and the
   * only messages that may arrive twice are those the killed process had claimed and not yet settled, each again
   * with its same `webhook-id`. A graceful stop then leaves no claim behind.
   */
  it('loses nothing and repeats only what was in flight, with the same id', { timeout: 240_000 }, async () => {
    const MESSAGES = 40;
    const d = await serverDeployment(dialect, 'notify-crash', {
      NOTIFY_ALLOW_PRIVATE: 'true',
      NOTIFY_TIMEOUT_SECONDS: '1',
    });
    const receiver = await startReceiver();
    try {
      await queueDueSoon(d, receiver.url, MESSAGES);
      // The next start runs the hourly jobs at once: the due-soon messages are queued and sending begins.
      receiver.state.delayMs = 40;
      await d.start();
      await until(() => receiver.received.length >= MESSAGES / 4, 60_000, 'the first deliveries');
      await d.server?.kill();
      // The job may not have queued every message yet (it writes them one by one while the sender already sends):
      // the next start's run queues the rest, once each (the outbox's key), and the checks below want all of them.
      const rows = await outbox(d);
      expect(rows.length).toBeGreaterThanOrEqual(MESSAGES / 4);
      const inFlight = new Set(
        rows.filter((r) => r.status !== 'sent' && r.claim_token !== null).map((r) => `msg_${r.id}`),
      );
      const sentBefore = new Set(rows.filter((r) => r.status === 'sent').map((r) => `msg_${r.id}`));
      expect(sentBefore.size).toBeLessThan(MESSAGES);

      receiver.state.delayMs = 0;
      await d.start();
      await until(() => arrivals(receiver.received).size === MESSAGES, 60_000, 'every message');
      // A message the killed process had sent but not recorded has arrived already; it is settled only once its
      // lease ran out and this process sent it again. Wait for the table to say so before the graceful stop.
      await until(
        async () => (await outbox(d)).every((r) => r.status === 'sent'),
        60_000,
        'every message marked sent after the restart',
      );
      await d.server?.stop();
      const counts = arrivals(receiver.received);
      const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
      for (const id of repeated) expect(inFlight.has(id), `${id} arrived twice but was not in flight`).toBe(true);
      for (const id of sentBefore) expect(counts.get(id)).toBe(1);
      const settled = await outbox(d);
      expect(settled.every((r) => r.status === 'sent' && r.claim_token === null)).toBe(true);
    } finally {
      await d.dispose();
      await receiver.close();
    }
  });

  /*
   * SIGTERM while a batch is in flight to a slow receiver: the graceful stop takes no new claims and settles those in
   * flight before the database closes. No claim is left for a lease to outlive, so the restarted process sends the
   * rest at once, and every message arrives exactly once.
   */
  it('a graceful stop settles what is in flight: after a restart each message arrives once', {
    timeout: 240_000,
  }, async () => {
    const MESSAGES = 50;
    const d = await serverDeployment(dialect, 'notify-term', {
      NOTIFY_ALLOW_PRIVATE: 'true',
      // A lease of 90 s: longer than this test waits, so a claim left behind would show as a missing message.
      NOTIFY_TIMEOUT_SECONDS: '30',
    });
    const receiver = await startReceiver();
    try {
      await queueDueSoon(d, receiver.url, MESSAGES);
      receiver.state.delayMs = 1_500;
      await d.start();
      // The first batch has reached the receiver, which holds each answer for 1.5 s: the sends are in flight.
      await until(() => receiver.received.length >= 1, 60_000, 'the first requests');
      const inFlight = await outbox(d);
      expect(inFlight.filter((r) => r.claim_token !== null).length).toBeGreaterThan(0);
      await d.server?.stop();

      // (The job may still have been queuing: the next start queues the rest.)
      const stopped = await outbox(d);
      expect(stopped.length).toBeLessThanOrEqual(MESSAGES);
      expect(stopped.filter((r) => r.claim_token !== null)).toEqual([]);
      const sent = stopped.filter((r) => r.status === 'sent').map((r) => `msg_${r.id}`);
      // What was in flight was answered and recorded; the rest was never claimed.
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.length).toBeLessThan(MESSAGES);
      expect(new Set(sent)).toEqual(new Set(arrivals(receiver.received).keys()));
      expect(stopped.filter((r) => r.status !== 'sent').every((r) => r.status === 'pending')).toBe(true);

      receiver.state.delayMs = 0;
      await d.start();
      await until(() => arrivals(receiver.received).size === MESSAGES, 60_000, 'every message');
      await until(async () => (await outbox(d)).every((r) => r.status === 'sent'), 60_000, 'every message sent');
      await d.server?.stop();
      const counts = arrivals(receiver.received);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect(counts.size).toBe(MESSAGES);
    } finally {
      await d.dispose();
      await receiver.close();
    }
  });
});
