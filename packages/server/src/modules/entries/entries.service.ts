import { addDays, daysBetween, MAX_DATE } from '@billfold/contract/dates';
import type { Entry, EntryChange, Flow, NewEntry } from '@billfold/contract/entries';
import { MESSAGES as RULES } from '@billfold/contract/validation';
import { DEFAULT_PRICE_INCREASE_PERCENT } from '../../config.ts';
import type { BillRow, EntryRow, EntryUpdate } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import type { RecycleIntents } from '../../lib/intents.ts';
import { MESSAGES } from '../../lib/messages.ts';
import { entryColumnsOf } from '../bills/bill.mapper.ts';
import type { Author } from '../history/history-fields.ts';
import { refreshTotals } from '../payment-totals/payment-totals.service.ts';
import { derivePayment } from '../payment-totals/payment-totals.ts';
import { ENTRY_MESSAGES } from './entries.messages.ts';
import type { EntriesRepository } from './entries.repository.ts';
import { toEntry } from './entry.mapper.ts';
import { recordPriceIncrease } from './price-increase.ts';

/** An invoice created or edited while its entity is internal is stored as an expense. */
function flowFor(bill: Pick<BillRow, 'internal'>, flow: string): Flow {
  return bill.internal === 1 || flow !== 'INCOMING' ? 'OUTGOING' : 'INCOMING';
}

/**
 * The due date after an edit. Sent: that one (null removes it). Not sent while the date moves: it moves by as many
 * days, so the invoice keeps its terms and a client that knows nothing of due dates never meets their rule
 * (docs/decisions/1000-due-dates.md). Never before the invoice date.
 */
function editedDueDate(entry: EntryRow, change: EntryChange): string | null {
  const date = change.date ?? entry.date;
  let due = change.dueDate === undefined ? entry.due_date : change.dueDate;
  if (change.dueDate === undefined && due !== null && date !== entry.date) {
    const moved = addDays(due, daysBetween(entry.date, date));
    due = moved.localeCompare(MAX_DATE) > 0 ? MAX_DATE : moved;
  }
  if (due !== null && due < date) throw badRequest(RULES.dueBeforeDate);
  return due;
}

/**
 * The columns an edit changes: only values that differ from the stored ones, so a client that sends back the whole
 * invoice it read (as the original client does to restore one) changes nothing it did not mean to. Its stored flow
 * stays as it is unless the edit changes something.
 */
function editedColumns(entry: EntryRow, target: BillRow, change: EntryChange): EntryUpdate {
  const changes: EntryUpdate = {};
  if (target.id !== entry.bill_id) Object.assign(changes, { bill_id: target.id, ...entryColumnsOf(target) });
  if (change.date !== undefined && change.date !== entry.date) changes.date = change.date;
  if (change.amount !== undefined && change.amount !== entry.amount_cents) changes.amount_cents = change.amount;
  // The actual amount: entered (a changed amount) or confirmed as it is (docs/decisions/0213-confirming-estimates.md).
  if (entry.estimated === 1 && (changes.amount_cents !== undefined || change.confirm === true)) changes.estimated = 0;
  const services = change.services === undefined ? entry.services : (change.services ?? '');
  if (services !== entry.services) changes.services = services;
  const dueDate = editedDueDate(entry, change);
  if (dueDate !== entry.due_date) changes.due_date = dueDate;
  const flow = change.flow ?? entry.flow;
  if (flow !== entry.flow || Object.keys(changes).length > 0) {
    const stored = flowFor(target, flow);
    if (stored !== entry.flow) changes.flow = stored;
  }
  return changes;
}

export class EntriesService implements RecycleIntents<EntryChange, Entry> {
  /** `priceIncreasePercent`: the `price_increase` event's threshold (docs/decisions/0215-price-increase-event.md). */
  constructor(
    private readonly repo: EntriesRepository,
    private readonly now: () => number,
    private readonly priceIncreasePercent = DEFAULT_PRICE_INCREASE_PERCENT,
  ) {}

  /** A recycled invoice only with `bypass` (the restore flow reads it first). */
  async get(ledgerId: number, id: number, bypass: boolean): Promise<Entry> {
    const row = await this.repo.findEntry(ledgerId, id);
    if (!row || (row.recycled_at !== null && !bypass)) throw notFound(MESSAGES.invoiceNotFound);
    return toEntry(row);
  }

