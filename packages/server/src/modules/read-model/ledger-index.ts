import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { firstAtOrAfter, firstWhere } from '../../lib/sorted.ts';
import type { OwedEntryView } from '../entries/entry.mapper.ts';
import { PAY_STATE } from '../payment-totals/payment-totals.ts';
import type { EntryGroup, MethodGroup, MonthGroup, OpenInvoiceRow, OwedDay, Side } from './groups.ts';
import {
  ARCHIVED,
  ATTACHED,
  type Columns,
  day,
  ESTIMATED,
  INCOMING,
  INTERNAL,
  isoDay,
  isoMonth,
  LIVE,
  MATCH_MASKS,
  MIXED,
  monthOfDay,
  NO_DUE,
  NO_METHOD,
  owedCentsOf,
} from './ledger-index-columns.ts';
import { LedgerIndexStore, type ReadSavedArray, type SavedLists } from './ledger-index-store.ts';
import { type EntryScope, FILTERS, type IndexConditions, type IndexLookups, sets, UNBOUNDED } from './scope.ts';
import type { SortColumn } from './scope-sql.ts';
import { ENTRY_SUMS } from './sums.ts';

/**
 * The due summary's invoices (unpaid, of active entities, with a due date) sorted by due day, slot order within a
 * day: `days` the distinct due days, ascending; the invoices of `days[j]` at `slots[start[j] .. start[j + 1])`;
 * `toPay[j]` and `toCollect[j]` what is still owed on the expenses and on the income of the days before `days[j]`,
 * in cents.
 */
interface Owed {
  slots: Int32Array;
  days: Int32Array;
  start: Int32Array;
  toPay: Float64Array;
  toCollect: Float64Array;
}

/** The mask's key leaves out the request's data version (`EntryScope.version`): the masks are kept per index version. */
const notVersion = (key: string, value: unknown) => (key === 'version' ? undefined : value);

/**
 * One ledger's invoices as columns in memory (docs/decisions/0405-ledger-index.md): what every filter, sort,
 * count and stats figure reads, a few dozen bytes per invoice. A request's scope becomes a mask in one pass
 * over the columns; a page is a walk of the sort's order (slots in the database's own `ORDER BY`) over the
 * mask; the stats sum the masked slots. A page's rows are then built from the columns (`entryRow`), with no query.
 *
 * Slots follow invoice ids (ascending), so a changed invoice is found by binary search and a new one appended.
 * The index is exact as of `version`, the ledger's data version (migration `2026-11-29T02-00_entry_changes`):
 * `catchUp` re-reads the invoices logged in `entry_changes` above it. Recycled invoices keep their slot (a
 * restore flips a flag); purged ones lose their live flag.
 */
export class LedgerIndex extends LedgerIndexStore {
  /** `owedSlots` at `owedAt`. */
  private owed: Owed | null = null;
  private owedAt = -1;
  /** `grouped` per column, at `groupedAt`. */
  private readonly groupings = new Map<'category' | 'bill', Grouping>();
  private groupedAt = -1;
  /** `liveTotals` at `liveAt`. */
  private live: Totals | null = null;
  private liveAt = -1;

  override get bytes(): number {
    const o = this.owed;
    let bytes = o ? [o.slots, o.days, o.start, o.toPay, o.toCollect].reduce((n, a) => n + a.byteLength, 0) : 0;
    for (const g of this.groupings.values()) bytes += g.slots.byteLength + g.start.byteLength;
    if (this.live) bytes += this.live.sums.byteLength + this.live.perMethod.byteLength;
    return super.bytes + bytes;
  }

  /**
   * Reads the ledger's invoices, payment sums and entities, in chunks; exact at `version` (read first), its columns
   * sized for `expected` invoices (the estimate's count). Throws `IndexTooLarge` (and drops what it read) once it
   * holds more than `maxBytes`.
   */
  static async load(
    db: Kysely<Database>,
    ledgerId: number,
    version: number,
    maxBytes = Number.POSITIVE_INFINITY,
    expected = 0,
  ): Promise<LedgerIndex> {
    const index = new LedgerIndex(db, ledgerId);
    await index.fill(version, maxBytes, expected);
    return index;
  }

  /** An index from its saved copy (ledger-index-file.ts): exact at the copy's version, to be caught up. */
  static async restore(
    db: Kysely<Database>,
    ledgerId: number,
    state: SavedLists,
    array: ReadSavedArray,
  ): Promise<LedgerIndex> {
    const index = new LedgerIndex(db, ledgerId);
    await index.restoreState(state, array);
    return index;
  }

