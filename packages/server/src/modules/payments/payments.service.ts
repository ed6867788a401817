import type { NewPayment, Payment, PaymentChange } from '@billfold/contract/payments';
import type { Updateable } from 'kysely';
import type { EntryRow, PaymentRow, PaymentsTable } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import type { RecycleIntents } from '../../lib/intents.ts';
import { MESSAGES } from '../../lib/messages.ts';
import type { PaymentTotalsRepository } from '../payment-totals/payment-totals.repository.ts';
import { refreshTotals } from '../payment-totals/payment-totals.service.ts';
import { toPayment } from './payment.mapper.ts';
import { PAYMENT_MESSAGES } from './payments.messages.ts';
import type { PaymentsRepository } from './payments.repository.ts';

/** An invoice that takes payment changes: live and of an entity that is not archived. */
function assertWritable(entry: EntryRow): void {
  if (entry.archived === 1) throw conflict(MESSAGES.entityArchived);
  if (entry.recycled_at !== null) throw conflict(MESSAGES.invoiceRecycled);
}

/** The columns an edit changes: only values that differ from the stored ones (see `editedColumns` of invoices). */
function editedColumns(payment: PaymentRow, change: PaymentChange): Updateable<PaymentsTable> {
  const changes: Updateable<PaymentsTable> = {};
  if (change.date !== undefined && change.date !== payment.date) changes.date = change.date;
  if (change.amount !== undefined && change.amount !== payment.amount_cents) changes.amount_cents = change.amount;
  if (change.type !== undefined && change.type !== payment.type) changes.type = change.type;
  if (change.medium !== undefined && change.medium !== payment.medium) changes.medium = change.medium;
  const notes = change.notes === undefined ? payment.notes : (change.notes ?? '');
  if (notes !== payment.notes) changes.notes = notes;
  const autopay = change.autopay === undefined ? payment.autopay : change.autopay ? 1 : 0;
  if (autopay !== payment.autopay) changes.autopay = autopay;
  return changes;
}

/**
 * Every payment change locks its invoice first, then recomputes the invoice's totals from the SUM of its live
 * payments in the same transaction, so concurrent changes of one invoice's payments never lose an update.
 */
export class PaymentsService implements RecycleIntents<PaymentChange, Payment> {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly now: () => number,
  ) {}

  async list(ledgerId: number, entryId: number): Promise<Payment[]> {
    const entry = await this.repo.paymentTotals().findEntry(ledgerId, entryId);
    if (!entry) throw notFound(MESSAGES.invoiceNotFound);
    return (await this.repo.listLive(entryId)).map(toPayment);
  }

  /** Recycled payments included: the restore flow reads one before restoring it. */
  async get(ledgerId: number, id: number): Promise<Payment> {
    const row = await this.repo.findOwned(ledgerId, id);
    if (!row) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    return toPayment(row);
  }

  create(actor: Actor, input: NewPayment): Promise<Payment> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const totals = repo.paymentTotals();
      const entry = await totals.lockEntry(ledgerId, input.entryId);
      if (!entry) throw notFound(MESSAGES.invoiceNotFound);
      assertWritable(entry);
      const row = await repo.insert({
        ledger_id: ledgerId,
        entry_id: entry.id,
        date: input.date,
        amount_cents: input.amount,
        type: input.type,
        medium: input.medium,
        notes: input.notes ?? '',
        autopay: input.autopay ? 1 : 0,
        created_at: this.now(),
      });
      await refreshTotals(totals, [entry]);
      return toPayment(row);
    });
  }

  /** Edit a live payment; a payment in the recycle bin is restored first. */
  edit(actor: Actor, change: PaymentChange): Promise<Payment> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const { totals, entry, payment } = await this.lockForChange(repo, ledgerId, change);
      if (payment.recycled_at !== null) throw conflict(PAYMENT_MESSAGES.paymentRecycled);
      return this.applyEdit(repo, totals, entry, payment, change, false);
    });
  }

  /** Delete: the payment goes to the recycle bin and leaves its invoice's totals. Deleting it again changes nothing. */
  recycle(actor: Actor, change: PaymentChange): Promise<Payment> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const { totals, entry, payment } = await this.lockForChange(repo, ledgerId, change);
      if (entry.archived === 1) throw conflict(MESSAGES.entityArchived);
      if (payment.recycled_at !== null) return toPayment(payment);
      const updated = await repo.update(payment.id, { recycled_at: this.now(), recycled_cascade: 0 });
      await refreshTotals(totals, [entry]);
      return toPayment(updated);
    });
  }

  /** Restore from the recycle bin, taking the change's edits on the way; a live payment is simply edited. */
  restore(actor: Actor, change: PaymentChange): Promise<Payment> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const { totals, entry, payment } = await this.lockForChange(repo, ledgerId, change);
      const restoring = payment.recycled_at !== null;
      if (restoring && entry.recycled_at !== null) throw conflict(PAYMENT_MESSAGES.paymentInvoiceRecycled);
      return this.applyEdit(repo, totals, entry, payment, change, restoring);
    });
  }

  /** Locks the payment's invoice, then reads the payment again under that lock: every payment change takes it first. */
  private async lockForChange(repo: PaymentsRepository, ledgerId: number, change: PaymentChange) {
    const paymentId = change.paymentId ?? change.id;
    const seen = paymentId === undefined ? undefined : await repo.findOwned(ledgerId, paymentId);
    if (!seen) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    if (change.entryId !== undefined && change.entryId !== seen.entry_id)
      throw badRequest(PAYMENT_MESSAGES.paymentMove);
    const totals = repo.paymentTotals();
    const entry = await totals.lockEntry(ledgerId, seen.entry_id);
    if (!entry) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    const payment = await repo.findOwned(ledgerId, seen.id);
    if (!payment) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    return { totals, entry, payment };
  }

  /** Writes the edit's changed columns (and the way back from the bin, when `restoring`), then the invoice's totals. */
  private async applyEdit(
    repo: PaymentsRepository,
    totals: PaymentTotalsRepository,
    entry: EntryRow,
    payment: PaymentRow,
    change: PaymentChange,
    restoring: boolean,
  ): Promise<Payment> {
    const changes = editedColumns(payment, change);
    // An archived entity's payments are read only; one deleted before the archiving comes back as it was.
    if (entry.archived === 1 && (!restoring || Object.keys(changes).length > 0)) {
      throw conflict(restoring ? MESSAGES.archivedRestoreOnly : MESSAGES.entityArchived);
    }
    if (entry.recycled_at !== null) throw conflict(MESSAGES.invoiceRecycled);
    if (restoring) Object.assign(changes, { recycled_at: null, recycled_cascade: 0 });
    const updated = Object.keys(changes).length > 0 ? await repo.update(payment.id, changes) : payment;
    await refreshTotals(totals, [entry]);
    return toPayment(updated);
  }
}
