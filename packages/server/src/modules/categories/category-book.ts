import {
  type CategoryFlow,
  categoryKey,
  categoryLabel,
  DEFAULT_CATEGORY,
  isBuiltInCategory,
  normalizeCategory,
} from '@billfold/contract/categories';
import type { Db } from '../../db/database.ts';
import type { CategoryRow } from '../../db/schema.ts';

/** One category of the ledger's own, as every module that names categories reads it. */
export interface OwnCategory {
  id: number;
  name: string;
  key: string;
  flow: CategoryFlow;
  retired: boolean;
}

export const ownCategoryOf = (row: Pick<CategoryRow, 'id' | 'name' | 'name_key' | 'flow' | 'retired_at'>) => ({
  id: Number(row.id),
  name: row.name,
  key: row.name_key,
  flow: row.flow === 'income' ? ('income' as const) : ('expense' as const),
  retired: row.retired_at !== null,
});

/**
 * The categories one ledger can name: the 21 built-in ones and their own (docs/decisions/0105-categories-of-your-own.md).
 * Every input that names a category (an entity's, a filter's, a CSV row's) is read through it, so a name means one
 * category everywhere, in any case and spacing.
 */
export class CategoryBook {
  private readonly byKey: Map<string, OwnCategory>;

  constructor(readonly own: readonly OwnCategory[]) {
    this.byKey = new Map(own.map((c) => [c.key, c]));
  }

  /** The ledger's own category `value` names, in any case and spacing (retired ones too), or undefined. */
  find(value: string): OwnCategory | undefined {
    return this.byKey.get(categoryKey(value));
  }

  /**
   * The stored name an entity's category input stands for: a built-in one in its canonical form, one of the
   * user's own (retired too: an entity keeps it) by its current name; anything else is Uncategorized, the spec's
   * rule for a category not in the list.
   */
  resolve(value: unknown): string {
    if (typeof value !== 'string') return DEFAULT_CATEGORY;
    if (isBuiltInCategory(value)) return normalizeCategory(value);
    return this.find(value)?.name ?? DEFAULT_CATEGORY;
  }

  /** A filter's value as the stored name; an unknown one stays as it is, so it matches nothing. */
  filterName(value: string): string {
    return this.find(value)?.name ?? categoryLabel(value);
  }
}

/** No categories of the ledger's own: what a filter of built-in names only needs, read from nowhere. */
export const BUILT_IN_ONLY = new CategoryBook([]);

/**
 * The book a filter's category values need: the ledger's own categories when a value may name one, else
 * `BUILT_IN_ONLY` without a query (the built-in list answers alone).
 */
export function readFilterBook(db: Db, ledgerId: number, values: readonly string[] | undefined): Promise<CategoryBook> {
  const namesOwn = (values ?? []).some((v) => !isBuiltInCategory(v));
  return namesOwn ? readCategoryBook(db, ledgerId) : Promise.resolve(BUILT_IN_ONLY);
}

/** The ledger's own categories, read on `db` (a transaction's, when the caller writes with them). */
export async function readCategoryBook(db: Db, ledgerId: number): Promise<CategoryBook> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'name', 'name_key', 'flow', 'retired_at'])
    .where('ledger_id', '=', ledgerId)
    .execute();
  return new CategoryBook(rows.map(ownCategoryOf));
}

/**
 * Inside a transaction that writes `name` onto entities: holds the row lock of the ledger's own category of that name
 * until the transaction ends, so a rename either waits for this write or went first, and returns its name as it is
 * now (a rename that went first changed it). A built-in name needs no lock.
 */
export async function holdCategory(db: Db, book: CategoryBook, name: string): Promise<string> {
  const own = book.find(name);
  if (!own || isBuiltInCategory(name)) return name;
  const row = await db
    .updateTable('categories')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', own.id)
    .returning('name')
    .executeTakeFirst();
  return row?.name ?? name;
}

/**
 * The stored category for an entity written in the current transaction on `db`: a built-in one without a query,
 * one of the ledger's own by `CategoryBook.resolve`, held by `holdCategory`.
 */
export async function entityCategory(db: Db, ledgerId: number, value: unknown): Promise<string> {
  if (typeof value !== 'string' || isBuiltInCategory(value)) return normalizeCategory(value);
  const book = await readCategoryBook(db, ledgerId);
  return holdCategory(db, book, book.resolve(value));
}