  // ---------------------------------------------------------------- reads

  /**
   * The scope compiled against the columns by each filter's index step (`FILTERS`, scope.ts): the flag bits it
   * fixes, the bounds it puts on dates, amounts, payment states, due dates and the invoice number, and lookup
   * tables of the categories and entities it picks. `narrowings` maps the result to columns, which `inScope` tests
   * slot by slot for a walk and `maskOf` column by column for `match`'s mask.
   */
  private conditions(s: EntryScope): IndexConditions {
    const c: IndexConditions = { flagMask: LIVE, flagWant: LIVE, ...UNBOUNDED, categories: null, bills: null };
    for (const filter of FILTERS) if (sets(s, filter)) filter.index(c, s, this.lookups);
    c.dated = c.dateLow > UNBOUNDED.dateLow || c.dateHigh < UNBOUNDED.dateHigh;
    c.sized = c.amountLow > UNBOUNDED.amountLow || c.amountHigh < UNBOUNDED.amountHigh;
    c.paying = c.payLow > UNBOUNDED.payLow || c.payHigh < UNBOUNDED.payHigh;
    c.owing = c.dueLow > UNBOUNDED.dueLow || c.dueHigh < UNBOUNDED.dueHigh;
    c.numbered = c.invoiceLow > UNBOUNDED.invoiceLow || c.invoiceHigh < UNBOUNDED.invoiceHigh;
    return c;
  }

  /** What the filters' index steps look up (`FILTERS`): the category slots, the entities by slot. */
  private get lookups(): IndexLookups {
    return { categorySlots: this.categorySlots, bills: this.bills };
  }

  /** Whether the invoice in a slot is in the scope: for walks that test the slots they meet. */
  private predicate(s: EntryScope): (slot: number) => boolean {
    const c = this.conditions(s);
    const cols = this.cols;
    const narrowed = narrowings(cols, c);
    return (slot) => inScope(cols, c, narrowed, slot) === 1;
  }

  /**
   * The scope as a mask over the slots, and how many match. The last few scopes' masks are kept while the index
   * stays at the same version: a list's first page, a page further on and its stats (the Home page asks all three
   * for one set of filters) then make one pass over the columns, not three. Callers only read the mask, and only
   * before they return (a read runs alone on its index: `LedgerIndexes.read`).
   */
  match(s: EntryScope): { mask: Uint8Array; count: number } {
    const key = JSON.stringify(s, notVersion);
    if (this.matchesAt !== this.version) {
      this.matches.clear();
      this.matchesAt = this.version;
    }
    const kept = this.matches.get(key);
    if (kept && kept.mask.length === this.n) {
      this.matches.delete(key); // re-inserted below: the Map's order is least recently used first
      this.matches.set(key, kept);
      return kept;
    }
    const n = this.n;
    // The buffer of the least recently used mask is reused, so no megabyte is allocated per request.
    let buffer: Uint8Array | undefined;
    if (this.matches.size >= MATCH_MASKS) {
      const oldest = this.matches.keys().next().value as string;
      buffer = this.matches.get(oldest)?.mask;
      this.matches.delete(oldest);
    }
    const mask =
      buffer && buffer.buffer.byteLength >= n
        ? new Uint8Array(buffer.buffer, 0, n)
        : new Uint8Array(this.cols.id.length).subarray(0, n);
    const c = this.conditions(s);
    const narrowed = narrowings(this.cols, c);
    const seed = this.narrowest(narrowed);
    const count =
      seed && seed.count * SPARSE_BELOW < n
        ? sparseMask(this.cols, c, narrowed, seed, mask)
        : maskOf(this.cols, c, narrowed, mask, n);
    const result = { mask, count };
    this.matches.set(key, result);
    return result;
  }

  /**
   * The scope's total and the slots of one page in `column`'s order. When the total is known (from the
   * rollups) and the page is near the start of the result, the walk first tests the invoices as it meets them;
   * it gives up after four times the invoices it would pass if the matches were spread evenly, and at most an
   * eighth of the ledger: the matches may sit together further on (one entity in name order, a recent date range
   * in invoice number order), and a test per invoice costs about ten times a mask's byte. Otherwise one pass over
   * the columns masks the scope and counts it, and the walk reads one byte per invoice it passes.
   */
  page(s: EntryScope, column: SortColumn, desc: boolean, offset: number, limit: number, known?: number) {
    if (known !== undefined && (offset + limit) * 4 < known) {
      // Invoices walked to reach the page, if the matches are spread evenly: (offset + limit) × slots ÷ total.
      const even = Math.ceil(((offset + limit) * this.n) / known);
      const found = this.walk(column, this.predicate(s), desc, offset, limit, Math.min(4 * even, this.n >>> 3));
      if (found) return { count: known, slots: found };
    }
    const { mask, count } = this.match(s);
    if (offset >= count) return { count, slots: [] };
    return { count, slots: this.walkMask(column, mask, desc, offset, limit) };
  }

