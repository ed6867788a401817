import type { Bill } from '@billfold/contract/bills';
import { categoryLabel } from '@billfold/contract/categories';
import type { BillRow, EntriesTable } from '../../db/schema.ts';

/** The entity columns every invoice carries a copy of. */
export type EntryBillColumns = Pick<EntriesTable, 'bill_name' | 'bill_name_key' | 'category' | 'internal' | 'archived'>;

/** The case-insensitive key that makes entity names unique per user. */
export function billNameKey(name: string): string {
  return name.toLowerCase();
}

export function toBill(row: BillRow): Bill {
  return {
    id: row.id,
    name: row.name,
    category: categoryLabel(row.category),
    internal: row.internal === 1,
    status: row.status === 1 ? 1 : 0,
    recycle: row.recycled_at !== null,
  };
}

/** What an invoice copies from its entity. */
export function entryColumnsOf(
  bill: Pick<BillRow, 'name' | 'name_key' | 'category' | 'internal' | 'status'>,
): EntryBillColumns {
  return {
    bill_name: bill.name,
    bill_name_key: bill.name_key,
    category: bill.category,
    internal: bill.internal,
    archived: bill.status === 0 ? 1 : 0,
  };
}
