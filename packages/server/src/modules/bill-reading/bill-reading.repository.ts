import { Repository } from '../../db/repository.ts';
import type { EntityCandidate } from './entity-match.ts';

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
}
