import {
  CATEGORIES,
  type CategoryChange,
  type CategoryItem,
  categoryKey,
  compareCategories,
  isBuiltInCategory,
  MAX_OWN_CATEGORIES,
  type NewCategory,
} from '@billfold/contract/categories';
import type { CategoryRow } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import { isUniqueViolation } from '../bills/unique-violation.ts';
import { CATEGORY_MESSAGES, categoryNameTaken } from './categories.messages.ts';
import type { CategoriesRepository } from './categories.repository.ts';
import { ownCategoryOf } from './category-book.ts';

const item = (row: CategoryRow, entities: Map<string, number>): CategoryItem => {
  const { id, name, flow, retired } = ownCategoryOf(row);
  return { id, name, builtIn: false, flow, retired, entities: entities.get(name) ?? 0 };
};

/** Categories of the ledger's own beside the built-in ones (docs/decisions/0105-categories-of-your-own.md). */
export class CategoriesService {
  constructor(
    private readonly repo: CategoriesRepository,
    private readonly now: () => number,
  ) {}

  /** The built-in categories and the ledger's own, retired ones included, in display order. */
  async list(ledgerId: number): Promise<CategoryItem[]> {
    const [rows, entities] = await Promise.all([this.repo.list(ledgerId), this.repo.entityCounts(ledgerId)]);
    const builtIn = CATEGORIES.map(
      (name): CategoryItem => ({
        id: null,
        name,
        builtIn: true,
        flow: null,
        retired: false,
        entities: entities.get(name) ?? 0,
      }),
    );
    return [...builtIn, ...rows.map((r) => item(r, entities))].sort((a, b) => compareCategories(a.name, b.name));
  }

  async create(actor: Actor, input: NewCategory): Promise<CategoryItem> {
    const { ledgerId } = actor;
    try {
      return await this.repo.transaction(async (repo) => {
        await repo.lockLedgerRow(ledgerId);
        await this.checkName(repo, ledgerId, input.name, null);
        if ((await repo.count(ledgerId)) >= MAX_OWN_CATEGORIES)
          throw conflict(CATEGORY_MESSAGES.tooMany, 'TOO_MANY_CATEGORIES');
        const row = await repo.insert({
          ledger_id: ledgerId,
          name: input.name,
          name_key: categoryKey(input.name),
          flow: input.flow ?? 'expense',
          retired_at: null,
          created_at: this.now(),
        });
        return item(row, new Map());
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw conflict(categoryNameTaken(input.name, 'active'), 'CATEGORY_NAME_TAKEN');
    }
  }

  /**
   * Rename (every entity and invoice that carries it follows, in the same transaction), change its flow, retire
   * (hidden from pickers, kept where it is used) or restore it.
   */
  async update(actor: Actor, id: number, change: CategoryChange): Promise<CategoryItem> {
    const { ledgerId } = actor;
    try {
      return await this.repo.transaction(async (repo) => {
        const row = await repo.lockOwned(ledgerId, id);
        if (!row) throw notFound(CATEGORY_MESSAGES.notFound);
        const name = change.name ?? row.name;
        if (name !== row.name) {
          if (categoryKey(name) !== row.name_key) await this.checkName(repo, ledgerId, name, row.id);
          const bills = await repo.renameOnEntities(ledgerId, row.name, name);
          const renamed = bills.map((bill) => ({ id: bill.id, before: { ...bill, category: row.name }, after: bill }));
          await repo.history(this.now()).recordMany('bill', actor.userId, 'update', renamed);
        }
        const retiredAt =
          change.retired === undefined ? row.retired_at : change.retired ? (row.retired_at ?? this.now()) : null;
        const updated = await repo.update(row.id, {
          name,
          name_key: categoryKey(name),
          flow: change.flow ?? row.flow,
          retired_at: retiredAt,
        });
        return item(updated, await repo.entityCounts(ledgerId, updated.name));
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw conflict(categoryNameTaken(change.name ?? '', 'active'), 'CATEGORY_NAME_TAKEN');
    }
  }

  private async checkName(repo: CategoriesRepository, ledgerId: number, name: string, exceptId: number | null) {
    if (isBuiltInCategory(name)) throw conflict(categoryNameTaken(name, 'built-in'), 'CATEGORY_NAME_TAKEN');
    const holder = await repo.holderOfKey(ledgerId, categoryKey(name), exceptId);
    if (holder)
      throw conflict(categoryNameTaken(name, holder.retired_at === null ? 'active' : 'retired'), 'CATEGORY_NAME_TAKEN');
  }
}
