import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Pay state 1 (partial) now means "not paid and a paid total above zero": an invoice whose live payments sum to
 * 0.00 is unpaid (0). The rollup and data-version triggers move its counts and raise the user's version.
 */
export async function up(db: Db): Promise<void> {
  await sql`UPDATE entries SET pay_state = 0 WHERE pay_state = 1 AND paid_cents <= 0`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`UPDATE entries SET pay_state = 1 WHERE pay_state = 0 AND payment_count > 0 AND paid_cents < amount_cents`.execute(
    db,
  );
}
