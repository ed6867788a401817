import {
  BILL_DEFAULT_PAGE_SIZE,
  type Bill,
  type BillChange,
  type BillOverviewList,
  type BillOverviewQuery,
  type BillQuery,
  type NewBill,
} from '@billfold/contract/bills';
import { utcDate } from '@billfold/contract/dates';
import type { BillRow } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import type { RecycleIntents } from '../../lib/intents.ts';
import { MESSAGES } from '../../lib/messages.ts';
import { refreshTotals } from '../payment-totals/payment-totals.service.ts';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import { billNameKey, entryColumnsOf, toBill } from './bill.mapper.ts';
import { duplicateEntityName } from './bills.messages.ts';
import type { BillsRepository } from './bills.repository.ts';
import type { EntitySnapshots } from './entity-snapshots.ts';
import { isUniqueViolation } from './unique-violation.ts';

export class BillsService implements RecycleIntents<BillChange, Bill> {
  constructor(
    private readonly repo: BillsRepository,
    private readonly snapshots: EntitySnapshots,
    private readonly now: () => number,
  ) {}

  async list(ledgerId: number, query: BillQuery): Promise<Bill[]> {
    const rows = await this.repo.list(ledgerId, {
      status: query.status,
      nameKey: query.name ? billNameKey(query.name) : undefined,
      // A known category in any spelling becomes its stored name; an unknown one is kept, so it matches nothing.
      categories: query.category ? await this.repo.categoryFilter(ledgerId, query.category) : undefined,
    });
    return rows.map(toBill);
  }

  /**
   * The Entities page: one page of live entities with their open balances, next due date and schedules, searched,
   * sorted and paged in memory from the ledger's snapshot at the request's data version (`EntitySnapshots`,
   * docs/decisions/0406-entity-overview.md). Active ones unless `status` says otherwise.
   */
  async overview(ledger: LedgerAt, query: BillOverviewQuery): Promise<BillOverviewList> {
    const status = query.status ?? 'active';
    const nameKey = query.name ? billNameKey(query.name) : undefined;
    // A known category in any spelling becomes its stored name; an unknown one is kept, so it matches nothing.
    const categories = query.category ? new Set(await this.repo.categoryFilter(ledger.id, query.category)) : undefined;
    const snapshot = await this.snapshots.of(ledger);
    const found = snapshot
      .inOrder(query.sortField ?? 'name', query.sortOrder ?? 'asc')
      .filter(
        (row) =>
          (status === 'all' || Number(row.status) === (status === 'active' ? 1 : 0)) &&
          (nameKey === undefined || row.name_key.includes(nameKey)) &&
          (categories === undefined || categories.size === 0 || categories.has(row.category)),
      );
    const pageSize = query.pageSize ?? BILL_DEFAULT_PAGE_SIZE;
    const offset = (query.pageNum ?? 0) * pageSize;
    const today = query.today ?? utcDate(this.now());
    return {
      total: found.length,
      bills: found
        .slice(offset, offset + pageSize)
        .map((row) => ({ ...snapshot.overview(row), overdue: row.next_due !== null && row.next_due < today })),
    };
  }

  /** A recycled entity only with `bypass` (the restore flow reads it first). */
  async get(ledgerId: number, id: number, bypass: boolean): Promise<Bill> {
    const row = await this.repo.findOwned(ledgerId, id);
    if (!row || (row.recycled_at !== null && !bypass)) throw notFound(MESSAGES.entityNotFound);
    return toBill(row);
  }

  async create(actor: Actor, input: NewBill): Promise<Bill> {
    const { ledgerId } = actor;
    const nameKey = billNameKey(input.name);
    const holder = await this.repo.nameHolder(ledgerId, nameKey, null);
    if (holder) throw conflict(duplicateEntityName(input.name, holder));
    try {
      return await this.repo.transaction(async (repo) => {
        const row = await repo.insert({
          ledger_id: ledgerId,
          name: input.name,
          name_key: nameKey,
          category: await repo.entityCategory(ledgerId, input.category),
          internal: input.internal ? 1 : 0,
          status: input.status ?? 1,
          created_at: this.now(),
        });
        await repo.history(this.now()).record('bill', row.id, actor.userId, 'create', null, row);
        return toBill(row);
      });
    } catch (err) {
      // Lost a race with a concurrent create of the same name: the partial unique index decided.
      if (!isUniqueViolation(err)) throw err;
      throw conflict(
        duplicateEntityName(input.name, (await this.repo.nameHolder(ledgerId, nameKey, null)) ?? 'active'),
      );
    }
  }

