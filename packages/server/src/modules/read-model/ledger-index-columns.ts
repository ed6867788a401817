import { addDays } from '@billfold/contract/dates';

/**
 * The column layout of the ledger index (`ledger-index.ts`, docs/decisions/0405-ledger-index.md): one typed
 * array per field, a slot per invoice, and how dates, flags and payment methods are encoded in them.
 */

/**
 * Dates as whole days since 1970-01-01, and back, the latter remembered. `day` reads a `YYYY-MM-DD` text by integer
 * arithmetic (the civil calendar's days before the date, as `monthOfDay` below inverts it): a load parses two dates
 * per invoice, and a `Date` each cost a twentieth of a million invoices' load. It agrees with the contract's
 * `daysBetween` from 1970-01-01 (test/ledger-index-columns.test.ts).
 */
const EPOCH = '1970-01-01';
const digit = (iso: string, at: number) => iso.charCodeAt(at) - 48;
export function day(iso: string): number {
  const year = digit(iso, 0) * 1000 + digit(iso, 1) * 100 + digit(iso, 2) * 10 + digit(iso, 3);
  const month = digit(iso, 5) * 10 + digit(iso, 6);
  const date = digit(iso, 8) * 10 + digit(iso, 9);
  // Years from March, so that a leap day ends its year.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + date - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}
const isoDays = new Map<number, string>();
export const isoDay = (d: number) => {
  let iso = isoDays.get(d);
  if (iso === undefined) {
    iso = addDays(EPOCH, d);
    if (isoDays.size < 100_000) isoDays.set(d, iso);
  }
  return iso;
};

/**
 * The month of a day number as `year × 12 + month − 1` (the civil calendar from days since 1970-01-01, integer
 * arithmetic only: a pass over a million slots must not format a million dates).
 */
export function monthOfDay(d: number): number {
  const z = d + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return year * 12 + month - 1;
}

/** `monthOfDay`'s number as `YYYY-MM`. */
export const isoMonth = (m: number) =>
  `${String(Math.floor(m / 12)).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`;

/** Bits of `flags`. */
export const LIVE = 1;
export const ARCHIVED = 2;
export const INTERNAL = 4;
export const INCOMING = 8;
/** A file is attached to the invoice or to one of its live payments (docs/decisions/1143-attachment-count-and-filter.md). */
export const ATTACHED = 16;
/** The amount is still its schedule's estimate, not confirmed (docs/decisions/0213-confirming-estimates.md). */
export const ESTIMATED = 32;

/** `due` of an invoice without a due date. */
export const NO_DUE = 0x7fffffff;

/** `method`: no live payment, several methods (see `Shares`), else 1 + the method's slot. */
export const NO_METHOD = 0;
export const MIXED = 255;

export const COLUMN_TYPES = {
  id: Int32Array,
  invoice: Int32Array,
  date: Int32Array,
  amount: Float64Array,
  paid: Float64Array,
  bill: Int32Array,
  flags: Uint8Array,
  pay: Uint8Array,
  category: Uint8Array,
  method: Uint8Array,
  payments: Int32Array,
  maxPayment: Float64Array,
  service: Int32Array,
  shareHead: Int32Array,
  due: Int32Array,
  /** What its schedule estimated, in cents; NaN for an invoice no schedule created (the CSV export). */
  estimate: Float64Array,
} as const;
export type Columns = { [K in keyof typeof COLUMN_TYPES]: InstanceType<(typeof COLUMN_TYPES)[K]> };

/** What is still owed on the invoice in `slot`, in cents: `derivePayment`'s balance, the stored `balance_cents`. */
export function owedCentsOf(c: Columns, slot: number): number {
  return Math.max((c.amount[slot] as number) - (c.paid[slot] as number), 0);
}
/** Scopes whose masks each index keeps (`LedgerIndex.match`): a byte per slot each. */
export const MATCH_MASKS = 4;

/**
 * Slots the columns hold for `invoices` invoices: those, and a sixteenth more (at least 64) for the invoices written
 * after. A load allocates it for the count its estimate read; full columns grow to it again. Before 2026-12-04 the
 * columns started at 1,024 slots and doubled: a 5,000-invoice ledger held 8,192 (docs/decisions/0405-ledger-index.md,
 * Memory).
 */
export const capacityFor = (invoices: number) => invoices + Math.max(64, invoices >> 4);

export const BYTES_PER_SLOT = Object.values(COLUMN_TYPES).reduce((n, T) => n + T.BYTES_PER_ELEMENT, 0);

export function allocate(capacity: number, from?: Columns, n = 0): Columns {
  const cols = {} as Record<string, ArrayLike<number>>;
  for (const [name, T] of Object.entries(COLUMN_TYPES)) {
    const column = new T(capacity);
    if (from) column.set((from[name as keyof Columns] as InstanceType<typeof T>).subarray(0, n));
    cols[name] = column;
  }
  return cols as Columns;
}

/**
 * The per-method shares of the slots whose payments use several methods, as linked lists in flat arrays: a
 * slot's `shareHead` is 1 + its first share, each share's `next` 1 + the following one (0 ends both).
 * Rewriting a slot starts a new list; the old shares stay unused until the index is read afresh.
 */
export class Shares {
  length = 0;
  method = new Uint8Array(64);
  total = new Float64Array(64);
  count = new Int32Array(64);
  next = new Int32Array(64);

  get bytes(): number {
    return this.method.length * 17;
  }

  /** Adds a share before `head` (1-based, 0 for none) and returns the new head. */
  add(head: number, method: number, total: number, count: number): number {
    if (this.length === this.method.length) {
      const grow = <A extends Uint8Array | Float64Array | Int32Array>(a: A): A => {
        const bigger = new (a.constructor as new (n: number) => A)(a.length * 2);
        bigger.set(a);
        return bigger;
      };
      this.method = grow(this.method);
      this.total = grow(this.total);
      this.count = grow(this.count);
      this.next = grow(this.next);
    }
    const k = this.length++;
    this.method[k] = method;
    this.total[k] = total;
    this.count[k] = count;
    this.next[k] = head;
    return k + 1;
  }
}