  /**
   * The slots that can be in the scope by its most selective condition alone, as ranges of one order: for a bound on
   * a sorted column the range of its sort order between two binary searches, for the picked categories or entities
   * their runs in `grouped`. Null when the scope narrows no column.
   */
  private narrowest(narrowed: readonly Narrowing[]): Candidates | null {
    let best: Candidates | null = null;
    for (const { values, low, high, table, by } of narrowed) {
      let candidates: Candidates;
      if ('order' in by) {
        const order = this.order(by.order);
        const lo = firstWhere(order.length, (k) => (values[order[k] as number] as number) >= low);
        const hi = Math.max(
          lo,
          firstWhere(order.length, (k) => (values[order[k] as number] as number) > high),
        );
        candidates = { order, ranges: [lo, hi], count: hi - lo };
      } else if (table) candidates = this.runs(by.group, table);
      else continue;
      if (!best || candidates.count < best.count) best = candidates;
    }
    return best;
  }

  /** The runs in `grouped(column)` of the values `table` picks. */
  private runs(column: 'category' | 'bill', table: Uint8Array): Candidates {
    const { slots, start } = this.grouped(column);
    const ranges: number[] = [];
    let count = 0;
    for (let v = 0; v < table.length && v + 1 < start.length; v++) {
      if (table[v] !== 1) continue;
      const lo = start[v] as number;
      const hi = start[v + 1] as number;
      if (hi > lo) ranges.push(lo, hi);
      count += hi - lo;
    }
    return { order: slots, ranges, count };
  }

