/**
 * Who writes, and in which ledger (docs/decisions/0107-ledgers.md): every write method of a data service takes
 * it, so the write lands in the request's ledger and its change history names the member who made it. The
 * ledger plugin (`plugins/ledger.ts`) makes it for each request; the server's own work (a schedule's invoice)
 * has no user.
 */
export interface Actor {
  ledgerId: number;
  /** The member who writes; null for the server's own work (the schedule runner). */
  userId: number | null;
}
