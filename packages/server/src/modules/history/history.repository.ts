import type { FieldChange, HistoryAction } from '@billfold/contract/history';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import { nextTurn } from '../../lib/turns.ts';
import { type HistoryKind, type HistoryRows, rowChanges } from './history-fields.ts';

/** Each kind's history table, its item column and the item's own table. */
const TABLES = {
  entry: { history: 'entry_history', item: 'entry_id', items: 'entries' },
  payment: { history: 'payment_history', item: 'payment_id', items: 'payments' },
  bill: { history: 'bill_history', item: 'bill_id', items: 'bills' },
} as const;

/** Rows per multi-row INSERT: 6 parameters each, well under SQLite's 32,766 and PostgreSQL's 65,535. */
const CHUNK = 1_000;

type BinRows<K extends HistoryKind> = readonly (HistoryRows[K] & { id: number })[];

/** One item's write: its row before (null: a new item) and after. */
export interface HistoryItem<K extends HistoryKind> {
  id: number;
  before: HistoryRows[K] | null;
  after: HistoryRows[K];
}

export interface HistoryRow {
  id: number;
  at: number;
  action: string;
  fields: string;
  user_id: number | null;
  username: string | null;
}

/**
 * The change history of invoices, payments and entities (docs/decisions/0108-change-history.md). A writer gets one
 * through its own repository's `history(at)`, on the same connection, so each record goes in the write's own
 * transaction; `at` is the write's instant. Reads go through `HistoryReader`.
 */
export class HistoryRepository extends Repository {
  constructor(
    db: Db,
    private readonly at: number,
  ) {
    super(db);
  }

  /** Records one write of item `itemId` by `actor` (null: the server's own work); nothing when nothing changed. */
  record<K extends HistoryKind>(
    kind: K,
    itemId: number,
    actor: number | null,
    action: HistoryAction,
    before: HistoryRows[K] | null,
    after: HistoryRows[K],
  ): Promise<void> {
    return this.recordMany(kind, actor, action, [{ id: itemId, before, after }]);
  }

  /** Records the writes of many items of one kind, one multi-row INSERT per `CHUNK` items that changed. */
  async recordMany<K extends HistoryKind>(
    kind: K,
    actor: number | null,
    action: HistoryAction,
    items: readonly HistoryItem<K>[],
  ): Promise<void> {
    const { history, item } = TABLES[kind];
    // A bulk write (an import) records thousands of items: a turn of the event loop between chunks, so that other
    // requests are answered meanwhile (better-sqlite3 answers synchronously; lib/turns.ts).
    for (let i = 0; i < items.length; i += CHUNK) {
      if (i > 0) await nextTurn();
      const rows: Record<string, unknown>[] = [];
      for (const { id, before, after } of items.slice(i, i + CHUNK)) {
        const fields: FieldChange[] = rowChanges(kind, before, after);
        if (fields.length > 0)
          rows.push({ [item]: id, user_id: actor, at: this.at, action, fields: JSON.stringify(fields) });
      }
      if (rows.length > 0)
        await this.db
          .insertInto(history)
          .values(rows as never)
          .execute();
    }
  }

  /**
   * Items that only went to the recycle bin (`recycle`) or came back from it (`restore`) together with another
   * item (an entity's invoices and payments, an invoice's payments): `rows` as they are now.
   */
  binMoves<K extends HistoryKind>(
    kind: K,
    actor: number | null,
    action: 'recycle' | 'restore',
    rows: BinRows<K>,
  ): Promise<void> {
    const wasRecycled = action === 'restore' ? this.at : null;
    return this.recordMany(
      kind,
      actor,
      action,
      rows.map((row) => ({ id: row.id, before: { ...row, recycled_at: wasRecycled }, after: row })),
    );
  }

  /** `binMoves` of each kind at once: an entity with its invoices and their payments, say. */
  async binMovesOf(
    actor: number | null,
    action: 'recycle' | 'restore',
    moved: { bills?: BinRows<'bill'>; entries?: BinRows<'entry'>; payments?: BinRows<'payment'> },
  ): Promise<void> {
    await this.binMoves('bill', actor, action, moved.bills ?? []);
    await this.binMoves('entry', actor, action, moved.entries ?? []);
    await this.binMoves('payment', actor, action, moved.payments ?? []);
  }
}

/** Reads of the change history: the routes of `history.routes.ts` (they write nothing, so no instant). */
export class HistoryReader extends Repository {
  /** Whether the item is in the ledger, in the recycle bin or not. */
  async holds(kind: HistoryKind, ledgerId: number, itemId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom(TABLES[kind].items as 'entries')
      .select('id')
      .where('id', '=', itemId)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The item's history, oldest first, with each author's username (null once their account is gone). */
  async list(kind: HistoryKind, itemId: number): Promise<HistoryRow[]> {
    const { history, item } = TABLES[kind];
    const result = await sql<HistoryRow>`
      select h.id, h.at, h.action, h.fields, h.user_id, u.username
      from ${sql.table(history)} h left join users u on u.id = h.user_id
      where h.${sql.ref(item)} = ${itemId}
      order by h.id`.execute(this.db);
    return result.rows;
  }
}
