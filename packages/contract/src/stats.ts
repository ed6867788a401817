/** Income and expense statistics: `/entries/stats`. */
import { z } from 'zod';
import { moneyOut } from './primitives.ts';

const topMap = z.record(z.string(), moneyOut);
export const stats = z.object({
  totalIncomeAmount: moneyOut,
  totalReceivedPaymentAmount: moneyOut,
  totalIncomeOverpaid: moneyOut,
  totalIncomeOutstanding: moneyOut,
  avgReceivedPaymentAmount: moneyOut,
  maxReceivedPaymentAmount: moneyOut,
  totalExpenseAmount: moneyOut,
  totalSentPaymentAmount: moneyOut,
  totalExpenseOverpaid: moneyOut,
  totalExpenseUnpaid: moneyOut,
  avgSentPaymentAmount: moneyOut,
  maxSentPaymentAmount: moneyOut,
  topIncomeSources: topMap,
  topIncomeTypes: topMap,
  top5IncomeCategories: topMap,
  topExpenseRecipients: topMap,
  topExpenseTypes: topMap,
  top5ExpenseCategories: topMap,
});
export type Stats = z.infer<typeof stats>;
