import { toApiTimestamp } from '@billfold/contract/dates';
import { type FieldChange, HISTORY_ACTIONS, type HistoryAction, type HistoryEntry } from '@billfold/contract/history';
import { notFound } from '../../lib/http-error.ts';
import { MESSAGES } from '../../lib/messages.ts';
import type { HistoryReader, HistoryRow } from './history.repository.ts';
import type { HistoryKind } from './history-fields.ts';

const NOT_FOUND: Record<HistoryKind, string> = {
  entry: MESSAGES.invoiceNotFound,
  payment: MESSAGES.paymentNotFound,
  bill: MESSAGES.entityNotFound,
};

function toHistoryEntry(row: HistoryRow): HistoryEntry {
  const action = HISTORY_ACTIONS.includes(row.action as HistoryAction) ? (row.action as HistoryAction) : 'update';
  return {
    id: Number(row.id),
    at: toApiTimestamp(new Date(Number(row.at))),
    by: row.user_id === null || row.username === null ? null : { userId: Number(row.user_id), username: row.username },
    action,
    fields: JSON.parse(row.fields) as FieldChange[],
  };
}

/** Who changed what on an invoice, payment or entity (docs/decisions/0108-change-history.md). */
export class HistoryService {
  constructor(private readonly repo: HistoryReader) {}

  /** The item's history, oldest first; recycled items too. 404 when the item is not in the request's ledger. */
  async list(ledgerId: number, kind: HistoryKind, itemId: number): Promise<HistoryEntry[]> {
    if (!(await this.repo.holds(kind, ledgerId, itemId))) throw notFound(NOT_FOUND[kind]);
    return (await this.repo.list(kind, itemId)).map(toHistoryEntry);
  }
}
