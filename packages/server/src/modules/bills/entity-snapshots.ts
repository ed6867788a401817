import type { BillOverview, BillSortField } from '@billfold/contract/bills';
import type { SortOrder } from '@billfold/contract/entries';
import type { Db } from '../../db/database.ts';
import type { ScheduleRow } from '../../db/schema.ts';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import { toBillOverview } from './bill.mapper.ts';
import { type BillOverviewRow, BillsRepository } from './bills.repository.ts';

/**
 * What a ledger's live entities and their schedules are at one data version: the Entities page's rows (with their
 * open balances and next due dates), every schedule of them and what each one's next invoice would get now
 * (docs/decisions/0406-entity-overview.md). The data version rises with every write to invoices, payments, entities
 * and schedules (migration `2026-12-11T00-00_entity_versions`), so a snapshot read at or after a version is exact for
 * as long as the version stays.
 */
export interface EntitySnapshot {
  entities: readonly BillOverviewRow[];
  byId: ReadonlyMap<number, BillOverviewRow>;
  /** By entity id, each entity's in id order. */
  schedules: ReadonlyMap<number, readonly ScheduleRow[]>;
  estimates: ReadonlyMap<number, number>;
  /** The entities in the Entities page's order for a sort (`overviewOrder`), sorted once per snapshot. */
  inOrder(field: BillSortField, order: SortOrder): readonly BillOverviewRow[];
  /** An entity's line of the Entities page but for `overdue`, which depends on the request's today; made once. */
  overview(row: BillOverviewRow): Omit<BillOverview, 'overdue'>;
}

/**
 * The Entities page's order, as `ORDER BY` would give it: the field in `order`, then the name (by its rank in the
 * database's collation) ascending, then the id. Entities without a next due date come last in either order.
 */
function overviewOrder(field: BillSortField, order: SortOrder): (a: BillOverviewRow, b: BillOverviewRow) => number {
  const dir = order === 'desc' ? -1 : 1;
  const name = (a: BillOverviewRow, b: BillOverviewRow) => Number(a.name_rank) - Number(b.name_rank);
  const balance = (row: BillOverviewRow) => Number(row.to_pay_cents) + Number(row.to_collect_cents);
  const key: Record<BillSortField, (a: BillOverviewRow, b: BillOverviewRow) => number> = {
    name: (a, b) => dir * name(a, b),
    category: (a, b) => dir * (Number(a.category_rank) - Number(b.category_rank)) || name(a, b),
    balance: (a, b) => dir * (balance(a) - balance(b)) || name(a, b),
    nextDue: (a, b) =>
      (a.next_due === null ? 1 : 0) - (b.next_due === null ? 1 : 0) ||
      (a.next_due !== null && b.next_due !== null && a.next_due !== b.next_due
        ? dir * (a.next_due < b.next_due ? -1 : 1)
        : 0) ||
      name(a, b),
    invoices: (a, b) => dir * (Number(a.invoice_count) - Number(b.invoice_count)) || name(a, b),
  };
  const first = key[field];
  return (a, b) => first(a, b) || Number(a.id) - Number(b.id);
}

interface Kept {
  version: number;
  snapshot: Promise<EntitySnapshot>;
  rows: number;
}

/**
 * Rows (entities and schedules) the snapshots keep in all, least recently used dropped first: some 40 MB. What is
 * made from them comes on top: a sorted array of references per order asked for, and a line per entity shown.
 */
export const SNAPSHOT_ROWS = 100_000;

/**
 * The ledgers' snapshots, one per ledger at the newest version asked for. A request names the version it began at
 * (the ledger group's hook reads it with the member check): a snapshot read at that version or a later one answers
 * it without a statement; concurrent requests at a new version share one read. Without a version (the calendar feed,
 * which is not a ledger request) the snapshot is read and not kept.
 */
export class EntitySnapshots {
  private readonly kept = new Map<number, Kept>();
  private rows = 0;

  constructor(
    private readonly db: Db,
    private readonly maxRows = SNAPSHOT_ROWS,
  ) {}

  of(ledger: LedgerAt): Promise<EntitySnapshot> {
    const { id, version } = ledger;
    if (version === undefined) return this.read(id);
    const hit = this.kept.get(id);
    if (hit && hit.version >= version) {
      this.kept.delete(id); // re-inserted: the Map's order is least recently used first
      this.kept.set(id, hit);
      return hit.snapshot;
    }
    if (hit) this.drop(id, hit);
    const entry: Kept = { version, snapshot: this.read(id), rows: 0 };
    this.kept.set(id, entry);
    entry.snapshot.then(
      (s) => {
        if (this.kept.get(id) !== entry) return;
        entry.rows = s.entities.length + [...s.schedules.values()].reduce((n, list) => n + list.length, 0);
        this.rows += entry.rows;
        for (const [oldest, kept] of this.kept) {
          if (this.rows <= this.maxRows || oldest === id) break;
          this.drop(oldest, kept);
        }
      },
      () => {
        if (this.kept.get(id) === entry) this.kept.delete(id);
      },
    );
    return entry.snapshot;
  }

  /** How many snapshots are kept and their rows. */
  get size(): { ledgers: number; rows: number } {
    return { ledgers: this.kept.size, rows: this.rows };
  }

  private drop(id: number, kept: Kept): void {
    this.kept.delete(id);
    this.rows -= kept.rows;
  }

  private async read(ledgerId: number): Promise<EntitySnapshot> {
    const repo = new BillsRepository(this.db);
    const entities = await repo.overviewRows(ledgerId);
    const rows = await repo.schedulesOfLedger(ledgerId);
    const estimates = await repo.scheduleEstimates(rows);
    const schedules = new Map<number, ScheduleRow[]>();
    for (const s of rows) {
      const list = schedules.get(s.bill_id);
      if (list) list.push(s);
      else schedules.set(s.bill_id, [s]);
    }
    const orders = new Map<string, readonly BillOverviewRow[]>();
    const overviews = new Map<BillOverviewRow, Omit<BillOverview, 'overdue'>>();
    return {
      entities,
      byId: new Map(entities.map((e) => [Number(e.id), e])),
      schedules,
      estimates,
      inOrder(field, order) {
        const key = `${field} ${order}`;
        let sorted = orders.get(key);
        if (!sorted) {
          sorted = [...entities].sort(overviewOrder(field, order));
          orders.set(key, sorted);
        }
        return sorted;
      },
      overview(row) {
        let line = overviews.get(row);
        if (!line) {
          line = toBillOverview(row, schedules.get(Number(row.id)) ?? [], estimates);
          overviews.set(row, line);
        }
        return line;
      },
    };
  }
}
