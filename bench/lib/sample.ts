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

/** What drawing random requests needs of each of many users' ledgers (bench/tenants.ts). */
export interface LedgerSample {
  username: string;
  ledgerId: number;
  firstDate: string;
  lastDate: string;
  entityNames: string[];
  invoiceNumbers: number[];
}

/**
 * The personal ledgers of every user whose name starts with `prefix` (the seeder names them `<name>`, `<name>2`, …),
 * read in a few grouped queries however many users there are: the live date span, the live entity names, and the
 * invoice numbers of about one live invoice in a hundred.
 */
export async function sampleLedgers(config: DatabaseConfig, prefix: string): Promise<LedgerSample[]> {
  const sql = {
    ledgers: `SELECT u.username AS username, l.id AS id FROM users u JOIN ledgers l ON l.personal_user_id = u.id
               WHERE u.username_key LIKE $1 ORDER BY l.id`,
    spans: `SELECT ledger_id AS id, min(date) AS first, max(date) AS last FROM entries
             WHERE recycled_at IS NULL GROUP BY ledger_id`,
    names: 'SELECT ledger_id AS id, name FROM bills WHERE recycled_at IS NULL ORDER BY id',
    numbers: `SELECT ledger_id AS id, invoice_number AS n FROM entries
               WHERE recycled_at IS NULL AND invoice_number % 100 = 37`,
  };
  type Row = Record<string, string | number>;
  let rows: { ledgers: Row[]; spans: Row[]; names: Row[]; numbers: Row[] };
  const like = `${prefix.toLowerCase()}%`;
  if (config.dialect === 'sqlite') {
    const db = new SQLite(config.file, { readonly: true });
    try {
      const all = (text: string, ...params: string[]) => db.prepare(text.replace(/\$1/g, '?')).all(...params) as Row[];
      rows = {
        ledgers: all(sql.ledgers, like),
        spans: all(sql.spans),
        names: all(sql.names),
        numbers: all(sql.numbers),
      };
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: config.url });
    await client.connect();
    try {
      const all = async (text: string, ...params: string[]) => (await client.query<Row>(text, params)).rows;
      rows = {
        ledgers: await all(sql.ledgers, like),
        spans: await all(sql.spans),
        names: await all(sql.names),
        numbers: await all(sql.numbers),
      };
    } finally {
      await client.end();
    }
  }
  const byId = new Map<number, LedgerSample>();
  for (const r of rows.ledgers) {
    const ledgerId = Number(r.id);
    byId.set(ledgerId, {
      username: String(r.username),
      ledgerId,
      firstDate: '',
      lastDate: '',
      entityNames: [],
      invoiceNumbers: [],
    });
  }
  for (const r of rows.spans) {
    const s = byId.get(Number(r.id));
    if (s) Object.assign(s, { firstDate: String(r.first), lastDate: String(r.last) });
  }
  for (const r of rows.names) byId.get(Number(r.id))?.entityNames.push(String(r.name));
  for (const r of rows.numbers) byId.get(Number(r.id))?.invoiceNumbers.push(Number(r.n));
  return [...byId.values()].filter((s) => s.firstDate !== '');
}
