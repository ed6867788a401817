import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * A ledger being written by an account-file import (docs/decisions/0707-account-import-in-steps.md): `importing_since`
 * is set while the import writes it in transactions of its own, with no member, and cleared by the one short
 * transaction that makes it the account's ledger. Work that goes over every ledger (the recycle-bin purge, the
 * recurring invoices) passes such a ledger over; one left by a crash is removed at the next start.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('ledgers').addColumn('importing_since', 'bigint').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('ledgers').dropColumn('importing_since').execute();
}
