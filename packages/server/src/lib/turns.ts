/**
 * One turn of the event loop: other requests' I/O and timers run before the caller goes on. Long work (a file's
 * rows, a bulk insert: better-sqlite3 answers synchronously, so a chain of awaited statements never lets go on
 * its own) calls it between steps, so no single request holds the process for long
 * (docs/decisions/0706-limits-and-fairness.md).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
