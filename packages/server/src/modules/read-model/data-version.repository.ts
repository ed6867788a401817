import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isSqlite } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import { HOUR } from '../../lib/time.ts';

/** How long the change log keeps a row. */
export const CHANGE_LOG_MS = HOUR;

/** Epoch milliseconds by the database's clock: the one the change log's triggers stamp with. */
const databaseNow = (db: Db) =>
  isSqlite(db)
    ? sql<number>`CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`
    : sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * The version of a ledger's data: raised by triggers with every write to its invoices, payments, entities and
 * schedules, in the same transaction (migrations `2026-11-25T00-00_data_versions`, `2026-12-02T00-00_ledger_data`
 * and `2026-12-11T00-00_entity_versions`). A response computed under one version is exactly what the queries return
 * for as long as the version stays the same (docs/decisions/0403-list-cache.md).
 */
export class DataVersionRepository extends Repository {
  // Read before every list request: compiled once, run with the ledger id as its only parameter.
  private readonly query = this.db
    .selectFrom('ledger_data_versions')
    .select('version')
    .where('ledger_id', '=', 0)
    .compile();

  async version(ledgerId: number): Promise<number> {
    const [row] = (await this.db.executeQuery({ ...this.query, parameters: [ledgerId] } as typeof this.query)).rows;
    return Number(row?.version ?? 0);
  }

  /**
   * Raises the version once and logs the invoices `written` (a condition on `entries e`) under it: for a bulk
   * insert made while the row triggers that do both were off (ADR 0903).
   */
  async raise(ledgerId: number, written: Expression<SqlBool>): Promise<void> {
    await this.db
      .insertInto('ledger_data_versions')
      .values({ ledger_id: ledgerId, version: 1 })
      .onConflict((oc) => oc.column('ledger_id').doUpdateSet({ version: sql`ledger_data_versions.version + 1` }))
      .execute();
    await sql`insert into entry_changes (ledger_id, version, entry_id, at)
      select e.ledger_id, v.version, e.id, ${databaseNow(this.db)}
      from entries e join ledger_data_versions v on v.ledger_id = e.ledger_id
      where e.ledger_id = ${ledgerId} and ${written}`.execute(this.db);
  }

  /**
   * Ledgers with invoices, the one whose active member signed in most recently first (the indexes load in this order
   * at start). A ledger has invoices when `entries` has one of its rows (one index seek each), whether or not a write
   * has raised its version yet: a bulk load (bench/seed) writes none.
   */
  async ledgersByRecentSignIn(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('ledger_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select((eb) => ['m.ledger_id', eb.fn.max('u.last_login').as('last_login')])
      .where('u.deactivated_at', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('entries as e').select(sql`1`.as('one')).whereRef('e.ledger_id', '=', 'm.ledger_id')),
      )
      .groupBy('m.ledger_id')
      .orderBy(sql`max(u.last_login) desc nulls last`)
      .orderBy('m.ledger_id')
      .execute();
    return rows.map((r) => Number(r.ledger_id));
  }

  /**
   * Drops the change log's rows older than an hour, by the database's clock (the one the triggers stamp with).
   * An index unused for half an hour reads its ledger afresh instead of catching up (`LedgerIndexOptions`).
   */
  async pruneChanges(): Promise<{ changes: number }> {
    const result = await this.db
      .deleteFrom('entry_changes')
      .where('at', '<', sql<number>`${databaseNow(this.db)} - ${CHANGE_LOG_MS}`)
      .executeTakeFirst();
    return { changes: Number(result.numDeletedRows) };
  }
}
