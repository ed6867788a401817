/** Invoices (`entry` on the wire): `/entries`, their filters, sorts and pages, and the CSV export's query. */
import { z } from 'zod';
import { category } from './bills.ts';
import { ownValue } from './own-keys.ts';
import {
  id,
  isoDate,
  looseBoolean,
  moneyIn,
  moneyOut,
  moneyParam,
  oneOrMany,
  optionalParam,
  text,
  wholeNumberParam,
} from './primitives.ts';
import { MESSAGES } from './validation.ts';

export const FLOWS = ['INCOMING', 'OUTGOING'] as const;
export type Flow = (typeof FLOWS)[number];
/** `income`/`expense`/`internal`/`INCOMING`/`OUTGOING`, any case; internal is an expense. */
export const flowIn = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['income', 'expense', 'internal', 'incoming', 'outgoing']))
  .transform((v): Flow => (v === 'income' || v === 'incoming' ? 'INCOMING' : 'OUTGOING'));

export const entry = z.object({
  entryId: z.number().int(),
  invoiceId: z.number().int(),
  billId: z.number().int(),
  name: z.string(),
  /** The entity's category: built-in, or a name of the user's own. */
  category: z.string(),
  date: z.string(),
  flow: z.enum(FLOWS),
  amount: moneyOut,
  services: z.string(),
  /** When it falls due (`YYYY-MM-DD`, never before `date`), or null: an addition to the original contract's invoice. */
  dueDate: z.string().nullable(),
  /**
   * What its schedule estimated, or null for an invoice no schedule created; `estimated` while the amount is that
   * estimate, not yet confirmed (docs/decisions/0212-estimated-amounts.md). Additions to the original contract.
   */
  estimate: moneyOut.nullable(),
  estimated: z.boolean(),
  status: z.boolean(),
  overpaid: z.boolean(),
  balance: z.object({ totalBalance: moneyOut, totalOverpaid: moneyOut }),
  internal: z.boolean(),
  archived: z.boolean(),
  recycle: z.boolean(),
  /**
   * Files attached to the invoice and to its live payments (docs/decisions/1143-attachment-count-and-filter.md).
   * Sent in the list answer (`GET /entries`) only; an additive field, absent elsewhere.
   */
  attachmentCount: z.number().int().nonnegative().optional(),
});
export type Entry = z.infer<typeof entry>;

export const SORT_FIELDS = [
  'invoiceId',
  'name',
  'date',
  'flow',
  'amount',
  'status',
  'balance',
  'services',
  'category',
  'internal',
  'archived',
  'dueDate',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const SORT_ALIASES: Record<string, SortField> = {
  paid: 'status',
  entryId: 'invoiceId',
  description: 'services',
};

const filterFlow = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['income', 'expense', 'internal', 'incoming', 'outgoing']))
  .transform(
    (v) => (v === 'incoming' ? 'income' : v === 'outgoing' ? 'expense' : v) as 'income' | 'expense' | 'internal',
  );

/** The due filters look this many days ahead at most. */
export const MAX_DUE_WITHIN = 366;

