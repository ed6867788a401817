/**
 * How a change of an invoice, entity or payment reads on screen (docs/decisions/0108-change-history.md): the fields under the names the screens give them, money as money, codes as words.
 */
import { categoryLabel } from '@billfold/contract/categories';
import type { FieldChange, HistoryAction, HistoryEntry } from '@billfold/contract/history';
import { formatAmount } from '@billfold/contract/money';
import { joinMethod, paymentMethodLabel } from '@billfold/contract/payment-methods';
import { formatTimestamp } from './dates.ts';

export type HistoryItem = 'invoice' | 'entity' | 'payment';

/** What happened, as a verb after the person: "ann changed", "ann deleted". */
const ACTION_VERBS: Record<HistoryAction, string> = {
  create: 'added',
  update: 'changed',
  recycle: 'deleted',
  restore: 'restored',
  import: 'imported',
  schedule: 'added from a schedule',
  autopay: 'recorded an automatic payment',
};

const FIELD_LABELS: Record<string, string> = {
  billId: 'Entity',
  date: 'Date',
  flow: 'Flow',
  amount: 'Amount',
  services: 'Description',
  dueDate: 'Due date',
  estimated: 'Estimated',
  name: 'Name',
  category: 'Category',
  internal: 'Internal',
  status: 'Status',
  method: 'Method',
  notes: 'Notes',
  autopay: 'Autopay',
};

/** One line of a change: the field's label and its value before and after, as words. */
export interface FieldLine {
  label: string;
  from: string;
  to: string;
}

const EMPTY = '—';

function valueText(field: string, value: FieldChange['from'], entityName?: (id: number) => string | null): string {
  if (value === null || value === '') return EMPTY;
  switch (field) {
    case 'amount':
      return typeof value === 'number' ? formatAmount(value) : String(value);
    case 'flow':
      return value === 'INCOMING' ? 'Income' : value === 'OUTGOING' ? 'Expense' : String(value);
    case 'status':
      return value === 1 ? 'Active' : value === 0 ? 'Archived' : String(value);
    case 'category':
      return categoryLabel(String(value));
    case 'billId':
      return (typeof value === 'number' && entityName?.(value)) || `Entity #${value}`;
    case 'method':
      return paymentMethodLabel(String(value));
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/**
 * The lines of one change. A payment's `type` and `medium` read as one Method, as the payment form shows them;
 * `recycle` is said by the action itself (deleted, restored), so it is no line of its own; nor is a new invoice's
 * `estimated: false`.
 */
export function fieldLines(entry: HistoryEntry, entityName?: (id: number) => string | null): FieldLine[] {
  const byField = new Map(entry.fields.map((change) => [change.field, change]));
  const type = byField.get('type');
  const medium = byField.get('medium');
  const changes: FieldChange[] = [];
  for (const change of entry.fields) {
    if (change.field === 'recycle' || change.field === 'medium') continue;
    // A new invoice that is no estimate says nothing of it (docs/decisions/0212-estimated-amounts.md).
    if (change.field === 'estimated' && change.from === null && change.to === false) continue;
    if (change.field === 'type') {
      const method = (side: 'from' | 'to') => {
        const t = type?.[side] ?? null;
        const m = medium?.[side] ?? null;
        return t === null && m === null ? null : joinMethod(String(t ?? ''), String(m ?? ''));
      };
      changes.push({ field: 'method', from: method('from'), to: method('to') });
      continue;
    }
    changes.push(change);
  }
  if (medium && !type) changes.push({ field: 'method', from: medium.from, to: medium.to });
  // A first value that is empty says nothing: an invoice added without a due date lists no due date.
  const first = entry.fields.every((change) => change.from === null);
  return changes
    .filter((change) => !(first && (change.to === null || change.to === '')))
    .map((change) => ({
      label: FIELD_LABELS[change.field] ?? change.field,
      from: valueText(change.field, change.from, entityName),
      to: valueText(change.field, change.to, entityName),
    }));
}

/** Who made a change: their username; the server's own work (a schedule, an automatic payment) or a gone account. */
export function authorOf(entry: HistoryEntry): string {
  if (entry.by) return entry.by.username;
  return entry.action === 'schedule' || entry.action === 'autopay' ? 'Billfold' : 'A former member';
}

/** "ann changed", "Billfold recorded an automatic payment". */
export function changeTitle(entry: HistoryEntry): string {
  return `${authorOf(entry)} ${ACTION_VERBS[entry.action]}`;
}

/**
 * The line under an item's title: `Added by ann on Nov 22, 2026, 10:04 AM · Changed by bob on …`, from the first
 * change and the last one (when there was more than one). Nothing when the history is empty (an item from before
 * history was kept).
 */
export function provenance(history: readonly HistoryEntry[]): string | null {
  const first = history[0];
  if (!first) return null;
  const added =
    first.action === 'import'
      ? `Imported by ${authorOf(first)}`
      : first.action === 'schedule' && !first.by
        ? 'Added by a schedule'
        : `Added by ${authorOf(first)}`;
  const parts = [`${added} on ${formatTimestamp(first.at)}`];
  const last = history.length > 1 ? history[history.length - 1] : undefined;
  if (last) parts.push(`Changed by ${authorOf(last)} on ${formatTimestamp(last.at)}`);
  return parts.join(' · ');
}
