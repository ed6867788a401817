import { type CategoryFlow, categoryKey } from '@billfold/contract/categories';
import type { Flow } from '@billfold/contract/entries';
import type { Insertable } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { BillsTable, EntriesTable, PaymentsTable } from '../../src/db/schema.ts';
import { billNameKey } from '../../src/modules/bills/bill.mapper.ts';
import { derivePayment } from '../../src/modules/payment-totals/payment-totals.ts';

/**
 * Direct-database factory for read-side tests and the benchmark seeder: bills, entries and payments
 * written with batch inserts, every denormalised and derived column consistent with what the write API
 * keeps (entity columns copied onto entries, payment totals via `derivePayment`, invoice numbers drawn
 * from `users.last_invoice_number`). Money is integer cents.
 */

/** Rows per INSERT: ~20 columns each stays under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const CHUNK = 1000;
const DEFAULT_AT = Date.UTC(2026, 10, 1);

export interface BillSeed {
  name?: string;
  /** A built-in category, or one of the user's own seeded with `seedCategories`. */
  category?: string;
  internal?: boolean;
  archived?: boolean;
  /** Recycle time; the entity's entries are then recycled with it (cascade). */
  recycledAt?: number | null;
}

export interface SeededBill {
  id: number;
  name: string;
  category: string;
  internal: boolean;
  archived: boolean;
  recycledAt: number | null;
}

export interface PaymentSeed {
  amountCents: number;
  date?: string;
  type?: string;
  medium?: string;
  notes?: string;
  autopay?: boolean;
  recycledAt?: number | null;
}

export interface EntrySeed {
  bill: SeededBill;
  date?: string;
  /** Ignored for internal entities, whose entries are always OUTGOING. */
  flow?: Flow;
  amountCents?: number;
  services?: string;
  dueDate?: string | null;
  recycledAt?: number | null;
  payments?: PaymentSeed[];
}

export interface SeededPayment extends Required<PaymentSeed> {
  id: number;
}

export interface SeededEntry {
  id: number;
  invoiceNumber: number;
  bill: SeededBill;
  date: string;
  flow: Flow;
  amountCents: number;
  services: string;
  dueDate: string | null;
  recycledAt: number | null;
  paidCents: number;
  paymentCount: number;
  balanceCents: number;
  payState: number;
  payments: SeededPayment[];
}

let billSequence = 0;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Whose rows a seed writes: a user's (into their personal ledger), or a ledger's named by id. */
export type SeedOwner = number | { ledger: number };