  /**
   * Rename, recategorise, set the internal flag, archive (`status` 0) or unarchive (`status` 1): one request may
   * unarchive and rename at once. Every change reaches the invoices' copies of the entity's columns in the same
   * transaction. An entity in the recycle bin is restored first.
   */
  edit(actor: Actor, change: BillChange): Promise<Bill> {
    const { ledgerId } = actor;
    return this.named(ledgerId, change, false, async (repo) => {
      const bill = await this.lock(repo, ledgerId, change);
      if (bill.recycled_at !== null) throw conflict(MESSAGES.entityRecycled);
      return this.applyEdit(repo, actor, bill, change, false);
    });
  }

  /** Delete: the entity goes to the recycle bin with its live invoices and their payments. Again changes nothing. */
  recycle(actor: Actor, change: BillChange): Promise<Bill> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const bill = await this.lock(repo, ledgerId, change);
      if (bill.recycled_at !== null) return toBill(bill);
      const now = this.now();
      const recycled = await repo.update(bill.id, { recycled_at: now });
      const entries = await repo.recycleLiveEntries(bill.id, now);
      const payments = await repo.recyclePaymentsOfCascadedEntries(bill.id, now);
      await repo.history(now).binMovesOf(actor.userId, 'recycle', { bills: [recycled], entries, payments });
      return toBill(recycled);
    });
  }

  /**
   * Restore from the recycle bin with the invoices and payments deleted together with it, taking the change's edits
   * on the way (its name may have been taken meanwhile); a live entity is simply edited.
   */
  restore(actor: Actor, change: BillChange): Promise<Bill> {
    const { ledgerId } = actor;
    return this.named(ledgerId, change, true, async (repo) => {
      const bill = await this.lock(repo, ledgerId, change);
      return this.applyEdit(repo, actor, bill, change, bill.recycled_at !== null);
    });
  }

  private async lock(repo: BillsRepository, ledgerId: number, change: BillChange) {
    const bill = await repo.lockOwned(ledgerId, change.id);
    if (!bill) throw notFound(MESSAGES.entityNotFound);
    return bill;
  }

  /** Runs a change that may take a name in one transaction; a lost race for the name is answered as a duplicate. */
  private async named(
    ledgerId: number,
    change: BillChange,
    restore: boolean,
    work: (repo: BillsRepository) => Promise<Bill>,
  ): Promise<Bill> {
    try {
      return await this.repo.transaction(work);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Lost a race for the name with a concurrent create, rename or restore.
      const bill = await this.repo.findOwned(ledgerId, change.id);
      const name = change.name ?? bill?.name ?? '';
      const holder = (await this.repo.nameHolder(ledgerId, billNameKey(name), change.id)) ?? 'active';
      throw conflict(duplicateEntityName(name, holder, bill?.recycled_at != null && restore));
    }
  }

  private async applyEdit(
    repo: BillsRepository,
    actor: Actor,
    bill: BillRow,
    change: BillChange,
    restoring: boolean,
  ): Promise<Bill> {
    const { ledgerId } = actor;
    const name = change.name ?? bill.name;
    const nameKey = billNameKey(name);
    const category = change.category == null ? bill.category : await repo.entityCategory(ledgerId, change.category);
    const internal = change.internal === undefined ? bill.internal : change.internal ? 1 : 0;
    const status = change.status ?? bill.status;
    const renamed = name !== bill.name;
    const recolumned = category !== bill.category || internal !== bill.internal;
    const edited = renamed || recolumned;
    // Archived means read only: it may be unarchived or deleted, not edited while it stays archived. A restore may
    // rename it, because its name may have been taken while it was in the bin.
    if ((recolumned || (renamed && !restoring)) && bill.status === 0 && status === 0)
      throw conflict(MESSAGES.entityArchived);
    if (restoring || nameKey !== bill.name_key) {
      const holder = await repo.nameHolder(ledgerId, nameKey, bill.id);
      if (holder) throw conflict(duplicateEntityName(name, holder, restoring));
    }

    const updated = await repo.update(bill.id, {
      name,
      name_key: nameKey,
      category,
      internal,
      status,
      ...(restoring ? { recycled_at: null } : {}),
    });
    await repo
      .history(this.now())
      .record('bill', bill.id, actor.userId, restoring ? 'restore' : 'update', bill, updated);
    if (restoring) {
      const payments = await repo.restorePaymentsOfCascadedEntries(bill.id);
      const entries = await repo.restoreCascadedEntries(bill.id);
      await repo.history(this.now()).binMovesOf(actor.userId, 'restore', { entries, payments });
      await refreshTotals(repo.paymentTotals(), entries);
    }
    // The invoices take the entity's columns; their own stored flow never changes with `internal`.
    if (edited || status !== bill.status) await repo.copyToEntries(bill.id, entryColumnsOf(updated));
    return toBill(updated);
  }
}
