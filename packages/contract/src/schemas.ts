/** The HTTP contract of API.md as zod schemas: requests are parsed with them, responses typed by them. */
import { z } from 'zod';
import { CATEGORIES } from './categories.ts';
import { isValidIsoDate, MAX_DATE, MIN_DATE } from './dates.ts';
import { MAX_CENTS, toCents } from './money.ts';
import { PAYMENT_METHOD_CODES } from './payment-methods.ts';
import { plainMessages } from './plain-messages.ts';
import { nameProblem, textProblem } from './text-rules.ts';
import {
  EMAIL_MAX_LENGTH,
  isStrongPassword,
  isValidEmail,
  MESSAGES,
  PASSWORD_MAX_LENGTH,
  USERNAME_PATTERN,
} from './validation.ts';

// ---------- primitives ----------

// zod's own messages in plain words, wherever the contract's schemas run (server and browser).
z.config({ customError: plainMessages });

/** Refuses text that `problem` names a reason for, with that reason as the message. */
const checkedBy = (problem: (value: string) => string | null) => (value: string, ctx: z.RefinementCtx) => {
  const message = problem(value);
  if (message) ctx.addIssue({ code: 'custom', message });
};

/** Trimmed free text of at most `max` characters (docs/decisions/0102-text-characters.md). */
export const text = (max: number) =>
  z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().max(max, `must be at most ${max} characters`).superRefine(checkedBy(textProblem)));

/** A trimmed name of at most `max` characters, in Unicode's composed form, with nothing invisible in it. */
export const nameText = (max: number) =>
  z
    .string()
    .transform((s) => s.trim().normalize('NFC'))
    .pipe(z.string().max(max, `must be at most ${max} characters`).superRefine(checkedBy(nameProblem)));

const ID_TEXT = /^[1-9]\d{0,15}$/;
const toId = (v: unknown) => (typeof v === 'string' && ID_TEXT.test(v.trim()) ? Number(v.trim()) : v);
const ID_MESSAGE = 'must be a positive whole number (1, 2, 3, …)';

/** A positive integer id; numeric strings are accepted because existing clients send route params as text. */
export const id = z.preprocess(
  toId,
  z.number(ID_MESSAGE).int(ID_MESSAGE).positive(ID_MESSAGE).max(Number.MAX_SAFE_INTEGER, ID_MESSAGE),
);
export const idParams = z.object({ id });

export const isoDate = z
  .string()
  .trim()
  .refine(isValidIsoDate, `must be a date YYYY-MM-DD between ${MIN_DATE} and ${MAX_DATE}`);

const toMoneyCents = (value: number | string, ctx: z.RefinementCtx) => {
  const cents = toCents(value);
  if (cents === null || cents > MAX_CENTS) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.invalidAmount });
    return z.NEVER;
  }
  return cents;
};
/** Money in a JSON body: a JSON number 0..999999999.99 with at most 2 decimals, turned into integer cents. */
export const moneyIn = z.number(MESSAGES.amountNotNumber).transform(toMoneyCents);
/** Money in a query string, where every value is text: the same numbers, written in decimal. */
export const moneyParam = z.union([z.number(), z.string()]).transform(toMoneyCents);
/** Money out: a JSON number with at most 2 decimals. */
export const moneyOut = z.number();

/** `true/false/1/0` and their text forms. */
export const looseBoolean = z.preprocess((v) => {
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  return v;
}, z.boolean());

export const timestamp = z.string().describe('UTC, YYYY-MM-DDTHH:mm:ss without offset');

export const errorResponse = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

// ---------- auth ----------

export const username = z.string().trim().regex(USERNAME_PATTERN, MESSAGES.invalidUsername);
export const email = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, MESSAGES.invalidEmail)
  .superRefine(checkedBy(nameProblem))
  .refine(isValidEmail, MESSAGES.invalidEmail);
/** Too long gets its own message first: the strength rule's text would not say what is wrong. */
export const newPassword = z
  .string()
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong)
  .refine(isStrongPassword, MESSAGES.weakPassword);
/** A password being checked, not set: any non-empty text of bounded size. */
export const password = z
  .string()
  .min(1, 'is required')
  .max(PASSWORD_MAX_LENGTH * 4, `must be at most ${PASSWORD_MAX_LENGTH * 4} characters`);

export const createUserBody = z.object({ username, email, password: newPassword });
export const createUserResponse = z.object({ username: z.string(), email: z.string() });
export const loginBody = z.object({ username: z.string().trim().min(1, 'is required').max(254), password });
export const authResponse = z.object({ accessToken: z.string(), refreshToken: z.string(), username: z.string() });
export const refreshToken = z.string().min(1).max(512);
export const refreshQuery = z.object({ refreshToken: refreshToken.optional() });
export const refreshBody = z.object({ refreshToken: refreshToken.optional() }).nullish();

