import type { Selectable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { BillReadingsTable } from '../../db/schema.ts';
import type { EntityCandidate } from './entity-match.ts';

export type BillReadingRow = Selectable<BillReadingsTable>;

/** How a reading ends: its state, what was read (JSON) or why nothing was, and when it is forgotten. */
export interface ReadingEnd {
  state: 'done' | 'failed';
  result: string | null;
  message: string | null;
  expiresAt: number;
}

/** Readings of bills (docs/decisions/1165-readings-in-the-database.md) and what a bill is matched against. */
export class BillReadingRepository extends Repository {
  /** The ledger's live entities (not in the recycle bin), which a bill can be matched to. */
  async entities(ledgerId: number): Promise<EntityCandidate[]> {
    const rows = await this.db
      .selectFrom('bills')
      .select(['id', 'name'])
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: Number(row.id), name: row.name }));
  }

  /** The ledger's readings not finished and not past their deadline, on every server process. */
  async unfinished(ledgerId: number, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('bill_readings')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('ledger_id', '=', ledgerId)
      .where('state', '=', 'reading')
      .where('deadline_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: BillReadingRow): Promise<void> {
    await this.db.insertInto('bill_readings').values(row).execute();
  }

  /** The reading of the ledger, unless it is unknown or forgotten. */
  async find(ledgerId: number, id: string, now: number): Promise<BillReadingRow | undefined> {
    return this.db
      .selectFrom('bill_readings')
      .selectAll()
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** A running reading's progress in hundredths; nothing once it has ended. */
  async progress(id: string, progress: number): Promise<void> {
    await this.db
      .updateTable('bill_readings')
      .set({ progress })
      .where('id', '=', id)
      .where('state', '=', 'reading')
      .execute();
  }

  /** A reading starts in its worker: its deadline and forgetting time counted from now. */
  async started(id: string, deadlineAt: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('bill_readings')
      .set({ deadline_at: deadlineAt, expires_at: expiresAt })
      .where('id', '=', id)
      .where('state', '=', 'reading')
      .execute();
  }

  /**
   * Ends the reading if it is still unfinished (and, with `overdueAt`, past its deadline then): a reading already
   * ended, by its process or by another finding it overdue, keeps its first end.
   */
  async end(id: string, end: ReadingEnd, overdueAt?: number): Promise<void> {
    let query = this.db
      .updateTable('bill_readings')
      .set({ state: end.state, progress: 100, result: end.result, message: end.message, expires_at: end.expiresAt })
      .where('id', '=', id)
      .where('state', '=', 'reading');
    if (overdueAt !== undefined) query = query.where('deadline_at', '<=', overdueAt);
    await query.execute();
  }
}
