import type { Entry } from '@billfold/contract/schemas';

/** How an invoice's payment state is shown (spec §4 "Paid display"). */
export type PaidState = 'paid' | 'overpaid' | 'partial' | 'unpaid';

export const PAID_STATE_LABELS: Record<PaidState, string> = {
  paid: 'Paid',
  overpaid: 'Overpaid',
  partial: 'In Progress',
  unpaid: 'Unpaid',
};

/**
 * Paid, with the overpaid marker when overpaid; unpaid with the `In Progress` marker when the balance is partial
 * (above 0 and below the amount); otherwise unpaid.
 */
export function paidState(entry: Pick<Entry, 'status' | 'overpaid' | 'amount' | 'balance'>): PaidState {
  if (entry.status) return entry.overpaid ? 'overpaid' : 'paid';
  const balance = entry.balance.totalBalance;
  return balance > 0 && balance < entry.amount ? 'partial' : 'unpaid';
}

/** Income, expense or internal, as the screens show an invoice's flow. */
export type FlowKind = 'income' | 'expense' | 'internal';

export const FLOW_LABELS: Record<FlowKind, string> = { income: 'Income', expense: 'Expense', internal: 'Internal' };

/** An internal entity's invoices are internal whatever their stored flow (always OUTGOING). */
export function flowKind(entry: Pick<Entry, 'flow' | 'internal'>): FlowKind {
  if (entry.internal) return 'internal';
  return entry.flow === 'INCOMING' ? 'income' : 'expense';
}
