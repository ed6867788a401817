import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { nextTurn } from '../../lib/turns.ts';
import { BYTES_PER_SLOT, capacityFor, MATCH_MASKS, Shares } from './ledger-index-columns.ts';
import { SORT_COLUMNS } from './scope-sql.ts';

/**
 * What a ledger index holds in memory, counted the same way before it is loaded (`estimateLedgerBytes`, from SQL)
 * and once it is (`LedgerIndexStore.bytes`): the columns, the sort orders, the read mask, the descriptions and the
 * entities' names (docs/decisions/0405-ledger-index.md, Memory).
 */

/** A JS string: two bytes a character (the worst case) and its header. */
export const textBytes = (chars: number) => 2 * chars + 32;
/** A description, kept once: the string, its map entry and its list slot. */
export const descriptionBytes = (chars: number) => textBytes(chars) + 32;
/** An entity: its name, name key and category strings, the object holding them, its map entry and list slot. */
export const entityBytes = (nameChars: number, keyChars: number, categoryChars: number) =>
  textBytes(nameChars) + textBytes(keyChars) + textBytes(categoryChars) + 88;
/** The per-method shares start at this size: `Shares.bytes` of new ones, not a copy of its arithmetic. */
export const SHARES_START_BYTES = new Shares().bytes;

/** Sort orders the index keeps: one `Int32Array` of live slots per distinct sort column. */
export const ORDER_COUNT = new Set(Object.values(SORT_COLUMNS)).size;

/** Invoices per estimating statement: each reads a bounded slice (a few milliseconds), and the event loop gets a turn between them. */
const ESTIMATE_CHUNK = 10_000;

export interface LedgerEstimate {
  invoices: number;
  bytes: number;
}

/**
 * The memory the ledger's index would take, from SQL and without loading it: invoice count and description text
 * from slices of 10,000 invoices in invoice-number order (an index walk of `entries_user_number`, no other
 * ledger's rows; a description repeated in several slices is counted in each, so the text is never under-counted), entity count and name lengths from `bills`.
 */
export async function estimateLedgerBytes(db: Kysely<Database>, ledgerId: number): Promise<LedgerEstimate> {
  let invoices = 0;
  let descriptions = 0;
  let after = 0;
  for (;;) {
    const { rows } = await sql<{
      n_rows: number | null;
      kinds: number | null;
      chars: number | null;
      last: number | null;
    }>`
      select sum(g.n) as n_rows, count(*) as kinds, sum(length(g.services)) as chars, max(g.last) as last
      from (select c.services, count(*) as n, max(c.invoice_number) as last
            from (select invoice_number, services from entries where ledger_id = ${ledgerId} and invoice_number > ${after}
                  order by invoice_number limit ${ESTIMATE_CHUNK}) c
            group by c.services) g`.execute(db);
    const slice = rows[0];
    const n = Number(slice?.n_rows ?? 0);
    if (n === 0 || slice?.last == null) break;
    invoices += n;
    descriptions += Number(slice.kinds) * descriptionBytes(0) + 2 * Number(slice.chars ?? 0);
    after = Number(slice.last);
    if (n < ESTIMATE_CHUNK) break;
    await nextTurn();
  }
  const bills = await db
    .selectFrom('bills')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>(sql`length(name) + length(name_key) + length(category)`).as('chars'),
    ])
    .where('ledger_id', '=', ledgerId)
    .executeTakeFirst();
  const entities = Number(bills?.n ?? 0) * entityBytes(0, 0, 0) + 2 * Number(bills?.chars ?? 0);
  const capacity = capacityFor(invoices);
  const bytes =
    capacity * BYTES_PER_SLOT + // the columns
    MATCH_MASKS * capacity + // the read masks
    4 * invoices + // at most, the due summary's unpaid invoices (`LedgerIndex.owedSlots`; its days are few)
    2 * 4 * invoices + // the slots grouped by category and by entity (`LedgerIndex.grouped`; their starts are few)
    ORDER_COUNT * 4 * invoices +
    SHARES_START_BYTES +
    descriptions +
    entities;
  return { invoices, bytes };
}
