import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../src/config.ts';
import { createDatabase } from '../../src/db/database.ts';
import { dialects } from '../helpers/app.ts';
import { random as seededRandom } from '../helpers/random.ts';
import { serverDeployment } from '../helpers/server-deployment.ts';
import { call } from '../helpers/server-process.ts';
import { totalsMismatches } from './database-state.ts';

/**
 * Crash durability: the real server process takes concurrent writes (invoices, payments, payment deletions) and is
 * killed with SIGKILL at a random moment. With the process down, the database on disk must hold every write the
 * server acknowledged (a 2xx reached the client), every invoice's stored totals must equal a recomputation from its
 * live payments, invoice numbers must never be reissued, and SQLite's `PRAGMA integrity_check` must say `ok`. Then
 * the server must start again on that database and serve the same rows. `CRASH_KILLS` sets the number of kills
 * (3 by default, 20 under `SOAK=1`); `CRASH_SEED` replays the random moments.
 */

const SOAK = process.env.SOAK === '1' || process.env.SOAK === 'true';
const KILLS = Number(process.env.CRASH_KILLS ?? (SOAK ? 20 : 3));
const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
const WRITERS = 6;
const METHODS = [
  ['bank', 'ach'],
  ['cash', 'person'],
  ['check', 'mail'],
  ['credit', 'web'],
] as const;

interface AckedEntry {
  invoiceNumber: number;
  amountCents: number;
}
interface AckedPayment {
  entryId: number;
  amountCents: number;
  /** `unknown` when a deletion was in flight at the kill: it may or may not have committed. */
  state: 'live' | 'recycled' | 'unknown';
}

/** What the clients were told: the ledger every check compares the database with. */
class Ledger {
  entries = new Map<number, AckedEntry>();
  payments = new Map<number, AckedPayment>();
  acks = 0;
  lost = 0;
}

describe.each(dialects)('crash durability on %s', (dialect) => {
  it(
    `keeps every acknowledged write and exact totals through ${KILLS} SIGKILLs at random moments`,
    async () => {
      // Seeded, so a failing run can be replayed with CRASH_SEED.
      const random = seededRandom(SEED + (dialect === 'sqlite' ? 0 : 1)).next;
      const d = await serverDeployment(dialect, 'crash');
      const ledger = new Ledger();
      try {
        let server = await d.start();
        let token = await d.signUp();
        const billIds: number[] = [];
        for (let i = 0; i < 3; i++) {
          const bill = await call(server.url, token, 'POST', '/bills', { name: `Crash ${i}`, internal: i === 2 });
          billIds.push(bill.id as number);
        }

        for (let round = 1; round <= KILLS; round++) {
          const label = `[seed ${SEED}] round ${round}`;
          const live = server;
          const writers = Array.from({ length: WRITERS }, () => writer(live.url, token, billIds, ledger, random));
          // Kill at a random moment once the server has acknowledged something this round.
          const acksBefore = ledger.acks;
          for (let waited = 0; ledger.acks === acksBefore; waited += 5) {
            if (waited > 60_000) throw new Error(`${label}: no write acknowledged\n${live.output()}`);
            await new Promise((r) => setTimeout(r, 5));
          }
          await new Promise((r) => setTimeout(r, Math.floor(random() * 1_200)));
          await live.kill();
          await Promise.all(writers);

          await checkOnDisk(d.database, ledger, label);

          server = await d.start();
          token = await d.login();
          await checkOverHttp(server.url, token, ledger, random, label);
        }
        // Every kill landed under load: it cut off a request of every writer.
        expect(ledger.lost).toBe(KILLS * WRITERS);
        expect(ledger.payments.size).toBeGreaterThan(0);
        console.info(
          `crash on ${dialect}: ${KILLS} kills, ${ledger.acks} acknowledged writes (${ledger.entries.size} invoices, ${ledger.payments.size} payments), ${ledger.lost} cut off, seed ${SEED}`,
        );
      } finally {
        await d.dispose();
      }
    },
    SOAK ? 3_600_000 : 180_000,
  );
});

/**
 * One client writing until the server dies: new invoices, payments on acknowledged invoices, deletions of
 * acknowledged payments. Only a 2xx goes into the ledger; a request cut off by the kill is an unknown outcome.
 */