  /**
   * Every slot by its category's or its entity's slot number (a counting sort, slot order within each), kept while
   * the index stays at its version: the slots of value `v` are `slots[start[v] .. start[v + 1])`.
   */
  private grouped(column: 'category' | 'bill'): Grouping {
    if (this.groupedAt !== this.version) {
      this.groupings.clear();
      this.groupedAt = this.version;
    }
    const kept = this.groupings.get(column);
    if (kept) return kept;
    const values = this.cols[column];
    const distinct = column === 'category' ? 256 : this.bills.length;
    const n = this.n;
    const start = new Int32Array(distinct + 1);
    for (let i = 0; i < n; i++) {
      const v = (values[i] as number) + 1;
      start[v] = (start[v] as number) + 1;
    }
    for (let v = 1; v <= distinct; v++) start[v] = (start[v] as number) + (start[v - 1] as number);
    const next = start.slice(0, distinct);
    const slots = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i] as number;
      const at = next[v] as number;
      slots[at] = i;
      next[v] = at + 1;
    }
    const grouping = { slots, start };
    this.groupings.set(column, grouping);
    return grouping;
  }

  /** Every slot of the scope in `column`'s order (the export). */
  slots(s: EntryScope, column: SortColumn, desc: boolean): number[] {
    return this.walkMask(column, this.match(s).mask, desc, 0, this.n);
  }

  /**
   * The masked slots from position `offset` of `column`'s order (backwards for `desc`), at most `limit`. `walk`
   * with the mask read in the loop itself, not through a test per slot: a page whose matches sit at the far end
   * of the order (a recent date range in invoice number order) passes most of the ledger.
   */
  private walkMask(column: SortColumn, mask: Uint8Array, desc: boolean, offset: number, limit: number): number[] {
    const order = this.order(column);
    const out: number[] = [];
    if (limit <= 0) return out;
    let skip = offset;
    const len = order.length;
    const step = desc ? -1 : 1;
    for (let k = desc ? len - 1 : 0; k >= 0 && k < len; k += step) {
      const slot = order[k] as number;
      if (mask[slot] !== 1) continue;
      if (skip > 0) skip--;
      else if (out.push(slot) === limit) break;
    }
    return out;
  }

  /**
   * The slots passing `test` from position `offset` of `column`'s order (backwards for `desc`), at most `limit`;
   * null when `steps` invoices were walked before the page was complete.
   */
  private walk(
    column: SortColumn,
    test: (slot: number) => boolean,
    desc: boolean,
    offset: number,
    limit: number,
    steps = Number.POSITIVE_INFINITY,
  ): number[] | null {
    const order = this.order(column);
    const out: number[] = [];
    let skip = offset;
    const len = order.length;
    for (let k = 0; k < len && out.length < limit; k++) {
      if (k >= steps) return null;
      const slot = order[desc ? len - 1 - k : k] as number;
      if (!test(slot)) continue;
      if (skip > 0) skip--;
      else out.push(slot);
    }
    return out;
  }

  idOf(slot: number): number {
    return this.cols.id[slot] as number;
  }

  /**
   * The live invoice in `slot` as `toEntry` reads it from `entries` (`ENTRY_VIEW_COLUMNS`), with what is still owed
   * on it: the list's page, the due summary's first invoices and the export are built from the columns, with no query.
   */
  entryRow(slot: number): OwedEntryView {
    const c = this.cols;
    const f = c.flags[slot] as number;
    const bill = this.bills[c.bill[slot] as number];
    return {
      id: c.id[slot] as number,
      invoice_number: c.invoice[slot] as number,
      bill_id: bill?.id ?? 0,
      bill_name: bill?.name ?? '',
      category: this.categories[c.category[slot] as number] ?? '',
      date: isoDay(c.date[slot] as number),
      flow: f & INCOMING ? 'INCOMING' : 'OUTGOING',
      amount_cents: c.amount[slot] as number,
      services: this.services[c.service[slot] as number] ?? '',
      due_date: c.due[slot] === NO_DUE ? null : isoDay(c.due[slot] as number),
      paid_cents: c.paid[slot] as number,
      balance_cents: owedCentsOf(this.cols, slot),
      pay_state: c.pay[slot] as number,
      internal: f & INTERNAL ? 1 : 0,
      archived: f & ARCHIVED ? 1 : 0,
      recycled_at: null,
      estimate_cents: Number.isNaN(c.estimate[slot]) ? null : (c.estimate[slot] as number),
      estimated: f & ESTIMATED ? 1 : 0,
    };
  }

  /** Whether a file is attached to the invoice in `slot` or to one of its live payments (ADR 1143). */
  attached(slot: number): boolean {
    return ((this.cols.flags[slot] as number) & ATTACHED) !== 0;
  }

  /**
   * Builds what every Home visit reads (the due summary's `owedSlots`) once the index is ready, so that its first
   * due summary does not pay for it: a pass over the slots, about 10 ms for a million invoices.
   */
  warm(): void {
    this.owedSlots();
  }

  /**
   * The unpaid invoices of active entities with a due date, by due day, kept while the index stays at its version:
   * most invoices are paid, so the due summary and the forecast then read a small part of the ledger, and a window
   * of due days is two binary searches over its days.
   */
  private owedSlots(): Owed {
    if (this.owedAt === this.version && this.owed) return this.owed;
    const { flags, pay, due } = this.cols;
    const isOwed = (i: number) =>
      (pay[i] as number) < PAY_STATE.paid && due[i] !== NO_DUE && ((flags[i] as number) & (LIVE | ARCHIVED)) === LIVE;
    // Counted first, then written straight into their array: no list of a million numbers for the collector.
    let m = 0;
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.n; i++) {
      if (!isOwed(i)) continue;
      m++;
      if ((due[i] as number) < min) min = due[i] as number;
    }
    let slots = new Int32Array(m);
    for (let i = 0, k = 0; k < m; i++) if (isOwed(i)) slots[k++] = i;
    // A stable radix sort on the due day (two 16-bit digits of its distance from the earliest): a day's invoices
    // stay in slot order, and no comparison is made.
    let spare = new Int32Array(m);
    for (const shift of [0, 16]) {
      const digit = (slot: number) => (((due[slot] as number) - min) >>> shift) & 0xffff;
      const starts = new Int32Array(0x10001);
      for (const slot of slots) starts[digit(slot) + 1] = (starts[digit(slot) + 1] as number) + 1;
      for (let d = 1; d <= 0x10000; d++) starts[d] = (starts[d] as number) + (starts[d - 1] as number);
      for (const slot of slots) {
        const at = starts[digit(slot)] as number;
        spare[at] = slot;
        starts[digit(slot)] = at + 1;
      }
      [slots, spare] = [spare, slots];
    }
    const days: number[] = [];
    const start: number[] = [];
    const toPay = [0];
    const toCollect = [0];
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k] as number;
      const d = due[slot] as number;
      if (d !== days[days.length - 1]) {
        days.push(d);
        start.push(k);
        toPay.push(toPay[toPay.length - 1] as number);
        toCollect.push(toCollect[toCollect.length - 1] as number);
      }
      const sums = (flags[slot] as number) & INCOMING ? toCollect : toPay;
      sums[sums.length - 1] = (sums[sums.length - 1] as number) + owedCentsOf(this.cols, slot);
    }
    start.push(slots.length);
    this.owed = {
      slots,
      days: Int32Array.from(days),
      start: Int32Array.from(start),
      toPay: Float64Array.from(toPay),
      toCollect: Float64Array.from(toCollect),
    };
    this.owedAt = this.version;
    return this.owed;
  }

  /** The positions in `owed.days` of the due days from `from` to `to` (inclusive): `[lo, hi)`. */
  private owedDays(owed: Owed, from: number, to: number): [number, number] {
    const lo = firstAtOrAfter(owed.days, from);
    return [lo, Math.max(lo, firstAtOrAfter(owed.days, to + 1))];
  }

  /**
   * Unpaid invoices of active entities with a due date, per window of due days (inclusive, `from` null for "any
   * time before"): how many, what is still owed on the expenses and to the user on the income, in cents. The
   * running sums of `owedSlots`, read at each window's ends: the Home panel's totals (`DueService`).
   */
  dueTotals(windows: { from: string | null; to: string }[]) {
    const owed = this.owedSlots();
    return windows.map((w) => {
      const [lo, hi] = this.owedDays(owed, w.from === null ? Number.NEGATIVE_INFINITY : day(w.from), day(w.to));
      return {
        count: (owed.start[hi] as number) - (owed.start[lo] as number),
        toPayCents: (owed.toPay[hi] as number) - (owed.toPay[lo] as number),
        toCollectCents: (owed.toCollect[hi] as number) - (owed.toCollect[lo] as number),
      };
    });
  }

  /**
   * Unpaid invoices of active entities due from `from` to `to` (inclusive): per due day, soonest first, how many,
   * what is still owed on the income and on the expenses in cents, and the first `perDay` of the day by invoice
   * number. The days of `owedSlots` in the range: the forecast's invoice side.
   */
  owedByDay(from: string, to: string, perDay: number): OwedDay[] {
    const owed = this.owedSlots();
    const [lo, hi] = this.owedDays(owed, day(from), day(to));
    const out: OwedDay[] = [];
    for (let j = lo; j < hi; j++) {
      const begin = owed.start[j] as number;
      const end = owed.start[j + 1] as number;
      out.push({
        dueDate: isoDay(owed.days[j] as number),
        count: end - begin,
        incomeCents: (owed.toCollect[j + 1] as number) - (owed.toCollect[j] as number),
        expenseCents: (owed.toPay[j + 1] as number) - (owed.toPay[j] as number),
        first: this.firstByNumber(owed, begin, end, perDay).map((slot) => this.openInvoice(slot)),
      });
    }
    return out;
  }

  /**
   * The first `limit` unpaid invoices of active entities due from `from` (from the beginning when null) to `to`,
   * by due date and then invoice number, as `DueRepository.firstDueQuery` reads them: the due summary's lists.
   */
  firstDue(from: string | null, to: string, limit: number): OwedEntryView[] {
    const owed = this.owedSlots();
    const [lo, hi] = this.owedDays(owed, from === null ? Number.NEGATIVE_INFINITY : day(from), day(to));
    const out: number[] = [];
    for (let j = lo; j < hi && out.length < limit; j++) {
      out.push(...this.firstByNumber(owed, owed.start[j] as number, owed.start[j + 1] as number, limit - out.length));
    }
    return out.map((slot) => this.entryRow(slot));
  }

  /**
   * The first `k` slots of `owed.slots[begin .. end)` (one due day) by invoice number: an insertion into a list of
   * at most `k`.
   */
  private firstByNumber(owed: Owed, begin: number, end: number, k: number): number[] {
    const { invoice } = this.cols;
    const first: number[] = [];
    for (let i = begin; i < end; i++) {
      const slot = owed.slots[i] as number;
      const number = invoice[slot] as number;
      if (first.length === k && number >= (invoice[first[k - 1] as number] as number)) continue;
      let at = first.length;
      while (at > 0 && (invoice[first[at - 1] as number] as number) > number) at--;
      first.splice(at, 0, slot);
      if (first.length > k) first.pop();
    }
    return first;
  }

  /** An open invoice of `owedByDay` as the SQL read gives it. */
  private openInvoice(slot: number): OpenInvoiceRow {
    const c = this.cols;
    const bill = this.bills[c.bill[slot] as number];
    return {
      id: c.id[slot] as number,
      invoice_number: c.invoice[slot] as number,
      bill_id: bill?.id ?? 0,
      bill_name: bill?.name ?? '',
      due_date: isoDay(c.due[slot] as number),
      flow: (c.flags[slot] as number) & INCOMING ? 'INCOMING' : 'OUTGOING',
      services: this.services[c.service[slot] as number] ?? '',
      balance_cents: owedCentsOf(this.cols, slot),
    };
  }

  /**
   * The amounts of the masked slots per month, side and category (the trends), in the shape the SQL read gives
   * (`groups.ts`). One pass; a day's month is worked out once per distinct day, and its sums looked up once per
   * month met.
   */
  monthGroups(mask: Uint8Array): MonthGroup[] {
    const { flags, amount, date, category } = this.cols;
    const n = this.n;
    // Per month: the amount at [side × 256 + category], the number of invoices 512 further on (a pair whose
    // invoices sum to 0 is still there).
    const sums = new Map<number, Float64Array>();
    let lastDay = Number.NaN;
    let lastMonth = Number.NaN;
    let row: Float64Array = new Float64Array(0);
    for (let i = 0; i < n; i++) {
      if (!mask[i]) continue;
      const d = date[i] as number;
      if (d !== lastDay) {
        lastDay = d;
        const month = monthOfDay(d);
        if (month !== lastMonth) {
          lastMonth = month;
          let kept = sums.get(month);
          if (kept === undefined) {
            kept = new Float64Array(1024);
            sums.set(month, kept);
          }
          row = kept;
        }
      }
      const f = flags[i] as number;
      const at = expenseSide(f) * 256 + (category[i] as number);
      row[at] = (row[at] as number) + (amount[i] as number);
      row[at + 512] = (row[at + 512] as number) + 1;
    }
    const out: MonthGroup[] = [];
    for (const [month, totals] of sums) {
      for (let at = 0; at < 512; at++) {
        if (totals[at + 512] === 0) continue;
        out.push({
          month: isoMonth(month),
          side: at < 256 ? 'income' : 'expense',
          category: this.categories[at % 256] ?? '',
          amount: totals[at] as number,
        });
      }
    }
    return out;
  }

  /**
   * The stats' sums over the masked slots (`sums.ts`), in the shape the SQL reads give (`groups.ts`). A scope of
   * most of the ledger (the Home page's, without filters) is summed as the ledger's live totals, kept while the
   * index stays at its version, minus the live slots outside it: a pass that adds up the few. The largest payment
   * does not subtract; it is always the masked slots' own.
   */
  groups({ mask, count }: { mask: Uint8Array; count: number }): { entries: EntryGroup[]; methods: MethodGroup[] } {
    const billCount = this.bills.length;
    const methodCount = this.methods.length;
    let t: Totals;
    if (2 * count > this.n) {
      const outside = this.totals(mask, false);
      const live = this.liveTotals();
      t = {
        sums: minus(live.sums, outside.sums),
        perMethod: minus(live.perMethod, outside.perMethod),
        largest: outside.largest,
      };
    } else {
      t = this.totals(mask, true);
    }
    const { sums, perMethod, largest } = t;
    const sides: Side[] = ['income', 'expense'];
    const entries: EntryGroup[] = [];
    for (let side = 0; side < 2; side++) {
      for (let b = 0; b < billCount; b++) {
        const at = (side * billCount + b) * 6;
        if (sums[at] === 0) continue;
        const entity = this.bills[b] as { name: string; category: string };
        entries.push({
          side: sides[side] as Side,
          name: entity.name,
          category: entity.category,
          amount: sums[at + 1] as number,
          received: sums[at + 2] as number,
          overpaid: sums[at + 3] as number,
          outstanding: sums[at + 4] as number,
          paid: sums[at + 5] as number,
        });
      }
    }
    const methods: MethodGroup[] = [];
    for (let side = 0; side < 2; side++) {
      for (let m = 0; m < methodCount; m++) {
        const at = (side * methodCount + m) * 2;
        if (perMethod[at + 1] === 0) continue;
        const { type, medium } = this.methods[m] as { type: string; medium: string };
        methods.push({
          side: sides[side] as Side,
          type,
          medium,
          total: perMethod[at] as number,
          count: perMethod[at + 1] as number,
          max: largest[side] as number,
        });
      }
    }
    return { entries, methods };
  }

  /** The sums over all live slots, at `liveAt`: the base of a wide scope's `groups`. */
  private liveTotals(): Totals {
    if (this.liveAt !== this.version || !this.live) {
      this.live = this.totals(new Uint8Array(this.n), false);
      this.liveAt = this.version;
    }
    return this.live;
  }

  /**
   * Per side and entity: count, amount, received, overpaid, outstanding, paid; per side and method: total, count;
   * per side, the largest payment of the masked slots. Summed over the masked slots (`inside`), or over the live
   * slots the mask leaves out.
   */
  private totals(mask: Uint8Array, inside: boolean): Totals {
    const amountOf = ENTRY_SUMS.amount_cents.of;
    const receivedOf = ENTRY_SUMS.received_cents.of;
    const overpaidOf = ENTRY_SUMS.overpaid_cents.of;
    const balanceOf = ENTRY_SUMS.balance_cents.of;
    const paidOf = ENTRY_SUMS.paid_cents.of;
    const { flags, amount, paid, bill, method, payments, maxPayment, shareHead } = this.cols;
    const shares = this.shares;
    const billCount = this.bills.length;
    const methodCount = this.methods.length;
    const sums = new Float64Array(2 * billCount * 6);
    const perMethod = new Float64Array(2 * methodCount * 2);
    const largest = [0, 0];
    const n = this.n;
    for (let i = 0; i < n; i++) {
      const f = flags[i] as number;
      const side = expenseSide(f);
      if (mask[i]) {
        // 0 without payments (`maxPayment`).
        if ((maxPayment[i] as number) > (largest[side] as number)) largest[side] = maxPayment[i] as number;
        if (!inside) continue;
      } else if (inside || !(f & LIVE)) continue;
      const a = amount[i] as number;
      const p = paid[i] as number;
      const at = (side * billCount + (bill[i] as number)) * 6;
      sums[at] = (sums[at] as number) + 1;
      const balance = a > p ? a - p : 0; // `derivePayment`'s balance
      sums[at + 1] = (sums[at + 1] as number) + amountOf(a, p, balance);
      sums[at + 2] = (sums[at + 2] as number) + receivedOf(a, p, balance);
      sums[at + 3] = (sums[at + 3] as number) + overpaidOf(a, p, balance);
      sums[at + 4] = (sums[at + 4] as number) + balanceOf(a, p, balance);
      sums[at + 5] = (sums[at + 5] as number) + paidOf(a, p, balance);
      const m = method[i] as number;
      if (m === NO_METHOD) continue;
      if (m !== MIXED) {
        // One method: its payments add up to the paid total (`derivePayment`).
        const mt = (side * methodCount + m - 1) * 2;
        perMethod[mt] = (perMethod[mt] as number) + p;
        perMethod[mt + 1] = (perMethod[mt + 1] as number) + (payments[i] as number);
        continue;
      }
      for (let k = shareHead[i] as number; k !== 0; k = shares.next[k - 1] as number) {
        const mt = (side * methodCount + (shares.method[k - 1] as number)) * 2;
        perMethod[mt] = (perMethod[mt] as number) + (shares.total[k - 1] as number);
        perMethod[mt + 1] = (perMethod[mt + 1] as number) + (shares.count[k - 1] as number);
      }
    }
    return { sums, perMethod, largest };
  }
}

