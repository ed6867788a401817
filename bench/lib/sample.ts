import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../../packages/server/src/config.ts';

/** What the scenarios need to know about the seeded data, read straight from the database. */
export interface DataSample {
  /** The user's personal ledger, which holds the seeded data. */
  ledgerId: number;
  /** Live invoices of the user. */
  liveEntries: number;
  /** Random live invoices (any entity): read scenarios. */
  readIds: number[];
  /** Random live invoices of active entities: payments may be added to them. */
  writableIds: number[];
  /** The category with the most live invoices. */
  topCategory: string;
  firstDate: string;
  lastDate: string;
  /** Entity names of the user (live ones), for entity filters. */
  entityNames: string[];
  /** Invoice numbers of random live invoices, for the invoice # filter. */
  invoiceNumbers: number[];
}

const SAMPLE = 2_000;

export async function sampleData(config: DatabaseConfig, username: string): Promise<DataSample> {
  const sql = {
    // The user's personal ledger: where the seeder writes their data (docs/decisions/0107-ledgers.md).
    user: 'SELECT l.id FROM users u JOIN ledgers l ON l.personal_user_id = u.id WHERE u.username_key = $1',
    live: 'SELECT count(*) AS n, min(date) AS first, max(date) AS last FROM entries WHERE ledger_id = $1 AND recycled_at IS NULL',
    names: 'SELECT name FROM bills WHERE ledger_id = $1 AND recycled_at IS NULL ORDER BY id',
    numbers: `SELECT invoice_number AS n FROM entries WHERE ledger_id = $1 AND recycled_at IS NULL ORDER BY random() LIMIT 200`,
    read: `SELECT id FROM entries WHERE ledger_id = $1 AND recycled_at IS NULL ORDER BY random() LIMIT ${SAMPLE}`,
    writable: `SELECT id FROM entries WHERE ledger_id = $1 AND recycled_at IS NULL AND archived = 0 ORDER BY random() LIMIT ${SAMPLE}`,
    category: `SELECT category FROM entries WHERE ledger_id = $1 AND recycled_at IS NULL
                 GROUP BY category ORDER BY count(*) DESC, category LIMIT 1`,
  };
  if (config.dialect === 'sqlite') {
    const db = new SQLite(config.file, { readonly: true });
    try {
      const q = (text: string) => db.prepare(text.replace(/\$1/g, '?'));
      const user = q(sql.user).get(username.toLowerCase()) as { id: number } | undefined;
      if (!user) throw new Error(`user ${username} not found`);
      const live = q(sql.live).get(user.id) as { n: number; first: string; last: string };
      return {
        ledgerId: user.id,
        liveEntries: live.n,
        firstDate: live.first,
        lastDate: live.last,
        entityNames: (q(sql.names).all(user.id) as { name: string }[]).map((r) => r.name),
        invoiceNumbers: (q(sql.numbers).all(user.id) as { n: number }[]).map((r) => r.n),
        readIds: (q(sql.read).all(user.id) as { id: number }[]).map((r) => r.id),
        writableIds: (q(sql.writable).all(user.id) as { id: number }[]).map((r) => r.id),
        topCategory: (q(sql.category).get(user.id) as { category: string }).category,
      };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    const user = (await client.query<{ id: string }>(sql.user, [username.toLowerCase()])).rows[0];
    if (!user) throw new Error(`user ${username} not found`);
    const id = Number(user.id);
    const live = (await client.query<{ n: string; first: string; last: string }>(sql.live, [id])).rows[0];
    const ids = async (text: string) => (await client.query<{ id: string }>(text, [id])).rows.map((r) => Number(r.id));
    return {
      ledgerId: id,
      liveEntries: Number(live?.n),
      firstDate: String(live?.first),
      lastDate: String(live?.last),
      entityNames: (await client.query<{ name: string }>(sql.names, [id])).rows.map((r) => r.name),
      invoiceNumbers: (await client.query<{ n: string }>(sql.numbers, [id])).rows.map((r) => Number(r.n)),
      readIds: await ids(sql.read),
      writableIds: await ids(sql.writable),
      topCategory: String((await client.query<{ category: string }>(sql.category, [id])).rows[0]?.category),
    };
  } finally {
    await client.end();
  }
}
