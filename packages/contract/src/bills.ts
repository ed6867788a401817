/** Entities (billers and payees; `bill` on the wire): `/bills`. */
import { z } from 'zod';
import { AMOUNT_MODES } from './amount-modes.ts';
import {
  id,
  isoDate,
  looseBoolean,
  moneyOut,
  nameText,
  oneOrMany,
  optionalParam,
  text,
  wholeNumberParam,
} from './primitives.ts';
import { CADENCES } from './schedule-dates.ts';
import { MESSAGES } from './validation.ts';

export const category = z.string().max(100);
export const billStatus = z.preprocess(
  (v) => {
    if (v === true || v === 'true' || v === '1') return 1;
    if (v === false || v === 'false' || v === '0') return 0;
    return v;
  },
  z.union([z.literal(0), z.literal(1)]),
);

export const bill = z.object({
  id: z.number().int(),
  name: z.string(),
  /** One of the 21 built-in categories or a name of the user's own (docs/decisions/0105-categories-of-your-own.md). */
  category: z.string(),
  internal: z.boolean(),
  status: z.union([z.literal(0), z.literal(1)]),
  recycle: z.boolean(),
});

export const billsQuery = z.object({
  status: z.enum(['active', 'inactive', 'all']).optional(),
  name: text(100).optional(),
  category: oneOrMany(category),
});
export const billGetQuery = z.object({ bypass: z.string().optional() });
/** The longest entity name, in UTF-16 code units as `z.string().max` counts them. */
export const ENTITY_NAME_CHARS = 100;
/**
 * An entity's name as stored: trimmed, NFC, the name rules (docs/decisions/0102-text-characters.md), 1 to
 * `ENTITY_NAME_CHARS` characters. A bill reading's `heading`, which suggests one, passes it too.
 */
export const entityName = nameText(ENTITY_NAME_CHARS).pipe(z.string().min(1, MESSAGES.entityNameEmpty));
export const createBillBody = z.object({
  name: entityName,
  status: billStatus.optional(),
  category: category.nullish(),
  internal: looseBoolean.optional(),
});
export const updateBillBody = z.object({
  id,
  name: entityName.optional(),
  status: billStatus.optional(),
  category: category.nullish(),
  internal: looseBoolean.optional(),
  recycle: looseBoolean.optional(),
});
export const billListResponse = z.object({ billDTOList: z.array(bill) });
export type Bill = z.infer<typeof bill>;
export type BillList = z.infer<typeof billListResponse>;
export type CreateBillBody = z.input<typeof createBillBody>;
export type UpdateBillBody = z.input<typeof updateBillBody>;
/** The entity list's filters as the server reads them. */
export type BillQuery = z.output<typeof billsQuery>;
/** A new entity as the server reads it. */
export type NewBill = z.output<typeof createBillBody>;
/** An entity change as the server reads it. */
export type BillChange = z.output<typeof updateBillBody>;

// ---------- the Entities page: one page of entities with what is open on each (docs/decisions/0406-entity-overview.md)

/** What the overview sorts by: name, category, open balance (to pay plus to collect), next due date, invoices. */
export const BILL_SORT_FIELDS = ['name', 'category', 'balance', 'nextDue', 'invoices'] as const;
export type BillSortField = (typeof BILL_SORT_FIELDS)[number];
/** Rows a page of the overview: 10, 25 (the default), 50 or 100, as the Archives and Recycle Bin grids. */
export const BILL_PAGE_SIZES = [10, 25, 50, 100] as const;
export const BILL_DEFAULT_PAGE_SIZE = 25;

export const billOverviewQuery = z.object({
  /** `active` (the default, as Home's Archives filter unset), `inactive` (archived only) or `all`. */
  status: optionalParam(z.enum(['active', 'inactive', 'all'])),
  /** Part of the name, any case. */
  name: optionalParam(text(100)),
  category: oneOrMany(category),
  sortField: optionalParam(z.enum(BILL_SORT_FIELDS)),
  sortOrder: optionalParam(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(['asc', 'desc'])),
  ),
  pageNum: optionalParam(wholeNumberParam(0, 1_000_000)),
  pageSize: optionalParam(wholeNumberParam(1, 100)),
  /** The client's own date, for `overdue`; the server's UTC date when absent. */
  today: optionalParam(isoDate),
});
export type BillOverviewQuery = z.output<typeof billOverviewQuery>;

/** One schedule of the entity, in short: its rule, amount, flow and the date of the next invoice it creates. */
export const billScheduleSummary = z.object({
  id: z.number().int(),
  cadence: z.enum(CADENCES),
  interval: z.number().int(),
  dayOfMonth: z.number().int().nullable(),
  /** The fixed amount: the stand-in of a variable schedule while it has nothing to go by. */
  amount: moneyOut,
  amountMode: z.enum(AMOUNT_MODES),
  averageOf: z.number().int().nullable(),
  /** The amount its next invoice would get now: `amount` when fixed, else the estimate from recent invoices. */
  estimate: moneyOut,
  /** `INCOMING` or `OUTGOING` (entries.ts imports this file, so the list is written out here). */
  flow: z.enum(['INCOMING', 'OUTGOING']),
  paused: z.boolean(),
  /** Null when paused or ended. */
  nextDate: z.string().nullable(),
  ended: z.boolean(),
});
export type BillScheduleSummary = z.infer<typeof billScheduleSummary>;

export const billOverview = bill.extend({
  /** Its invoices not in the recycle bin. */
  invoiceCount: z.number().int(),
  /** What is still owed on its invoices (not in the bin): on expenses (`toPay`) and on income (`toCollect`). */
  balance: z.object({ toPay: moneyOut, toCollect: moneyOut }),
  /** The earliest due date of its unpaid invoices; null when none has one, and for an archived entity. */
  nextDueDate: z.string().nullable(),
  /** `nextDueDate` is before `today`. */
  overdue: z.boolean(),
  schedules: z.array(billScheduleSummary),
});
export type BillOverview = z.infer<typeof billOverview>;
export const billOverviewList = z.object({ bills: z.array(billOverview), total: z.number().int() });
export type BillOverviewList = z.infer<typeof billOverviewList>;
