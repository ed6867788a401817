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
