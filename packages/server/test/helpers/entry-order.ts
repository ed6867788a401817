import type { SortField, SortOrder } from '@billfold/contract/entries';
import type { SeededEntry } from './seed.ts';

/** The reference key of each sort field, computed from what was seeded (the model the list is checked against). */
export const SORT_KEY: Record<SortField, (e: SeededEntry) => string | number> = {
  invoiceId: (e) => e.invoiceNumber,
  name: (e) => e.bill.name.toLowerCase(),
  date: (e) => e.date,
  flow: (e) => e.flow,
  amount: (e) => e.amountCents,
  status: (e) => e.payState,
  balance: (e) => e.balanceCents,
  services: (e) => e.services,
  category: (e) => e.bill.category,
  internal: (e) => (e.bill.internal ? 1 : 0),
  archived: (e) => (e.bill.archived ? 1 : 0),
  dueDate: (e) => e.dueDate ?? '9999-12-31',
};

/** Invoice numbers in the order of `field` then invoice number, both `order` (the API's total order). */
export function sortedNumbers(entries: SeededEntry[], field: string, order: SortOrder): number[] {
  const key = SORT_KEY[field as SortField];
  if (!key) throw new Error(`no key for ${field}`);
  const sign = order === 'asc' ? 1 : -1;
  return [...entries]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * sign;
      return (a.invoiceNumber - b.invoiceNumber) * sign;
    })
    .map((e) => e.invoiceNumber);
}
