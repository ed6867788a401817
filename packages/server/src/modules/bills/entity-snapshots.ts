import type { Db } from '../../db/database.ts';
import type { ScheduleRow } from '../../db/schema.ts';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
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
}

interface Kept {
  version: number;
  snapshot: Promise<EntitySnapshot>;
  rows: number;
}

/** Rows (entities and schedules) the snapshots keep in all, least recently used dropped first: some 40 MB. */
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
    return { entities, byId: new Map(entities.map((e) => [Number(e.id), e])), schedules, estimates };
  }
}