export type CreateUserBody = z.infer<typeof createUserBody>;
export type LoginBody = z.infer<typeof loginBody>;
export type AuthResponse = z.infer<typeof authResponse>;

// ---------- user ----------

export const ROLES = ['ROLE_USER', 'ROLE_ADMIN'] as const;
export const userQuery = z.object({ userName: z.string().trim().min(1).max(254) });
export const user = z.object({
  username: z.string(),
  email: z.string(),
  roles: z.enum(ROLES),
  createdAt: timestamp,
  lastLogin: timestamp.nullable(),
  mfaEnabled: z.boolean(),
});
/** A 6-digit TOTP code (spaces allowed) or a recovery code (`xxxxx-xxxxx`, any case). */
export const mfaCode = z.string().trim().min(1, 'is required').max(64);
export const updateUserBody = z.object({
  password,
  newEmail: email.optional(),
  newPassword: newPassword.optional(),
  mfaEnabled: looseBoolean.optional(),
  /** A TOTP or recovery code: needed with `mfaEnabled: false` while MFA is on. */
  code: mfaCode.optional(),
  recycle: looseBoolean.optional(),
});
export type User = z.infer<typeof user>;
export type UpdateUserBody = z.input<typeof updateUserBody>;

// ---------- two-factor sign-in (MFA) ----------

/** `POST /auth/login`'s answer for an account with MFA on: the code step comes next. */
export const mfaChallenge = z.object({
  mfaRequired: z.literal(true),
  challenge: z.string(),
  /** Seconds the challenge stays valid. */
  expiresIn: z.number().int(),
});
export const loginResponse = z.union([authResponse, mfaChallenge]);
export const mfaLoginBody = z.object({ challenge: z.string().min(1).max(512), code: mfaCode });
export const mfaSetupBody = z.object({ password });
export const mfaSetupResponse = z.object({ secret: z.string(), otpauthUri: z.string() });
export const mfaEnableBody = z.object({ code: mfaCode });
export const recoveryCodes = z.array(z.string());
export const mfaEnableResponse = z.object({ user, recoveryCodes });
export const recoveryCodesBody = z.object({ password, code: mfaCode });
export const recoveryCodesResponse = z.object({ recoveryCodes });
export const mfaStatus = z.object({ mfaEnabled: z.boolean(), recoveryCodesLeft: z.number().int() });

export type MfaChallenge = z.infer<typeof mfaChallenge>;
export type LoginResponse = z.infer<typeof loginResponse>;
export type MfaLoginBody = z.infer<typeof mfaLoginBody>;
export type MfaSetupResponse = z.infer<typeof mfaSetupResponse>;
export type MfaEnableResponse = z.infer<typeof mfaEnableResponse>;
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;
export type MfaStatus = z.infer<typeof mfaStatus>;

// ---------- bills (entities) ----------

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
  category: z.enum(CATEGORIES),
  internal: z.boolean(),
  status: z.union([z.literal(0), z.literal(1)]),
  recycle: z.boolean(),
});
const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(1000)).optional();

export const billsQuery = z.object({
  status: z.enum(['active', 'inactive', 'all']).optional(),
  name: text(100).optional(),
  category: oneOrMany(category),
});
export const billGetQuery = z.object({ bypass: z.string().optional() });
export const createBillBody = z.object({
  name: nameText(100).pipe(z.string().min(1, MESSAGES.entityNameEmpty)),
  status: billStatus.optional(),
  category: category.nullish(),
  internal: looseBoolean.optional(),
});
export const updateBillBody = z.object({
  id,
  name: nameText(100).pipe(z.string().min(1, MESSAGES.entityNameEmpty)).optional(),
  status: billStatus.optional(),
  category: category.nullish(),
  internal: looseBoolean.optional(),
  recycle: looseBoolean.optional(),
});
export const billListResponse = z.object({ billDTOList: z.array(bill) });
export type Bill = z.infer<typeof bill>;
export type CreateBillBody = z.input<typeof createBillBody>;
export type UpdateBillBody = z.input<typeof updateBillBody>;

// ---------- entries (invoices) ----------

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
  category: z.enum(CATEGORIES),
  date: z.string(),
  flow: z.enum(FLOWS),
  amount: moneyOut,
  services: z.string(),
  /** When it falls due (`YYYY-MM-DD`, never before `date`), or null: an addition to the spec's invoice. */
  dueDate: z.string().nullable(),
  status: z.boolean(),
  overpaid: z.boolean(),
  balance: z.object({ totalBalance: moneyOut, totalOverpaid: moneyOut }),
  internal: z.boolean(),
  archived: z.boolean(),
  recycle: z.boolean(),
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

