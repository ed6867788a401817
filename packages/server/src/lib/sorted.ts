/**
 * The first position in `sorted[0 .. length)`, ascending, whose value is not below `value` (`length` when every one
 * is): a binary search, for the ledger index's slots and due days, a schedule's due dates and the account file's ids.
 */
export function firstAtOrAfter<T extends number | string>(
  sorted: ArrayLike<T>,
  value: T,
  length = sorted.length,
): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as T) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