/** A scope's candidate slots: `order[ranges[2i] .. ranges[2i + 1])` for each i, `count` in all. */
interface Candidates {
  order: Int32Array;
  ranges: number[];
  count: number;
}

/** Slots grouped by one column's value (`LedgerIndex.grouped`). */
interface Grouping {
  slots: Int32Array;
  start: Int32Array;
}

/**
 * A scope whose most selective condition leaves fewer than one slot in this many is masked by testing only those
 * slots (a few random reads each) instead of passing over every column (a millisecond each for a million invoices).
 */
const SPARSE_BELOW = 6;

/**
 * A column a scope narrows: its values must lie within `[low, high]`, or pick 1 in `table` when there is one. `by`
 * finds the slots that can pass it (`LedgerIndex.narrowest`): a range of the column's sort order, which its values
 * ascend along, or runs of the slots grouped by the column.
 */
interface Narrowing {
  values: ArrayLike<number>;
  low: number;
  high: number;
  table: Uint8Array | null;
  by: { order: SortColumn } | { group: 'category' | 'bill' };
}

/**
 * The columns the conditions narrow, with their bounds and tables: the one mapping of a scope's conditions to
 * columns, which `inScope` tests slot by slot, `maskOf` column by column and `narrowest` seeks in. A column the scope leaves open is
 * not read at all.
 */