  /**
   * `author`: who the history names; the schedule runner's invoices are the server's own (`schedule`), with the
   * schedule's `estimate` (docs/decisions/0212-estimated-amounts.md).
   */
  create(
    actor: Actor,
    input: NewEntry,
    author: Author = { actor: actor.userId, action: 'create' },
    estimate: { cents: number; estimated: boolean } | null = null,
  ): Promise<Entry> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const bill = await repo.lockBill(ledgerId, input.billId);
      if (!bill) throw notFound(MESSAGES.entityNotFound);
      if (bill.recycled_at !== null) throw conflict(MESSAGES.entityRecycled);
      if (bill.status === 0) throw conflict(MESSAGES.entityArchived);
      const invoiceNumber = await repo.nextInvoiceNumber(ledgerId);
      const row = await repo.insert({
        ledger_id: ledgerId,
        bill_id: bill.id,
        invoice_number: invoiceNumber,
        date: input.date,
        flow: flowFor(bill, input.flow),
        amount_cents: input.amount,
        services: input.services,
        due_date: input.dueDate ?? null,
        estimate_cents: estimate?.cents ?? null,
        estimated: estimate?.estimated ? 1 : 0,
        ...derivePayment(input.amount, 0, 0),
        ...entryColumnsOf(bill),
        created_at: this.now(),
      });
      await repo.history(this.now()).record('entry', row.id, author.actor, author.action, null, row);
      await recordPriceIncrease(repo, row, this.priceIncreasePercent, this.now());
      return toEntry(row);
    });
  }

  /** Edit a live invoice, or move it to another entity; an invoice in the recycle bin is restored first. */
  edit(actor: Actor, change: EntryChange): Promise<Entry> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const { entry, target } = await this.lockForChange(repo, ledgerId, change);
      if (entry.recycled_at !== null) throw conflict(MESSAGES.invoiceRecycled);
      return this.applyEdit(repo, actor.userId, entry, target, change, false);
    });
  }

  /** Delete: the invoice goes to the recycle bin with its live payments. Deleting a deleted one changes nothing. */
  recycle(actor: Actor, change: EntryChange): Promise<Entry> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const { entry } = await this.lockForChange(repo, ledgerId, change);
      if (entry.archived === 1) throw conflict(MESSAGES.entityArchived);
      if (entry.recycled_at !== null) return toEntry(entry);
      const payments = await repo.recycleLivePayments(entry.id, this.now());
      const recycled = await repo.update(entry.id, { recycled_at: this.now(), recycled_cascade: 0 });
      await repo.history(this.now()).binMoves('payment', actor.userId, 'recycle', payments);
      await repo.history(this.now()).record('entry', entry.id, actor.userId, 'recycle', entry, recycled);
      const [fresh = recycled] = await refreshTotals(repo, [recycled]);
      return toEntry(fresh);
    });
  }

  /**
   * Restore from the recycle bin with the payments deleted together with it, taking the change's edits on the way
   * (the original client sends back the whole invoice it read with `bypass`). A live invoice is simply edited.
   */
  restore(actor: Actor, change: EntryChange): Promise<Entry> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const { entry, current, target } = await this.lockForChange(repo, ledgerId, change);
      const restoring = entry.recycled_at !== null;
      if (restoring && current.recycled_at !== null) throw conflict(ENTRY_MESSAGES.invoiceEntityRecycled);
      return this.applyEdit(repo, actor.userId, entry, target, change, restoring);
    });
  }

  /**
   * Locks the invoice's entity and the entity it moves to (in id order), then the invoice: entities before the
   * invoice, as entity changes lock them.
   */
  private async lockForChange(repo: EntriesRepository, ledgerId: number, change: EntryChange) {
    const seen = await repo.findEntry(ledgerId, change.entryId);
    if (!seen) throw notFound(MESSAGES.invoiceNotFound);
    const targetId = change.billId ?? seen.bill_id;
    const bills = new Map<number, BillRow>();
    for (const billId of [...new Set([seen.bill_id, targetId])].sort((a, b) => a - b)) {
      const bill = await repo.lockBill(ledgerId, billId);
      if (bill) bills.set(billId, bill);
    }
    const current = bills.get(seen.bill_id);
    const target = bills.get(targetId);
    if (!target) throw notFound(MESSAGES.entityNotFound);
    const entry = await repo.lockEntry(ledgerId, change.entryId);
    if (!entry || !current) throw notFound(MESSAGES.invoiceNotFound);
    if (entry.bill_id !== seen.bill_id) throw conflict(ENTRY_MESSAGES.concurrentChange);
    return { entry, current, target };
  }

  /** Writes the edit's changed columns (and the way back from the bin, when `restoring`), then the totals. */
  private async applyEdit(
    repo: EntriesRepository,
    actor: number | null,
    entry: EntryRow,
    target: BillRow,
    change: EntryChange,
    restoring: boolean,
  ): Promise<Entry> {
    const changes = editedColumns(entry, target, change);
    // An archived entity's invoices are read only; one deleted before the archiving comes back as it was.
    if (entry.archived === 1 && (!restoring || Object.keys(changes).length > 0)) {
      throw conflict(restoring ? MESSAGES.archivedRestoreOnly : MESSAGES.entityArchived);
    }
    if (target.id !== entry.bill_id) {
      if (target.recycled_at !== null) throw conflict(MESSAGES.entityRecycled);
      if (target.status === 0) throw conflict(MESSAGES.entityArchived);
    }
    if (restoring) {
      const payments = await repo.restoreCascadedPayments(entry.id);
      await repo.history(this.now()).binMoves('payment', actor, 'restore', payments);
      Object.assign(changes, { recycled_at: null, recycled_cascade: 0 });
    }
    const updated = Object.keys(changes).length > 0 ? await repo.update(entry.id, changes) : entry;
    await repo.history(this.now()).record('entry', entry.id, actor, restoring ? 'restore' : 'update', entry, updated);
    // An estimate confirmed: its actual amount is known now.
    if (changes.estimated === 0) await recordPriceIncrease(repo, updated, this.priceIncreasePercent, this.now());
    const [fresh = updated] = await refreshTotals(repo, [updated]);
    return toEntry(fresh);
  }
}
