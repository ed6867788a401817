import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { readAside } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { firstAtOrAfter, sortByKey } from '../../lib/sorted.ts';
import { nextTurn } from '../../lib/turns.ts';
import {
  ARCHIVED,
  ATTACHED,
  allocate,
  BYTES_PER_SLOT,
  COLUMN_TYPES,
  type Columns,
  capacityFor,
  day,
  ESTIMATED,
  INCOMING,
  INTERNAL,
  LIVE,
  MATCH_MASKS,
  MIXED,
  NO_DUE,
  NO_METHOD,
  owedCentsOf,
  Shares,
} from './ledger-index-columns.ts';
import { descriptionBytes, entityBytes } from './ledger-index-size.ts';
import { attachmentCounts, SORT_COLUMNS, type SortColumn } from './scope-sql.ts';

/** `due_sort` of an invoice without a due date (migration `2026-11-29T00-00_due_dates`): after every date. */
const NO_DUE_SORT = day('9999-12-31');

/**
 * The sort columns whose order the index works out from its own columns alone: numbers, flags and days (an ISO date's
 * text order is its day's), each exactly the value the database sorts by, so the order comes out as `ORDER BY column,
 * invoice_number` does. The text columns (`TEXT_KEYS`) are ordered by the database's collation, which only the
 * database knows: it ranks their distinct values (`rankedOrder`).
 */
const OWN_KEYS: Record<Exclude<SortColumn, TextColumn>, (c: Columns, slot: number) => number> = {
  invoice_number: (c, s) => c.invoice[s] as number,
  date: (c, s) => c.date[s] as number,
  // 'INCOMING' before 'OUTGOING'.
  flow: (c, s) => ((c.flags[s] as number) & INCOMING ? 0 : 1),
  amount_cents: (c, s) => c.amount[s] as number,
  pay_state: (c, s) => c.pay[s] as number,
  balance_cents: owedCentsOf,
  internal: (c, s) => ((c.flags[s] as number) & INTERNAL ? 1 : 0),
  archived: (c, s) => ((c.flags[s] as number) & ARCHIVED ? 1 : 0),
  due_sort: (c, s) => (c.due[s] === NO_DUE ? NO_DUE_SORT : (c.due[s] as number)),
};

/**
 * The text sort columns: per column, the slot's value as a number (`of`) and the text each number stands for
 * (`texts`), from the index's own lists.
 */
type TextColumn = 'bill_name_key' | 'services' | 'category';
interface TextKey {
  of: (c: Columns, slot: number) => number;
  texts: (lists: TextLists) => readonly string[];
}
interface TextLists {
  bills: readonly { nameKey: string }[];
  services: readonly string[];
  categories: readonly string[];
}
const TEXT_KEYS: Record<TextColumn, TextKey> = {
  bill_name_key: { of: (c, s) => c.bill[s] as number, texts: (l) => l.bills.map((b) => b.nameKey) },
  services: { of: (c, s) => c.service[s] as number, texts: (l) => l.services },
  category: { of: (c, s) => c.category[s] as number, texts: (l) => l.categories },
};
const isText = (column: SortColumn): column is TextColumn => column in TEXT_KEYS;
export const TEXT_SORT_COLUMNS = Object.keys(TEXT_KEYS) as TextColumn[];

/**
 * The ledger index's storage (`LedgerIndex` in ledger-index.ts adds the reads): the columns read from the
 * database in chunks, the entities, descriptions and payment methods they point at, the sort orders, and
 * `catchUp`, which brings them to a newer data version (docs/decisions/0405-ledger-index.md).
 */

/**
 * Rows read per statement while loading: the event loop gets a turn between them. 8,000 rows are about 25 ms of SQL
 * and 15 ms of writing them into the columns on an idle machine; 25,000 held the loop up to 150 ms while the
 * index of a 1,000,000-invoice ledger loaded (docs/performance.md, "No request stalls the others").
 */
const LOAD_CHUNK = 8_000;
/** Invoices re-read per statement while catching up. */
const DELTA_CHUNK = 500;

export const ENTRY_INDEX_COLUMNS = [
  'id',
  'invoice_number',
  'date',
  'amount_cents',
  'paid_cents',
  'bill_id',
  'flow',
  'internal',
  'archived',
  'pay_state',
  'category',
  'payment_count',
  'recycled_at',
  'services',
  'due_date',
  'estimate_cents',
  'estimated',
] as const;