/** Query values that are empty text count as not given: a client that clears a box is not sending a bad value. */
const optionalParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const filterFlow = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['income', 'expense', 'internal', 'incoming', 'outgoing']))
  .transform(
    (v) => (v === 'incoming' ? 'income' : v === 'outgoing' ? 'expense' : v) as 'income' | 'expense' | 'internal',
  );

/** A whole number from `min` to `max` in a query string; one message for every way to miss it. */
const wholeNumberParam = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number(message).int(message).min(min, message).max(max, message);
};

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

const sortParams = {
  sortField: optionalParam(
    z
      .string()
      .transform((v) => SORT_ALIASES[v] ?? v)
      .pipe(z.enum(SORT_FIELDS)),
  ),
  sortOrder: optionalParam(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(['asc', 'desc'])),
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
  })
  .refine(...dueNotBeforeDate);
export const entryListResponse = z.object({ entries: z.array(entry), total: z.number().int() });
export type CreateEntryBody = z.input<typeof createEntryBody>;
export type UpdateEntryBody = z.input<typeof updateEntryBody>;
export type EntryList = z.infer<typeof entryListResponse>;

// ---------- payments ----------

export const payment = z.object({
  paymentId: z.number().int(),
  id: z.number().int(),
  entryId: z.number().int(),
  date: z.string(),
  amount: moneyOut,
  type: z.string(),
  medium: z.string(),
  notes: z.string(),
  autopay: z.boolean(),
  recycle: z.boolean(),
});
export type Payment = z.infer<typeof payment>;

const methodPart = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.string().min(1).max(20));
const knownMethod = (p: { type?: string; medium?: string }) =>
  p.type === undefined || p.medium === undefined || PAYMENT_METHOD_CODES.includes(`${p.type}|${p.medium}` as never);
const methodMessage = {
  message: 'and medium must be one of the payment methods (type|medium, such as bank|ach)',
  path: ['type'],
};

export const paymentsQuery = z.object({ entryId: id });
export const paymentGetQuery = z.object({ filter: z.string().optional() });
export const createPaymentBody = z
  .object({
    entryId: id,
    date: isoDate,
    amount: moneyIn,
    type: methodPart,
    medium: methodPart,
    notes: text(1000).nullish(),
    autopay: looseBoolean.optional().default(false),
  })
  .refine(knownMethod, methodMessage);
export const updatePaymentBody = z
  .object({
    paymentId: id.optional(),
    id: id.optional(),
    entryId: id.optional(),
    date: isoDate.optional(),
    amount: moneyIn.optional(),
    type: methodPart.optional(),
    medium: methodPart.optional(),
    notes: text(1000).nullish(),
    autopay: looseBoolean.optional(),
    recycle: looseBoolean.optional(),
  })
  .refine((p) => p.paymentId !== undefined || p.id !== undefined, { message: 'is required', path: ['paymentId'] })
  .refine((p) => (p.type === undefined) === (p.medium === undefined), {
    message: 'must be sent together with type',
    path: ['medium'],
  })
  .refine(knownMethod, methodMessage);
export const paymentListResponse = z.object({ paymentDTOList: z.array(payment) });
export type CreatePaymentBody = z.input<typeof createPaymentBody>;
export type UpdatePaymentBody = z.input<typeof updatePaymentBody>;

// ---------- recycle bin ----------

export const RECYCLE_TYPES = ['Entity', 'Invoice', 'Payment'] as const;
export type RecycleType = (typeof RECYCLE_TYPES)[number];
export const recycleItem = z.object({
  entityType: z.enum(RECYCLE_TYPES),
  entityId: z.number().int(),
  recycleDate: timestamp,
  partyName: z.string().nullable(),
  invoiceNumber: z.number().int().nullable(),
  entityDate: z.string().nullable(),
  amount: moneyOut.nullable(),
  type: z.string().nullable(),
  details: z.string().nullable(),
});
export const recycleListResponse = z.object({ recycleItems: z.array(recycleItem) });
export const restoreBody = z.object({ entityType: z.enum(RECYCLE_TYPES), entityId: id });
export const messageResponse = z.object({ message: z.string() });
export type RecycleItem = z.infer<typeof recycleItem>;

// ---------- stats ----------

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

// ---------- operations ----------

export const healthResponse = z.object({ status: z.string(), db: z.string() });