/** The ledger a seed writes into: the user's personal ledger, or the one named. */
export async function ledgerOf(db: Db, owner: SeedOwner): Promise<number> {
  if (typeof owner !== 'number') return owner.ledger;
  const row = await db
    .selectFrom('ledgers')
    .select('id')
    .where('personal_user_id', '=', owner)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The personal ledger of the user signed up as `username`. */
export async function personalLedgerOf(db: Db, username: string): Promise<number> {
  return ledgerOf(db, await userIdOf(db, username));
}

export async function userIdOf(db: Db, username: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', username.toLowerCase())
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Categories of the user's own (docs/decisions/0105-categories-of-your-own.md), for entities to name. */
export async function seedCategories(
  db: Db,
  owner: SeedOwner,
  specs: { name: string; flow?: CategoryFlow; retired?: boolean }[],
): Promise<void> {
  const ledgerId = await ledgerOf(db, owner);
  await db
    .insertInto('categories')
    .values(
      specs.map((c) => ({
        ledger_id: ledgerId,
        name: c.name,
        name_key: categoryKey(c.name),
        flow: c.flow ?? 'expense',
        retired_at: c.retired ? DEFAULT_AT : null,
        created_at: DEFAULT_AT,
      })),
    )
    .execute();
}

/**
 * Attachment rows on invoices or payments of a ledger, each naming a file by a made-up key: the read side counts
 * rows and never opens their bytes.
 */
export async function seedAttachments(
  db: Db,
  owner: SeedOwner,
  items: readonly ({ entryId: number } | { paymentId: number })[],
): Promise<void> {
  const ledgerId = await ledgerOf(db, owner);
  for (const part of chunks(items)) {
    await db
      .insertInto('attachments')
      .values(
        part.map((item, i) => ({
          ledger_id: ledgerId,
          entry_id: 'entryId' in item ? item.entryId : null,
          payment_id: 'paymentId' in item ? item.paymentId : null,
          file_key: `seed-${i}`.padEnd(64, '0'),
          file_name: `receipt-${i}.pdf`,
          content_type: 'application/pdf',
          size: 1000 + i,
          created_at: DEFAULT_AT,
        })),
      )
      .execute();
  }
}

export async function seedBills(db: Db, owner: SeedOwner, specs: BillSeed[]): Promise<SeededBill[]> {
  const ledgerId = await ledgerOf(db, owner);
  const bills = specs.map((spec) => {
    billSequence += 1;
    return {
      name: spec.name ?? `Entity ${billSequence}`,
      category: spec.category ?? 'Uncategorized',
      internal: spec.internal ?? false,
      archived: spec.archived ?? false,
      recycledAt: spec.recycledAt ?? null,
    };
  });
  const out: SeededBill[] = [];
  for (const part of chunks(bills)) {
    const rows: Insertable<BillsTable>[] = part.map((b) => ({
      ledger_id: ledgerId,
      name: b.name,
      name_key: billNameKey(b.name),
      category: b.category,
      internal: b.internal ? 1 : 0,
      status: b.archived ? 0 : 1,
      recycled_at: b.recycledAt,
      created_at: DEFAULT_AT,
    }));
    const ids = await db.insertInto('bills').values(rows).returning('id').execute();
    part.forEach((b, i) => {
      const id = ids[i]?.id;
      if (id === undefined) throw new Error('bill insert returned too few ids');
      out.push({ id, ...b });
    });
  }
  return out;
}

export async function seedBill(db: Db, owner: SeedOwner, spec: BillSeed = {}): Promise<SeededBill> {
  const [bill] = await seedBills(db, owner, [spec]);
  if (!bill) throw new Error('no bill seeded');
  return bill;
}

/**
 * Inserts entries with their payments, numbering them after the ledger's highest invoice number. An entry
 * of a recycled entity is recycled by cascade; payments of a recycled entry count as recycled with it.
 */
export async function seedEntries(db: Db, owner: SeedOwner, specs: EntrySeed[]): Promise<SeededEntry[]> {
  if (specs.length === 0) return [];
  const ledgerId = await ledgerOf(db, owner);
  return db.transaction().execute(async (trx) => {
    const ledger = await trx
      .selectFrom('ledgers')
      .select('last_invoice_number')
      .where('id', '=', ledgerId)
      .executeTakeFirstOrThrow();
    const first = ledger.last_invoice_number + 1;
    await trx
      .updateTable('ledgers')
      .set({ last_invoice_number: ledger.last_invoice_number + specs.length })
      .where('id', '=', ledgerId)
      .execute();

    const entries = specs.map((spec, i) => {
      const amountCents = spec.amountCents ?? 10_000;
      const payments = (spec.payments ?? []).map((p) => ({
        amountCents: p.amountCents,
        date: p.date ?? spec.date ?? '2026-01-15',
        type: p.type ?? 'bank',
        medium: p.medium ?? 'ach',
        notes: p.notes ?? '',
        autopay: p.autopay ?? false,
        recycledAt: p.recycledAt ?? null,
      }));
      // Deleted on its own, or else together with its entity.
      const recycledAt = spec.recycledAt ?? spec.bill.recycledAt ?? null;
      const recycledCascade = (spec.recycledAt ?? null) === null && spec.bill.recycledAt !== null;
      // A recycled invoice's payments are recycled with it, so it shows nothing paid (ADR 0100).
      const live = recycledAt === null ? payments.filter((p) => p.recycledAt === null) : [];
      const derived = derivePayment(
        amountCents,
        live.reduce((sum, p) => sum + p.amountCents, 0),
        live.length,
      );
      return {
        invoiceNumber: first + i,
        bill: spec.bill,
        date: spec.date ?? '2026-01-15',
        flow: spec.bill.internal ? 'OUTGOING' : (spec.flow ?? 'OUTGOING'),
        amountCents,
        services: spec.services ?? '',
        dueDate: spec.dueDate ?? null,
        recycledAt,
        recycledCascade,
        paidCents: derived.paid_cents,
        paymentCount: derived.payment_count,
        balanceCents: derived.balance_cents,
        payState: derived.pay_state,
        pendingPayments: payments,
      } as const;
    });

    const ids = new Map<number, number>();
    for (const part of chunks(entries)) {
      const rows: Insertable<EntriesTable>[] = part.map((e) => ({
        ledger_id: ledgerId,
        bill_id: e.bill.id,
        invoice_number: e.invoiceNumber,
        date: e.date,
        flow: e.flow,
        amount_cents: e.amountCents,
        services: e.services,
        due_date: e.dueDate,
        paid_cents: e.paidCents,
        balance_cents: e.balanceCents,
        pay_state: e.payState,
        payment_count: e.paymentCount,
        bill_name: e.bill.name,
        bill_name_key: billNameKey(e.bill.name),
        category: e.bill.category,
        internal: e.bill.internal ? 1 : 0,
        archived: e.bill.archived ? 1 : 0,
        recycled_at: e.recycledAt,
        recycled_cascade: e.recycledCascade ? 1 : 0,
        created_at: DEFAULT_AT,
      }));
      const inserted = await trx.insertInto('entries').values(rows).returning(['id', 'invoice_number']).execute();
      for (const row of inserted) ids.set(row.invoice_number, row.id);
    }

    const seeded: SeededEntry[] = entries.map(({ pendingPayments, recycledCascade: _, ...e }) => {
      const id = ids.get(e.invoiceNumber);
      if (id === undefined) throw new Error(`entry ${e.invoiceNumber} was not inserted`);
      return { ...e, id, payments: pendingPayments.map((p) => ({ ...p, id: 0 })) };
    });

    const payments = seeded.flatMap((e) => e.payments.map((p) => ({ entry: e, payment: p })));
    for (const part of chunks(payments)) {
      const rows: Insertable<PaymentsTable>[] = part.map(({ entry, payment }) => {
        // A live payment of a recycled entry was deleted with it.
        const cascade = entry.recycledAt !== null && payment.recycledAt === null;
        return {
          ledger_id: ledgerId,
          entry_id: entry.id,
          date: payment.date,
          amount_cents: payment.amountCents,
          type: payment.type,
          medium: payment.medium,
          notes: payment.notes,
          autopay: payment.autopay ? 1 : 0,
          recycled_at: cascade ? entry.recycledAt : payment.recycledAt,
          recycled_cascade: cascade ? 1 : 0,
          created_at: DEFAULT_AT,
        };
      });
      const inserted = await trx.insertInto('payments').values(rows).returning('id').execute();
      part.forEach(({ payment }, i) => {
        payment.id = inserted[i]?.id ?? 0;
      });
    }
    return seeded;
  });
}