function narrowings(cols: Columns, c: IndexConditions): Narrowing[] {
  const out: Narrowing[] = [];
  const range = (narrowed: boolean, values: ArrayLike<number>, low: number, high: number, order: SortColumn) => {
    if (narrowed) out.push({ values, low, high, table: null, by: { order } });
  };
  const pick = (table: Uint8Array | null, values: ArrayLike<number>, group: 'category' | 'bill') => {
    if (table !== null) out.push({ values, low: 0, high: 0, table, by: { group } });
  };
  range(c.dated, cols.date, c.dateLow, c.dateHigh, 'date');
  range(c.sized, cols.amount, c.amountLow, c.amountHigh, 'amount_cents');
  range(c.paying, cols.pay, c.payLow, c.payHigh, 'pay_state');
  // Due dates end at 2099-12-31 (the contract's dates), before the 9999-12-31 that `due_sort` gives an invoice
  // without one, as NO_DUE is above every day: the due column ascends along its order too.
  range(c.owing, cols.due, c.dueLow, c.dueHigh, 'due_sort');
  range(c.numbered, cols.invoice, c.invoiceLow, c.invoiceHigh, 'invoice_number');
  pick(c.categories, cols.category, 'category');
  pick(c.bills, cols.bill, 'bill');
  return out;
}