async function writer(url: string, token: string, billIds: number[], ledger: Ledger, random: () => number) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  for (;;) {
    const roll = random();
    const entryIds = [...ledger.entries.keys()];
    const livePayments = [...ledger.payments].filter(([, p]) => p.state === 'live');
    let pending: (() => void) | null = null;
    try {
      if (roll < 0.4 || entryIds.length === 0) {
        const amountCents = 1 + Math.floor(random() * 100_000);
        const entry = await call(url, token, 'POST', '/entries/new', {
          billId: pick(billIds),
          date: '2026-11-01',
          flow: pick(['income', 'expense']),
          amount: amountCents / 100,
          services: 'crash test',
        });
        ledger.entries.set(entry.entryId as number, { invoiceNumber: entry.invoiceId as number, amountCents });
      } else if (roll < 0.9 || livePayments.length === 0) {
        const entryId = pick(entryIds);
        const amountCents = 1 + Math.floor(random() * 60_000);
        const [type, medium] = pick(METHODS);
        const payment = await call(url, token, 'POST', '/payments', {
          entryId,
          date: '2026-11-05',
          amount: amountCents / 100,
          type,
          medium,
        });
        ledger.payments.set(payment.paymentId as number, { entryId, amountCents, state: 'live' });
      } else {
        const [paymentId, payment] = pick(livePayments);
        pending = () => {
          payment.state = 'unknown';
        };
        payment.state = 'unknown';
        await call(url, token, 'PUT', '/payments', { paymentId, recycle: true });
        payment.state = 'recycled';
      }
      ledger.acks += 1;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? '';
      // The kill: a reset connection, a refused one, or a socket closed mid-response. Anything else is a real error.
      if (!/ECONNRESET|ECONNREFUSED|UND_ERR_SOCKET|EPIPE/.test(`${cause} ${(err as Error).message}`)) throw err;
      pending?.();
      ledger.lost += 1;
      return;
    }
  }
}

/** The database on disk, with the server dead: every acknowledged write, exact totals, numbers never reissued. */
async function checkOnDisk(database: DatabaseConfig, ledger: Ledger, label: string) {
  const db = createDatabase(database);
  try {
    if (database.dialect === 'sqlite') {
      const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      expect(integrity.rows, label).toEqual([{ integrity_check: 'ok' }]);
      const foreignKeys = await sql`pragma foreign_key_check`.execute(db);
      expect(foreignKeys.rows, label).toEqual([]);
    }
    const entries = new Map(
      (await db.selectFrom('entries').select(['id', 'invoice_number', 'amount_cents']).execute()).map((e) => [
        Number(e.id),
        e,
      ]),
    );
    for (const [id, acked] of ledger.entries) {
      const row = entries.get(id);
      expect(row, `${label}: acknowledged invoice ${id} is missing`).toBeDefined();
      expect({ id, number: Number(row?.invoice_number), cents: Number(row?.amount_cents) }, label).toEqual({
        id,
        number: acked.invoiceNumber,
        cents: acked.amountCents,
      });
    }
    const payments = new Map(
      (await db.selectFrom('payments').select(['id', 'entry_id', 'amount_cents', 'recycled_at']).execute()).map((p) => [
        Number(p.id),
        p,
      ]),
    );
    for (const [id, acked] of ledger.payments) {
      const row = payments.get(id);
      expect(row, `${label}: acknowledged payment ${id} is missing`).toBeDefined();
      expect({ id, entry: Number(row?.entry_id), cents: Number(row?.amount_cents) }, label).toEqual({
        id,
        entry: acked.entryId,
        cents: acked.amountCents,
      });
      if (acked.state !== 'unknown') {
        expect({ id, recycled: row?.recycled_at != null }, label).toEqual({ id, recycled: acked.state === 'recycled' });
      }
    }
    expect(await totalsMismatches(db), `${label}: stored totals differ from the payments`).toEqual([]);
    // Invoice numbers: never reissued, so the counter is at or above every number in use.
    const numbers = await db
      .selectFrom('ledgers')
      .innerJoin('entries', 'entries.ledger_id', 'ledgers.id')
      .select((eb) => ['ledgers.last_invoice_number', eb.fn.max('entries.invoice_number').as('highest')])
      .groupBy(['ledgers.id', 'ledgers.last_invoice_number'])
      .execute();
    for (const row of numbers)
      expect(Number(row.last_invoice_number), label).toBeGreaterThanOrEqual(Number(row.highest));
  } finally {
    await db.destroy();
  }
}

/** After the restart, the server serves what the ledger says: a sample of invoices with their payments. */
async function checkOverHttp(url: string, token: string, ledger: Ledger, random: () => number, label: string) {
  const ids = [...ledger.entries.keys()];
  for (let i = 0; i < Math.min(8, ids.length); i++) {
    const id = ids[Math.floor(random() * ids.length)] as number;
    const entry = await call(url, token, 'GET', `/entries/${id}`);
    const list = (await call(url, token, 'GET', `/payments?entryId=${id}`)).paymentDTOList as {
      paymentId: number;
      amount: number;
    }[];
    const served = new Set(list.map((p) => p.paymentId));
    for (const [paymentId, p] of ledger.payments) {
      if (p.entryId !== id || p.state === 'unknown') continue;
      expect({ paymentId, served: served.has(paymentId) }, label).toEqual({ paymentId, served: p.state === 'live' });
    }
    const paidCents = list.reduce((sum, p) => sum + Math.round(p.amount * 100), 0);
    const amountCents = ledger.entries.get(id)?.amountCents ?? 0;
    const balance = entry.balance as { totalBalance: number; totalOverpaid: number };
    expect({ id, balance: Math.round(balance.totalBalance * 100) }, label).toEqual({
      id,
      balance: Math.max(amountCents - paidCents, 0),
    });
    expect({ id, status: entry.status }, label).toEqual({ id, status: paidCents >= amountCents });
  }
}
