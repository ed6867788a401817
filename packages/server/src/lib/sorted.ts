import { nextTurn } from './turns.ts';

/**
 * The first position in `[0, length)` at which `atOrAfter` holds, for a test that is false up to some position and
 * true from there on: the one binary search, for the ledger index's slots, due days and sort orders, a schedule's
 * due dates and the account file's ids.
 */
export function firstWhere(length: number, atOrAfter: (position: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (atOrAfter(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The first position in `sorted[0 .. length)`, ascending, whose value is not below `value` (`length` when every one
 * is).
 */
export function firstAtOrAfter<T extends number | string>(
  sorted: ArrayLike<T>,
  value: T,
  length = sorted.length,
): number {
  return firstWhere(length, (position) => (sorted[position] as T) >= value);
}

/** Elements a sort moves between two turns of the event loop (a few milliseconds of work). */
const SORT_SLICE = 1 << 16;

/**
 * `items` sorted by `compare`, stably (equal items keep their order), in a new array: a bottom-up merge sort, sorted
 * runs of 32 first, that gives the event loop a turn after every 65,536 elements it moves, so sorting a million
 * numbers never holds the process for more than a few milliseconds at a time.
 */
export async function sortInTurns(items: Int32Array, compare: (a: number, b: number) => number): Promise<Int32Array> {
  const n = items.length;
  let from = items.slice();
  let to = new Int32Array(n);
  const RUN = 32;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(lo + RUN, n);
    for (let i = lo + 1; i < hi; i++) {
      const item = from[i] as number;
      let j = i;
      while (j > lo && compare(item, from[j - 1] as number) < 0) {
        from[j] = from[j - 1] as number;
        j--;
      }
      from[j] = item;
    }
  }
  let moved = 0;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // The left run's item first unless the right one is strictly smaller: that keeps the sort stable.
        to[k++] = compare(from[j] as number, from[i] as number) < 0 ? (from[j++] as number) : (from[i++] as number);
      }
      while (i < mid) to[k++] = from[i++] as number;
      while (j < hi) to[k++] = from[j++] as number;
      moved += hi - lo;
      if (moved >= SORT_SLICE) {
        moved = 0;
        await nextTurn();
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Runs `body` over `[0, n)` in slices of `SORT_SLICE`, giving the event loop a turn between them. */
async function inSlices(n: number, body: (from: number, to: number) => void): Promise<void> {
  for (let from = 0; from < n; from += SORT_SLICE) {
    body(from, Math.min(from + SORT_SLICE, n));
    if (from + SORT_SLICE < n) await nextTurn();
  }
}

/** Bits of the key a pass of `sortByKey` sorts by. */
const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;

/**
 * `items` sorted by `key` of each, ascending and stably (equal keys keep their order), in a new array, in turns
 * of the event loop as `sortInTurns`. Integer keys spanning less than 2^32 (days, cents, ranks, flags) are sorted
 * by their digits, 16 bits a pass, least significant first: one or two passes over the items, a tenth of a merge
 * sort's time on a million. Other keys fall back to `sortInTurns`.
 */
export async function sortByKey(items: Int32Array, key: (item: number) => number): Promise<Int32Array> {
  const n = items.length;
  if (n < 2) return items.slice();
  const keys = new Float64Array(n);
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let whole = true;
  await inSlices(n, (from, to) => {
    for (let i = from; i < to; i++) {
      const k = key(items[i] as number);
      keys[i] = k;
      if (k < low) low = k;
      if (k > high) high = k;
      if (!Number.isInteger(k)) whole = false;
    }
  });
  if (!whole || high - low >= 2 ** 32) return sortInTurns(items, (a, b) => key(a) - key(b));
  let digits = new Uint32Array(n);
  await inSlices(n, (from, to) => {
    for (let i = from; i < to; i++) digits[i] = (keys[i] as number) - low;
  });
  let from = items.slice();
  let to = new Int32Array(n);
  let digitsTo = new Uint32Array(n);
  const count = new Int32Array(DIGITS + 1);
  for (let shift = 0; shift < 32 && (high - low) / 2 ** shift >= 1; shift += DIGIT_BITS) {
    count.fill(0);
    const source = digits;
    await inSlices(n, (a, b) => {
      for (let i = a; i < b; i++) {
        const d = (((source[i] as number) >>> shift) & (DIGITS - 1)) + 1;
        count[d] = (count[d] as number) + 1;
      }
    });
    for (let d = 1; d <= DIGITS; d++) count[d] = (count[d] as number) + (count[d - 1] as number);
    const [f, t, dt] = [from, to, digitsTo];
    await inSlices(n, (a, b) => {
      for (let i = a; i < b; i++) {
        const value = source[i] as number;
        const d = (value >>> shift) & (DIGITS - 1);
        const at = count[d] as number;
        count[d] = at + 1;
        t[at] = f[i] as number;
        dt[at] = value;
      }
    });
    [from, to] = [to, from];
    [digits, digitsTo] = [digitsTo, digits];
  }
  return from;
}
