import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { createTestDatabase, dialects } from './helpers/app.ts';
import { STRONG_PASSWORD } from './helpers/factories.ts';
import { startReceiver } from './helpers/receivers.ts';
import { call, login, type ServerProcess, startServer } from './helpers/server-process.ts';

const MESSAGES = 40;

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The outbox through a SIGKILL (docs/decisions/1150-notification-outbox.md): the real server process sends a queue
 * of webhook messages to a slow receiver and is killed with SIGKILL mid-way. A new process sends the rest once the
 * dead one's leases run out: every message arrives, and the only messages that may arrive twice are those the
 * killed process had claimed and not yet settled, each again with its same `webhook-id`. A graceful stop
 * (SIGTERM) then leaves no claim behind.
 */
describe.each(dialects)('notifications through a kill on %s', (dialect) => {
  it('loses nothing and repeats only what was in flight, with the same id', { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'billfold-notify-crash-'));
    const pgDatabase = dialect === 'postgres' ? await createTestDatabase('postgres') : null;
    const database: DatabaseConfig = pgDatabase?.config ?? { dialect: 'sqlite', file: join(dataDir, 'billfold.db') };
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.dialect === 'postgres' ? database.url : `sqlite:${database.file}`,
      JWT_SECRET: 'notify-crash-secret-notify-crash-secret-0123',
      NOTIFY_ALLOW_PRIVATE: 'true',
      NOTIFY_TIMEOUT_SECONDS: '1',
    };
    const receiver = await startReceiver();
    const user = { username: `notify_${dialect}`, email: `notify_${dialect}@example.com`, password: STRONG_PASSWORD };
    let server: ServerProcess | null = null;
    try {
      server = await startServer(env);
      const created = await fetch(`${server.url}/api/v1/auth/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user),
      });
      expect(created.status).toBe(201);
      const token = await login(server.url, user);
      await call(server.url, token, 'POST', '/notification-channels', {
        kind: 'webhook',
        name: 'Crash',
        url: `${receiver.url}/crash`,
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
      for (let i = 0; i < MESSAGES; i++) {
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
      // The next start runs the hourly jobs at once: the due-soon messages are queued and sending begins.
      receiver.state.delayMs = 40;
      server = await startServer(env);
      await until(() => receiver.received.length >= MESSAGES / 4, 60_000, 'the first deliveries');
      await server.kill();
      const db = createDatabase(database);
      const rows = await db.selectFrom('notification_messages').select(['id', 'status', 'claim_token']).execute();
      await db.destroy();
      expect(rows).toHaveLength(MESSAGES);
      const inFlight = new Set(
        rows.filter((r) => r.status !== 'sent' && r.claim_token !== null).map((r) => `msg_${r.id}`),
      );
      const sentBefore = new Set(rows.filter((r) => r.status === 'sent').map((r) => `msg_${r.id}`));
      expect(sentBefore.size).toBeLessThan(MESSAGES);

      receiver.state.delayMs = 0;
      server = await startServer(env);
      const ids = () => receiver.received.map((r) => r.headers['webhook-id'] as string);
      await until(() => new Set(ids()).size === MESSAGES, 60_000, 'every message');
      // A message the killed process had sent but not recorded has arrived already; it is settled only once its
      // lease ran out and this process sent it again. Wait for the table to say so before the graceful stop.
      const allSent = async () => {
        const db = createDatabase(database);
        const left = await db.selectFrom('notification_messages').select('id').where('status', '!=', 'sent').execute();
        await db.destroy();
        return left.length === 0;
      };
      for (const started = Date.now(); !(await allSent()); ) {
        if (Date.now() - started > 60_000) throw new Error('messages still unsent a minute after the restart');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await server.stop();
      server = null;
      const counts = new Map<string, number>();
      for (const id of ids()) counts.set(id, (counts.get(id) ?? 0) + 1);
      const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
      for (const id of repeated) expect(inFlight.has(id), `${id} arrived twice but was not in flight`).toBe(true);
      for (const id of sentBefore) expect(counts.get(id)).toBe(1);
      const after = createDatabase(database);
      const settled = await after.selectFrom('notification_messages').select(['status', 'claim_token']).execute();
      await after.destroy();
      expect(settled.every((r) => r.status === 'sent' && r.claim_token === null)).toBe(true);
    } finally {
      await server?.kill();
      await receiver.close();
      await pgDatabase?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