/** What `LedgerIndex.totals` sums: see there. */
interface Totals {
  sums: Float64Array;
  perMethod: Float64Array;
  largest: number[];
}

/** `a - b`, element by element: sums of integers, exact. */
function minus(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] as number) - (b[i] as number);
  return out;
}

/**
 * The stats' side of an invoice's flags: 0 for income (incoming, not internal), 1 for expenses and internal ones.
 * Arithmetic, not a test: a branch on the side of invoices in slot order mispredicts.
 */
const expenseSide = (f: number) => +((f & (INCOMING | INTERNAL)) !== INCOMING);

/** 1 when `low ≤ value ≤ high`, else 0: two comparisons, no branch (random data would mispredict one). */
const within = (value: number, low: number, high: number) => +(value >= low) & +(value <= high);

/** 1 when the invoice in `slot` has the conditions' flags and lies within each of `narrowed`, else 0. */
function inScope(cols: Columns, c: IndexConditions, narrowed: readonly Narrowing[], slot: number): number {
  let ok = +(((cols.flags[slot] as number) & c.flagMask) === c.flagWant);
  for (const { values, low, high, table } of narrowed) {
    const value = values[slot] as number;
    ok &= table === null ? within(value, low, high) : (table[value] ?? 0);
  }
  return ok;
}