export const entryFilters = z
  .object({
    startDate: optionalParam(isoDate),
    endDate: optionalParam(isoDate),
    invoiceNum: optionalParam(
      z
        .string()
        .regex(/^[1-9]\d{0,15}$/, 'must be a positive whole number')
        .transform(Number),
    ),
    partyList: oneOrMany(z.string().max(100)),
    categoryList: oneOrMany(category),
    min: optionalParam(moneyParam),
    max: optionalParam(moneyParam),
    flow: optionalParam(filterFlow),
    paid: optionalParam(z.enum(['true', 'false', 'overpaid', 'partial'])),
    archives: optionalParam(z.enum(['true', 'false'])),
    /** `true`: invoices with a file attached to them or to a live payment of theirs; `false`: those without. */
    hasAttachment: optionalParam(z.enum(['true', 'false'])),
    /** Unpaid invoices due before today (`overdue`) or from today to today + `dueWithin` days (`upcoming`). */
    due: optionalParam(z.enum(['overdue', 'upcoming'])),
    dueWithin: optionalParam(wholeNumberParam(0, MAX_DUE_WITHIN)),
    /** The client's own date for the due filters; the server's UTC date when absent. */
    today: optionalParam(isoDate),
  })
  .refine((f) => !(f.startDate && f.endDate && f.startDate > f.endDate), {
    message: MESSAGES.startAfterEnd,
    path: ['startDate'],
  })
  .refine((f) => !(f.min != null && f.max != null && f.min > f.max), { message: MESSAGES.minAboveMax, path: ['min'] })
  .refine((f) => f.dueWithin === undefined || f.due === 'upcoming', {
    message: 'is only read with due=upcoming',
    path: ['dueWithin'],
  });
export type EntryFilters = z.output<typeof entryFilters>;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

const sortParams = {
  sortField: optionalParam(
    z
      .string()
      .transform((v) => ownValue(SORT_ALIASES, v) ?? v)
      .pipe(z.enum(SORT_FIELDS)),
  ),
  sortOrder: optionalParam(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(SORT_ORDERS)),
  ),
};
const pagingParams = {
  pageNum: optionalParam(wholeNumberParam(0, 10_000_000)),
  pageSize: optionalParam(wholeNumberParam(1, 100)),
};

export const entriesQuery = z.intersection(entryFilters, z.object({ ...sortParams, ...pagingParams }));
export type EntriesQuery = z.output<typeof entriesQuery>;
export const exportQuery = z.intersection(entryFilters, z.object(sortParams));
export const statsQuery = entryFilters;

export const entryGetQuery = z.object({ filter: z.string().optional() });
/** A due date in a body: a date by `date`'s rules, or null (or empty text) for none. */
const dueDateIn = z.preprocess((v) => (v === '' ? null : v), isoDate.nullable()).optional();
/** Both dates given: the due date is not before the invoice date. */
const dueNotBeforeDate = [
  (e: { date?: string | undefined; dueDate?: string | null | undefined }) =>
    !(e.date && e.dueDate && e.dueDate < e.date),
  { message: MESSAGES.dueBeforeDate, path: ['dueDate'] },
] as [(e: { date?: string | undefined; dueDate?: string | null | undefined }) => boolean, z.core.$ZodCustomParams];
export const createEntryBody = z
  .object({
    billId: id,
    date: isoDate,
    flow: flowIn,
    amount: moneyIn,
    services: text(500)
      .nullish()
      .transform((v) => v ?? ''),
    dueDate: dueDateIn,
  })
  .refine(...dueNotBeforeDate);
export const updateEntryBody = z
  .object({
    entryId: id,
    billId: id.optional(),
    date: isoDate.optional(),
    flow: flowIn.optional(),
    amount: moneyIn.optional(),
    services: text(500).nullish(),
    /** Absent: kept (moved with the date when the date changes); null: removed. */
    dueDate: dueDateIn,
    recycle: looseBoolean.optional(),
    /**
     * `true` confirms an estimated invoice's amount as it is (a changed amount confirms it too); otherwise nothing
     * (docs/decisions/0213-confirming-estimates.md).
     */
    confirm: looseBoolean.optional(),
  })
  .refine(...dueNotBeforeDate);
export const entryListResponse = z.object({ entries: z.array(entry), total: z.number().int() });
export type CreateEntryBody = z.input<typeof createEntryBody>;
export type UpdateEntryBody = z.input<typeof updateEntryBody>;
export type EntryList = z.infer<typeof entryListResponse>;
/** A new invoice as the server reads it. */
export type NewEntry = z.output<typeof createEntryBody>;
/** An invoice change as the server reads it. */
export type EntryChange = z.output<typeof updateEntryBody>;
