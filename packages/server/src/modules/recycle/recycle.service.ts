import { toApiTimestamp } from '@billfold/contract/dates';
import { fromCents } from '@billfold/contract/money';
import type { RecycleItem, RecycleType } from '@billfold/contract/recycle';
import type { Actor } from '../../lib/actor.ts';
import { notFound } from '../../lib/http-error.ts';
import { RECYCLE_RETENTION } from '../../lib/retention.ts';
import type { BillsService } from '../bills/bills.service.ts';
import type { EntriesService } from '../entries/entries.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import { RECYCLE_MESSAGES } from './recycle.messages.ts';
import type { RecycleRepository } from './recycle.repository.ts';

const TYPE_ORDER: Record<RecycleType, number> = { Entity: 0, Invoice: 1, Payment: 2 };

interface Listed {
  at: number;
  item: RecycleItem;
}

export class RecycleService {
  constructor(
    private readonly repo: RecycleRepository,
    private readonly services: { bills: BillsService; entries: EntriesService; payments: PaymentsService },
    private readonly now: () => number,
  ) {}

  /** Newest first; an item whose parent is in the bin comes back with its parent, so it is not listed. */
  async list(ledgerId: number): Promise<RecycleItem[]> {
    const since = this.now() - RECYCLE_RETENTION;
    const [bills, entries, payments] = await Promise.all([
      this.repo.listBills(ledgerId, since),
      this.repo.listEntries(ledgerId, since),
      this.repo.listPayments(ledgerId, since),
    ]);
    const listed: Listed[] = [
      ...bills.map((b) => ({
        at: Number(b.recycled_at),
        item: item('Entity', b.id, Number(b.recycled_at), {
          partyName: b.name,
          type: b.status === 1 ? 'Active' : 'Archived',
          details: b.category,
        }),
      })),
      ...entries.map((e) => ({
        at: Number(e.recycled_at),
        item: item('Invoice', e.id, Number(e.recycled_at), {
          partyName: e.bill_name,
          invoiceNumber: e.invoice_number,
          entityDate: e.date,
          amount: fromCents(e.amount_cents),
          type: e.flow === 'INCOMING' && e.internal === 0 ? 'Income' : 'Expense',
          details: e.services,
        }),
      })),
      ...payments.map((p) => ({
        at: Number(p.recycled_at),
        item: item('Payment', p.id, Number(p.recycled_at), {
          partyName: p.bill_name,
          invoiceNumber: p.invoice_number,
          entityDate: p.date,
          amount: fromCents(p.amount_cents),
          type: `${p.type} / ${p.medium}`,
          details: p.notes,
        }),
      })),
    ];
    listed.sort(
      (a, b) =>
        b.at - a.at ||
        TYPE_ORDER[a.item.entityType] - TYPE_ORDER[b.item.entityType] ||
        b.item.entityId - a.item.entityId,
    );
    return listed.map((l) => l.item);
  }

  /**
   * Deletes an item of the bin for good before its purge date, in one transaction with what was deleted together
   * with it (docs/decisions/0106-recycle-bin-purge-date-and-delete-forever.md).
   */
  async deleteForever(actor: Actor, type: RecycleType, id: number): Promise<{ message: string }> {
    const { ledgerId } = actor;
    // Refused inside the transaction, so that the locks it took roll back with it: a refusal stores nothing.
    await this.repo.transaction(async (repo) => {
      if (!(await repo.deleteForever(ledgerId, type, id))) throw notFound(RECYCLE_MESSAGES.itemNotFound);
    });
    return { message: `${type} deleted permanently.` };
  }

  /** The owning service's `restore`: the same rules as the PUT with `recycle: false` of that resource. */
  async restore(actor: Actor, type: RecycleType, id: number): Promise<{ message: string }> {
    const { ledgerId } = actor;
    if (!(await this.repo.isRecycled(ledgerId, type, id))) throw notFound(RECYCLE_MESSAGES.itemNotFound);
    if (type === 'Entity') await this.services.bills.restore(actor, { id });
    else if (type === 'Invoice') await this.services.entries.restore(actor, { entryId: id });
    else await this.services.payments.restore(actor, { paymentId: id });
    return { message: `${type} restored successfully.` };
  }
}

function item(
  entityType: RecycleType,
  entityId: number,
  at: number,
  fields: Partial<Omit<RecycleItem, 'entityType' | 'entityId' | 'recycleDate'>>,
): RecycleItem {
  return {
    entityType,
    entityId,
    recycleDate: toApiTimestamp(new Date(at)),
    purgeDate: toApiTimestamp(new Date(at + RECYCLE_RETENTION)),
    partyName: null,
    invoiceNumber: null,
    entityDate: null,
    amount: null,
    type: null,
    details: null,
    ...fields,
  };
}