/** Writes `inScope` of `seed`'s slots to `mask`, every other slot 0, and returns how many are in. */
function sparseMask(
  cols: Columns,
  c: IndexConditions,
  narrowed: readonly Narrowing[],
  seed: Candidates,
  mask: Uint8Array,
): number {
  const { order, ranges } = seed;
  mask.fill(0);
  let count = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    for (let k = ranges[r] as number; k < (ranges[r + 1] as number); k++) {
      const slot = order[k] as number;
      if (inScope(cols, c, narrowed, slot) === 1) {
        mask[slot] = 1;
        count++;
      }
    }
  }
  return count;
}

/**
 * Writes `inScope` of each of the first `n` slots to `mask` and returns how many are in: one tight pass over the
 * flags, then one over each narrowed column, each reading one column and the mask (about a millisecond each for
 * a million invoices, where one pass testing every condition per slot took 7 ms: docs/performance.md).
 */
function maskOf(
  cols: Columns,
  c: IndexConditions,
  narrowed: readonly Narrowing[],
  mask: Uint8Array,
  n: number,
): number {
  const { flags } = cols;
  const { flagMask, flagWant } = c;
  for (let i = 0; i < n; i++) mask[i] = +(((flags[i] as number) & flagMask) === flagWant);
  for (const { values, low, high, table } of narrowed) {
    if (table === null) {
      for (let i = 0; i < n; i++) mask[i] = (mask[i] as number) & within(values[i] as number, low, high);
    } else {
      for (let i = 0; i < n; i++) mask[i] = (mask[i] as number) & (table[values[i] as number] ?? 0);
    }
  }
  let count = 0;
  for (let i = 0; i < n; i++) count += mask[i] as number;
  return count;
}
