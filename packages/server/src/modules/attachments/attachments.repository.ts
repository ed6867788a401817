import { type Insertable, type SqlBool, sql } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { AttachmentsTable } from '../../db/schema.ts';
import { DataVersionRepository } from '../read-model/data-version.repository.ts';

/** Which item a file is attached to. */
export type AttachmentOwner = { entryId: number } | { paymentId: number };

export class AttachmentsRepository extends Repository {
  /** The invoice or payment of this ledger, with whether it is in the recycle bin; undefined when there is none. */
  async owner(ledgerId: number, owner: AttachmentOwner): Promise<{ recycled: boolean } | undefined> {
    const table = 'entryId' in owner ? 'entries' : 'payments';
    const id = 'entryId' in owner ? owner.entryId : owner.paymentId;
    const row = await this.db
      .selectFrom(table)
      .select('recycled_at')
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
    return row && { recycled: row.recycled_at !== null };
  }

  /** Bytes of every attachment of the ledger, those of recycled items included. */
  async usedBytes(ledgerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('attachments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  async insert(values: Insertable<AttachmentsTable>) {
    return this.db.insertInto('attachments').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** The live item's attachments, oldest first; an item in the recycle bin has none to show. */
  listOf(ledgerId: number, owner: AttachmentOwner) {
    return this.live(ledgerId)
      .where(
        'entryId' in owner ? 'a.entry_id' : 'a.payment_id',
        '=',
        'entryId' in owner ? owner.entryId : owner.paymentId,
      )
      .orderBy('a.id')
      .execute();
  }

  /** One attachment of a live item of this ledger. */
  get(ledgerId: number, id: number) {
    return this.live(ledgerId).where('a.id', '=', id).executeTakeFirst();
  }

  /** Attachments of this ledger whose invoice or payment is not in the recycle bin. */
  private live(ledgerId: number) {
    return this.db
      .selectFrom('attachments as a')
      .leftJoin('entries as e', 'e.id', 'a.entry_id')
      .leftJoin('payments as p', 'p.id', 'a.payment_id')
      .selectAll('a')
      .where('a.ledger_id', '=', ledgerId)
      .where((eb) =>
        eb.or([
          eb.and([eb('a.entry_id', 'is not', null), eb('e.recycled_at', 'is', null)]),
          eb.and([eb('a.payment_id', 'is not', null), eb('p.recycled_at', 'is', null)]),
        ]),
      );
  }

  /**
   * Raises the ledger's data version and logs the invoice the file belongs to (itself, or its payment's), in the
   * caller's transaction: the list cache, the ledger index and the `hasAttachment` filter read the change
   * (docs/decisions/1143-attachment-count-and-filter.md).
   */
  async touch(ledgerId: number, owner: AttachmentOwner): Promise<void> {
    const written =
      'entryId' in owner
        ? sql<SqlBool>`e.id = ${owner.entryId}`
        : sql<SqlBool>`e.id in (select p.entry_id from payments p where p.id = ${owner.paymentId})`;
    await new DataVersionRepository(this.db).raise(ledgerId, written);
  }

  async delete(ledgerId: number, id: number): Promise<void> {
    await this.db.deleteFrom('attachments').where('id', '=', id).where('ledger_id', '=', ledgerId).execute();
  }
}