/**
 * A load's chunk of the ledger's invoices (live, recycled and purged alike) after invoice `after`, in id order: a
 * range of `entries_ledger_id` (migration `2026-12-10T00-00_ledger_id_order`), so a small ledger among large ones
 * reads only its own rows.
 */
export const invoicesAfter = (db: Kysely<Database>, ledgerId: number, after: number) =>
  db
    .selectFrom('entries')
    .select(ENTRY_INDEX_COLUMNS)
    .where('ledger_id', '=', ledgerId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(LOAD_CHUNK);

/** A load's chunk of the ledger's live payments after payment `after`, in id order: a range of `payments_ledger_id`. */
export const livePaymentsAfter = (db: Kysely<Database>, ledgerId: number, after: number) =>
  db
    .selectFrom('payments')
    .select(['id', 'entry_id', 'type', 'medium', 'amount_cents'])
    .where('ledger_id', '=', ledgerId)
    .where('id', '>', after)
    .where('recycled_at', 'is', null)
    .orderBy('id')
    .limit(LOAD_CHUNK);

/**
 * The distinct live values of a text sort column in the database's order (`rankedOrder`): a walk of the column's
 * index `entries_live_<column>` (test/query-plan.test.ts).
 */
export const distinctTexts = (db: Kysely<Database>, ledgerId: number, column: TextColumn) =>
  db
    .selectFrom('entries')
    .select(sql.ref<string>(column).as('text'))
    .distinct()
    .where('ledger_id', '=', ledgerId)
    .where('recycled_at', 'is', null)
    .orderBy('text');

interface EntryIndexRow {
  id: number;
  invoice_number: number;
  date: string;
  amount_cents: number;
  paid_cents: number;
  bill_id: number;
  flow: string;
  internal: number;
  archived: number;
  pay_state: number;
  category: string;
  payment_count: number;
  recycled_at: number | null;
  services: string;
  due_date: string | null;
  estimate_cents: number | null;
  estimated: number;
}

interface PaymentSum {
  entry_id: number;
  type: string;
  medium: string;
  n: number;
  total: number;
  max: number;
}

/** A typed array of the index, as a saved copy holds it. */
export type SavedArray = Int32Array | Float64Array | Uint8Array;

/** An index's state as its saved copy holds it (`LedgerIndexStore.savedState`, ledger-index-file.ts). */
export interface SavedState {
  version: number;
  slots: number;
  shares: number;
  bills: readonly { id: number; name: string; nameKey: string; category: string }[];
  categories: readonly string[];
  methods: readonly { type: string; medium: string }[];
  services: readonly string[];
  arrays: [string, SavedArray][];
}

/** A saved copy's state without its arrays, which `ReadSavedArray` reads one by one. */
export type SavedLists = Omit<SavedState, 'arrays'>;
/** Reads the array `name` of the copy, of `length` elements (any, for a sort order: as many as the copy holds). */
export type ReadSavedArray = <A extends SavedArray>(
  name: string,
  type: new (length: number) => A,
  length?: number,
) => Promise<A>;

/** Thrown when the index cannot take a change in place (an invoice id older than the newest one appeared). */
export class IndexRebuildNeeded extends Error {}

/** Thrown while loading when the columns read so far already take more than the memory allowed. */
export class IndexTooLarge extends Error {}

/**
 * For each live invoice of `ids`, the live invoice right before it in `ORDER BY column, invoice_number`: one
 * seek of the sort's index `entries_live_<column>` each (test/query-plan.test.ts).
 */
export function predecessors(ledgerId: number, column: SortColumn, ids: number[]) {
  return sql<{ id: number; pred: number | null }>`
    select e.id, (select p.id from entries p
        where p.ledger_id = ${ledgerId} and p.recycled_at is null
          and (p.${sql.ref(column)}, p.invoice_number) < (e.${sql.ref(column)}, e.invoice_number)
        order by p.${sql.ref(column)} desc, p.invoice_number desc limit 1) as pred
    from entries e where e.id in (${sql.join(ids)}) and e.recycled_at is null`;
}

export abstract class LedgerIndexStore {
  /** The ledger's data version the columns are exact at. */
  version = 0;
  protected n = 0;
  protected cols: Columns = allocate(capacityFor(0));
  private readonly billSlots = new Map<number, number>();
  protected bills: { id: number; name: string; nameKey: string; category: string }[] = [];
  /** The entities' names, name keys and categories (`entityBytes`). */
  private billBytes = 0;
  protected readonly categorySlots = new Map<string, number>();
  protected readonly categories: string[] = [];
  /** Descriptions, each kept once (ledgers repeat them: "Rent", "Electricity"), for the export. */
  private readonly serviceSlots = new Map<string, number>();
  protected readonly services: string[] = [];
  private serviceBytes = 0;
  private readonly methodSlots = new Map<string, number>();
  protected readonly methods: { type: string; medium: string }[] = [];
  /** Per-method shares of the slots whose live payments use several methods. */
  protected readonly shares = new Shares();
  /** The masks of the last scopes read (`match`), at `matchesAt`, least recently used first. */
  protected readonly matches = new Map<string, { mask: Uint8Array; count: number }>();
  protected matchesAt = -1;
  /** Per sort column: the live slots in the database's `ORDER BY column, invoice_number`. */
  private readonly orders = new Map<SortColumn, Int32Array>();

  protected constructor(
    protected readonly db: Kysely<Database>,
    readonly ledgerId: number,
  ) {}

  /** Memory held, counted as `estimateLedgerBytes` counts it before a load: names and descriptions included. */
  get bytes(): number {
    let bytes =
      this.cols.id.length * BYTES_PER_SLOT +
      this.serviceBytes +
      this.billBytes +
      this.shares.bytes +
      MATCH_MASKS * this.cols.id.length; // the read masks, allocated as reads come
    for (const order of this.orders.values()) bytes += order.byteLength;
    return bytes;
  }

  /**
   * Reads the ledger's invoices, payment sums and entities, in chunks; exact at `version` (read first), the columns
   * allocated for the `expected` invoices (the estimate's count). Stops with `IndexTooLarge` as soon as what it holds
   * passes `maxBytes`, whatever the estimate said.
   */
  protected async fill(version: number, maxBytes = Number.POSITIVE_INFINITY, expected = 0): Promise<void> {
    const within = () => {
      if (this.bytes > maxBytes) throw new IndexTooLarge(`over ${maxBytes} bytes after ${this.n} invoices`);
    };
    const { db, ledgerId } = this;
    this.version = version;
    this.cols = allocate(capacityFor(expected));
    await this.loadBills();
    let after = 0;
    for (;;) {
      const rows = (await invoicesAfter(db, ledgerId, after).execute()) as EntryIndexRow[];
      const last = rows[rows.length - 1];
      if (!last) break;
      await this.writeRows(rows, []);
      within();
      // A short chunk was the last: what is written after it is in the change log above `version`.
      if (rows.length < LOAD_CHUNK) break;
      after = Number(last.id);
      await nextTurn();
    }
    await this.loadPayments();
    await this.loadAttachments();
    within();
    const byInvoice = await this.liveByInvoice();
    for (const column of new Set(Object.values(SORT_COLUMNS))) {
      await (isText(column)
        ? this.rankedOrder(column, TEXT_KEYS[column], byInvoice)
        : this.ownOrder(column, OWN_KEYS[column], byInvoice));
      within();
    }
  }

  // ---------------------------------------------------------------- the saved copy (ledger-index-file.ts)

  /** Invoices the index holds a slot for (live, recycled and purged ones alike). */
  get slotCount(): number {
    return this.n;
  }

  /**
   * What a saved copy holds (ADR 0407): the typed arrays as views of their used part, and the small lists. Taken
   * while nothing else touches the index (before it is published, or inside its ledger's queue).
   */
  savedState(): SavedState {
    const arrays: [string, SavedArray][] = [];
    for (const [name, column] of Object.entries(this.cols)) arrays.push([`col.${name}`, column.subarray(0, this.n)]);
    const { shares } = this;
    arrays.push(
      ['shares.method', shares.method.subarray(0, shares.length)],
      ['shares.total', shares.total.subarray(0, shares.length)],
      ['shares.count', shares.count.subarray(0, shares.length)],
      ['shares.next', shares.next.subarray(0, shares.length)],
    );
    for (const [column, order] of this.orders) arrays.push([`order.${column}`, order]);
    return {
      version: this.version,
      slots: this.n,
      shares: shares.length,
      bills: this.bills,
      categories: this.categories,
      methods: this.methods,
      services: this.services,
      arrays,
    };
  }

  /**
   * Fills a new index from a saved copy's lists; `array` gives each typed array, read into a new one of the
   * length saved. The entities are read again from the database (names may have changed since).
   */
  protected async restoreState(state: SavedLists, array: ReadSavedArray): Promise<void> {
    this.version = state.version;
    this.n = state.slots;
    const cols = {} as Record<string, SavedArray>;
    for (const [name, T] of Object.entries(COLUMN_TYPES)) {
      cols[name] = await array(`col.${name}`, T as new (length: number) => SavedArray, state.slots);
    }
    this.cols = cols as unknown as Columns;
    const { shares } = this;
    const capacity = Math.max(shares.method.length, state.shares);
    const grown = async <A extends SavedArray>(name: string, T: new (length: number) => A) => {
      const out = new T(capacity);
      out.set((await array(name, T, state.shares)) as never);
      return out;
    };
    shares.method = await grown('shares.method', Uint8Array);
    shares.total = await grown('shares.total', Float64Array);
    shares.count = await grown('shares.count', Int32Array);
    shares.next = await grown('shares.next', Int32Array);
    shares.length = state.shares;
    for (const [i, bill] of state.bills.entries()) {
      this.billSlots.set(bill.id, i);
      this.bills.push(bill);
      this.billBytes += entityBytes(bill.name.length, bill.nameKey.length, bill.category.length);
    }
    for (const category of state.categories) this.slotOf(this.categorySlots, this.categories, category, category);
    for (const m of state.methods) this.methodSlot(m.type, m.medium);
    for (const service of state.services) {
      this.slotOf(this.serviceSlots, this.services, service, service);
      this.serviceBytes += descriptionBytes(service.length);
    }
    for (const column of new Set(Object.values(SORT_COLUMNS))) {
      this.orders.set(column, await array(`order.${column}`, Int32Array));
    }
    await this.loadBills();
  }

  /**
   * The live payments in id order, added to their invoices' slots: one method's payments add up to the paid
   * total; a second method makes the slot mixed, with a share per method.
   */
  private async loadPayments(): Promise<void> {
    const { maxPayment, method } = this.cols;
    // The first method's running total and count per slot, until a second one appears.
    const total = new Float64Array(this.n);
    const count = new Int32Array(this.n);
    let after = 0;
    for (;;) {
      const rows = await livePaymentsAfter(this.db, this.ledgerId, after).execute();
      const last = rows[rows.length - 1];
      if (!last) break;
      for (const p of rows) {
        const slot = this.find(Number(p.entry_id));
        if (slot < 0) continue; // an invoice written after the load began: `catchUp` reads it again
        const m = this.methodSlot(p.type, p.medium);
        const amount = Number(p.amount_cents);
        if (amount > (maxPayment[slot] as number)) maxPayment[slot] = amount;
        const current = method[slot] as number;
        if (current === NO_METHOD || current === m + 1) {
          method[slot] = m + 1;
          total[slot] = (total[slot] as number) + amount;
          count[slot] = (count[slot] as number) + 1;
          continue;
        }
        const { shareHead } = this.cols;
        if (current !== MIXED) {
          method[slot] = MIXED;
          shareHead[slot] = this.shares.add(0, current - 1, total[slot] as number, count[slot] as number);
        }
        let k = shareHead[slot] as number;
        while (k !== 0 && this.shares.method[k - 1] !== m) k = this.shares.next[k - 1] as number;
        if (k === 0) shareHead[slot] = this.shares.add(shareHead[slot] as number, m, amount, 1);
        else {
          this.shares.total[k - 1] = (this.shares.total[k - 1] as number) + amount;
          this.shares.count[k - 1] = (this.shares.count[k - 1] as number) + 1;
        }
      }
      if (rows.length < LOAD_CHUNK) break;
      after = Number(last.id);
      await nextTurn();
    }
  }

  /** Marks the invoices with a file of their own or on a live payment. */
  private async loadAttachments(): Promise<void> {
    const { rows } = await attachmentCounts(this.ledgerId).execute(this.db);
    for (const r of rows) {
      const slot = this.find(Number(r.entry_id));
      if (slot >= 0) this.cols.flags[slot] = (this.cols.flags[slot] as number) | ATTACHED;
    }
  }

  /** Which of the invoices `ids` have a file attached to them or to a live payment. */
  private async attachedOf(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const { rows } = await attachmentCounts(this.ledgerId, ids).execute(this.db);
    return new Set(rows.map((r) => Number(r.entry_id)));
  }

  private async loadBills(): Promise<void> {
    const rows = await this.db
      .selectFrom('bills')
      .select(['id', 'name', 'name_key', 'category'])
      .where('ledger_id', '=', this.ledgerId)
      .execute();
    const sizeOf = (e: { name: string; nameKey: string; category: string }) =>
      entityBytes(e.name.length, e.nameKey.length, e.category.length);
    for (const b of rows) {
      const entity = { id: Number(b.id), name: b.name, nameKey: b.name_key, category: b.category };
      const slot = this.billSlots.get(Number(b.id));
      const before = slot === undefined ? undefined : this.bills[slot];
      if (slot === undefined) {
        this.billSlots.set(Number(b.id), this.bills.length);
        this.bills.push(entity);
      } else this.bills[slot] = entity;
      this.billBytes += sizeOf(entity) - (before ? sizeOf(before) : 0);
    }
  }

  private paymentSums(q: SelectQueryBuilder<Database, 'payments', object>): Promise<PaymentSum[]> {
    return q
      .where('recycled_at', 'is', null)
      .select((eb) => [
        'entry_id',
        'type',
        'medium',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('amount_cents').as('total'),
        eb.fn.max<number>('amount_cents').as('max'),
      ])
      .groupBy(['entry_id', 'type', 'medium'])
      .execute() as Promise<PaymentSum[]>;
  }

  private slotOf(map: Map<string, number>, list: unknown[], key: string, value: unknown): number {
    let slot = map.get(key);
    if (slot === undefined) {
      slot = list.length;
      map.set(key, slot);
      list.push(value);
    }
    return slot;
  }

  private methodSlot(type: string, medium: string): number {
    const slot = this.slotOf(this.methodSlots, this.methods, `${type}|${medium}`, { type, medium });
    if (slot >= MIXED - 1) throw new IndexRebuildNeeded('too many payment methods');
    return slot;
  }

  /** The slot holding invoice `id`, or -1. */
  private find(id: number): number {
    const at = firstAtOrAfter(this.cols.id, id, this.n);
    return at < this.n && this.cols.id[at] === id ? at : -1;
  }

  /** `write`, after reading the entities again if a row names one the index does not know yet. */
  private async writeRows(
    rows: EntryIndexRow[],
    sums: PaymentSum[],
    attached: ReadonlySet<number> = new Set(),
  ): Promise<number[]> {
    if (rows.some((r) => !this.billSlots.has(Number(r.bill_id)))) await this.loadBills();
    return this.write(rows, sums, attached);
  }

  /**
   * Writes rows (and their payment sums, and whether they have files) into their slots; a new invoice must be newer
   * than every other.
   */
  private write(rows: EntryIndexRow[], sums: PaymentSum[], attached: ReadonlySet<number>): number[] {
    const byEntry = new Map<number, PaymentSum[]>();
    for (const p of sums) {
      const id = Number(p.entry_id);
      const list = byEntry.get(id);
      if (list) list.push(p);
      else byEntry.set(id, [p]);
    }
    const slots: number[] = [];
    for (const r of rows) {
      const id = Number(r.id);
      if (id > 0x7fffffff) throw new IndexRebuildNeeded('invoice id beyond the index');
      let slot = this.find(id);
      if (slot < 0) {
        if (this.n > 0 && id < (this.cols.id[this.n - 1] as number)) throw new IndexRebuildNeeded('older invoice id');
        if (this.n === this.cols.id.length) this.cols = allocate(capacityFor(this.n), this.cols, this.n);
        slot = this.n++;
      }
      const c = this.cols;
      c.id[slot] = id;
      c.invoice[slot] = Number(r.invoice_number);
      c.date[slot] = day(r.date);
      c.amount[slot] = Number(r.amount_cents);
      c.paid[slot] = Number(r.paid_cents);
      const bill = this.billSlots.get(Number(r.bill_id));
      if (bill === undefined) throw new IndexRebuildNeeded('unknown entity');
      c.bill[slot] = bill;
      c.flags[slot] =
        (r.recycled_at === null ? LIVE : 0) |
        (Number(r.archived) === 1 ? ARCHIVED : 0) |
        (Number(r.internal) === 1 ? INTERNAL : 0) |
        (r.flow === 'INCOMING' ? INCOMING : 0) |
        (attached.has(id) ? ATTACHED : 0) |
        (Number(r.estimated) === 1 ? ESTIMATED : 0);
      c.pay[slot] = Number(r.pay_state);
      c.due[slot] = r.due_date === null ? NO_DUE : day(r.due_date);
      c.estimate[slot] = r.estimate_cents === null ? Number.NaN : Number(r.estimate_cents);
      const category = this.slotOf(this.categorySlots, this.categories, r.category, r.category);
      // One byte a slot: names a rename left behind free their slots only when the index is read afresh, which
      // holds the 21 built-in names and at most MAX_OWN_CATEGORIES of the ledger's own.
      if (category > 0xff) throw new IndexRebuildNeeded('too many category names');
      c.category[slot] = category;
      const known = this.services.length;
      c.service[slot] = this.slotOf(this.serviceSlots, this.services, r.services, r.services);
      if (this.services.length > known) this.serviceBytes += descriptionBytes(r.services.length);
      c.payments[slot] = Number(r.payment_count);
      const shares = (byEntry.get(id) ?? []).map((p) => ({
        method: this.methodSlot(p.type, p.medium),
        total: Number(p.total),
        count: Number(p.n),
        max: Number(p.max),
      }));
      c.maxPayment[slot] = shares.reduce((m, s) => Math.max(m, s.max), 0);
      c.shareHead[slot] = 0;
      if (shares.length === 0) c.method[slot] = NO_METHOD;
      else if (shares.length === 1) c.method[slot] = 1 + (shares[0]?.method ?? 0);
      else {
        c.method[slot] = MIXED;
        for (const x of shares)
          c.shareHead[slot] = this.shares.add(c.shareHead[slot] as number, x.method, x.total, x.count);
      }
      slots.push(slot);
    }
    return slots;
  }

  // ---------------------------------------------------------------- catching up

  /**
   * Brings the index to the ledger's data version `target`: the invoices logged above `version` are read again
   * (with their payment sums and the entities), and moved in every sort order; more than `upTo` of them, and
   * the index is read afresh instead.
   */
  async catchUp(target: number, upTo: number): Promise<void> {
    if (target <= this.version) return;
    const changes = await this.db
      .selectFrom('entry_changes')
      .select((eb) => ['entry_id', eb.fn.max('version').as('version')])
      .where('ledger_id', '=', this.ledgerId)
      .where('version', '>', this.version)
      .groupBy('entry_id')
      .execute();
    // Entry 0 logs a version that changed no invoice (an entity's or a schedule's write): nothing to read again.
    const ids = changes.map((c) => Number(c.entry_id)).filter((id) => id !== 0);
    // A bulk change (an import, an entity with thousands of invoices) is read afresh, not moved invoice by invoice.
    if (ids.length > upTo) throw new IndexRebuildNeeded(`${ids.length} invoices changed at once`);
    const reached = changes.reduce((v, c) => Math.max(v, Number(c.version)), target);
    if (ids.length > 0) await this.reread(ids);
    this.version = reached;
  }

  private async reread(ids: number[]): Promise<void> {
    await this.loadBills();
    const slots: number[] = [];
    for (let i = 0; i < ids.length; i += DELTA_CHUNK) {
      const part = ids.slice(i, i + DELTA_CHUNK);
      const rows = (await this.db
        .selectFrom('entries')
        .select(ENTRY_INDEX_COLUMNS)
        .where('ledger_id', '=', this.ledgerId)
        .where('id', 'in', part)
        .orderBy('id')
        .execute()) as EntryIndexRow[];
      const sums = await this.paymentSums(this.db.selectFrom('payments').where('entry_id', 'in', part));
      slots.push(...(await this.writeRows(rows, sums, await this.attachedOf(part))));
      // Invoices gone from the table (purged from the recycle bin) are no longer live.
      const present = new Set(rows.map((r) => Number(r.id)));
      for (const id of part) {
        const slot = this.find(id);
        if (!present.has(id) && slot >= 0) {
          this.cols.flags[slot] = 0;
          slots.push(slot);
        }
      }
    }
    for (const column of [...this.orders.keys()]) await this.reorder(column, slots);
  }

  // ---------------------------------------------------------------- sort orders

  /** The live slots in `ORDER BY column, invoice_number` (built by `load` for every sort column). */
  order(column: SortColumn): Int32Array {
    const order = this.orders.get(column);
    if (!order) throw new Error(`ledger index: no order for ${column}`);
    return order;
  }

  /**
   * `ORDER BY column, invoice_number` worked out from the index's own columns (`OWN_KEYS`): the live slots by
   * invoice number, then stably by the column's key, in turns of the event loop. `byInvoice` is the first step,
   * shared by the orders of one load (`liveByInvoice`).
   */
  private async ownOrder(column: SortColumn, key: (c: Columns, slot: number) => number, byInvoice: Int32Array) {
    const c = this.cols;
    this.orders.set(
      column,
      column === 'invoice_number' ? byInvoice : await sortByKey(byInvoice, (slot) => key(c, slot)),
    );
  }

  /** The live slots in invoice number order. */
  private async liveByInvoice(): Promise<Int32Array> {
    const c = this.cols;
    const live = new Int32Array(this.n);
    let length = 0;
    for (let slot = 0; slot < this.n; slot++) if ((c.flags[slot] as number) & LIVE) live[length++] = slot;
    return sortByKey(live.subarray(0, length), (slot) => c.invoice[slot] as number);
  }

  /**
   * `ORDER BY column, invoice_number` of a text column: the database ranks the column's distinct live values in its
   * collation (`distinctTexts`: one statement, which returns each value once), and
   * the live slots are sorted by their value's rank, then by invoice number, as `ownOrder` sorts. Equal texts share a
   * rank, as `ORDER BY` ties them. A text the database did not rank was written after the slot's row was read, so
   * after `version`: the invoice is in the change log, and `catchUp` moves it to its place.
   */
  private async rankedOrder(column: TextColumn, key: TextKey, byInvoice: Int32Array): Promise<void> {
    // On SQLite's reader thread: a large ledger's walk must not hold the event loop.
    const rows = await readAside(this.db, distinctTexts(this.db, this.ledgerId, column));
    const rankOf = new Map<string, number>();
    for (const [i, r] of rows.entries()) rankOf.set(r.text, i);
    const { bills, services, categories } = this;
    const rank = Int32Array.from(key.texts({ bills, services, categories }), (text) => rankOf.get(text) ?? -1);
    await this.ownOrder(column, (c, slot) => rank[key.of(c, slot)] as number, byInvoice);
  }

  /**
   * Moves `slots` to where the database now sorts them: each live one goes right after its predecessor in
   * `ORDER BY column, invoice_number` (one indexed lookup per invoice), so changed invoices that follow each
   * other chain up.
   */
  private async reorder(column: SortColumn, slots: number[]): Promise<void> {
    const order = this.orders.get(column);
    if (!order) return;
    const moved = new Set(slots);
    const ids = [...moved].filter((s) => (this.cols.flags[s] as number) & LIVE).map((s) => this.cols.id[s] as number);
    const next = new Map<number, number>(); // predecessor slot (-1 = first) → slot
    for (let i = 0; i < ids.length; i += DELTA_CHUNK) {
      const { rows } = await predecessors(this.ledgerId, column, ids.slice(i, i + DELTA_CHUNK)).execute(this.db);
      for (const r of rows) {
        const pred = r.pred === null ? -1 : this.find(Number(r.pred));
        // A predecessor the index does not hold, or two invoices after one: written while catching up.
        if ((r.pred !== null && pred < 0) || next.has(pred)) throw new IndexRebuildNeeded('moved while catching up');
        next.set(pred, this.find(Number(r.id)));
      }
    }
    const out = new Int32Array(order.length + next.size);
    let length = 0;
    const chain = (from: number) => {
      for (let s = next.get(from); s !== undefined; s = next.get(s)) out[length++] = s;
    };
    chain(-1);
    for (const slot of order) {
      if (moved.has(slot)) continue;
      out[length++] = slot;
      chain(slot);
    }
    this.orders.set(column, out.slice(0, length));
  }
}
