/**
 * What switching the tab's ledger does besides sending another `Billfold-Ledger` (docs/decisions/0303-web-ledgers.md):
 * nothing cached of the previous ledger may show, a page of one of its items makes no sense in the next one, and
 * the saved view settings that name its items are dropped.
 */
import type { Ledger } from '@billfold/contract/ledgers';
import type { QueryClient } from '@tanstack/react-query';
import { chooseLedger, type LedgerChoice, readLedgerChoice } from './ledger-choice.ts';
import { readSetting, VIEW_KEYS, writeSetting } from './session.ts';

/** The choice that makes `ledger` the tab's ledger: none for the personal ledger (no header, as the original client). */
export function choiceOf(ledger: Pick<Ledger, 'id' | 'name' | 'role' | 'personal'>): LedgerChoice | null {
  return ledger.personal ? null : { id: ledger.id, name: ledger.name, role: ledger.role };
}

/** Pages of one item of a ledger: after a switch they would show "not found", so the tab goes Home instead. */
const ITEM_PAGES = [/^\/entries\/[^/]+$/, /^\/invoice\/[^/]+$/, /^\/entities\/[^/]+$/, /^\/bills\/[^/]+$/];

/** Where the tab goes after a switch made on `pathname`: Home from an item's page, else it stays (null). */
export function pathAfterSwitch(pathname: string): string | null {
  return ITEM_PAGES.some((pattern) => pattern.test(pathname)) ? '/home' : null;
}

/**
 * The cache keys that are about the user, not one ledger's data: the ledger list, members and invitations. Every
 * other query is removed at a switch, and a call still on its way for the previous ledger is cancelled, so its
 * answer never lands in the next ledger's screens.
 */
export function isLedgerData(queryKey: readonly unknown[]): boolean {
  return queryKey[0] !== 'ledgers' && queryKey[0] !== 'invitations';
}

export function forgetLedgerData(queryClient: QueryClient): void {
  const predicate = (query: { queryKey: readonly unknown[] }) => isLedgerData(query.queryKey);
  void queryClient.cancelQueries({ predicate });
  queryClient.removeQueries({ predicate });
}

/**
 * The view settings that name one ledger's items: the Home filter's entities and invoice number, and the pages of
 * Home and Entities (a page 7 may not exist in the next ledger). Dates, sort, columns and page sizes stay.
 */
export function forgetLedgerViewSettings(): void {
  const filters = readSetting<unknown>(VIEW_KEYS.filters, null);
  if (filters && typeof filters === 'object' && !Array.isArray(filters))
    writeSetting(VIEW_KEYS.filters, { ...filters, biller: [], invoice: '' });
  if (readSetting<unknown>(VIEW_KEYS.page, null) !== null) writeSetting(VIEW_KEYS.page, 0);
  const entities = readSetting<unknown>(VIEW_KEYS.entitiesView, null);
  if (entities && typeof entities === 'object' && !Array.isArray(entities))
    writeSetting(VIEW_KEYS.entitiesView, { ...entities, page: 0 });
}

/** Makes `next` the tab's ledger (null: personal); a real switch forgets the previous ledger's data and views. */
export function switchLedger(queryClient: QueryClient, next: LedgerChoice | null): boolean {
  const switched = (readLedgerChoice()?.id ?? null) !== (next?.id ?? null);
  if (switched) {
    forgetLedgerViewSettings();
    forgetLedgerData(queryClient);
  }
  chooseLedger(next);
  return switched;
}
