import { sql } from 'kysely';
import { Repository } from '../../db/repository.ts';

/**
 * The version of a user's invoices: raised by triggers with every write to them, in the same transaction
 * (migration `2026-11-25T00-00_data_versions`). A response computed under one version is exactly what the
 * queries return for as long as the version stays the same (docs/decisions/0403-list-cache.md).
 */
export class DataVersionRepository extends Repository {
  // Read before every list request: compiled once, run with the user id as its only parameter.
  private readonly query = this.db
    .selectFrom('user_data_versions')
    .select('version')
    .where('user_id', '=', 0)
    .compile();

  async version(userId: number): Promise<number> {
    const [row] = (await this.db.executeQuery({ ...this.query, parameters: [userId] } as typeof this.query)).rows;
    return Number(row?.version ?? 0);
  }

  /** Raises the version once: for a bulk insert made while the row trigger that raises it was off (ADR 0903). */
  async raise(userId: number): Promise<void> {
    await this.db
      .insertInto('user_data_versions')
      .values({ user_id: userId, version: 1 })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ version: sql`user_data_versions.version + 1` }))
      .execute();
  }
}
