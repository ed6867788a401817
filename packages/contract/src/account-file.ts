/**
 * The ledger file (the account file until version 3): everything one ledger holds (entities, invoices, payments,
 * schedules, categories, and which of them sit in the recycle bin), exported as one JSON document and imported
 * into an empty ledger on any Billfold server (docs/decisions/0107-ledgers.md).
 * Objects refer to each other by `ref`, numbers local to the file (1, 2, 3… in creation order), never by database
 * ids, so export → import → export gives the same file on any server. Money is a decimal string ("1234.50"),
 * instants are ISO 8601 UTC with milliseconds. Every version ever written keeps importing: the parser
 * (`accountFile`) upgrades an older version step by step to the current one (docs/decisions/0901-account-file.md).
 */
import { z } from 'zod';
import { ATTACHMENT_TYPES } from './attachments.ts';
import {
  CATEGORIES,
  CATEGORY_FLOWS,
  categoryKey,
  categoryName,
  isBuiltInCategory,
  MAX_OWN_CATEGORIES,
} from './categories.ts';
import { MAX_CENTS, toCents } from './money.ts';
import { PAYMENT_METHOD_CODES } from './payment-methods.ts';
import { fileNameText, isoDate, nameText, text } from './primitives.ts';
import { CADENCES } from './schedule-dates.ts';
import { AMOUNT_MODES, AVERAGE_OF, descriptionTemplate, MAX_COUNT, MAX_DUE_DAYS, MAX_INTERVAL } from './schedules.ts';

export const ACCOUNT_FILE_FORMAT = 'billfold-account';
export const ACCOUNT_FILE_VERSION = 6;

const ref = z.number().int().positive();
const instant = z.iso.datetime({ precision: 3 });
const money = z.string().refine((v) => /^\d{1,9}\.\d{2}$/.test(v) && (toCents(v) ?? MAX_CENTS + 1) <= MAX_CENTS, {
  message: 'must be an amount like "1234.50" between 0.00 and 999999999.99',
});
const deleted = instant.nullable();

const entityV1 = z.object({
  ref,
  // The API's rule for names (docs/decisions/0102-text-characters.md): one line, nothing invisible, composed form.
  name: nameText(100).pipe(z.string().min(1, 'must not be empty')),
  category: z.enum(CATEGORIES),
  internal: z.boolean(),
  archived: z.boolean(),
  createdAt: instant,
  deletedAt: deleted,
});

const invoiceV1 = z.object({
  ref,
  entity: ref,
  number: z.number().int().positive(),
  date: isoDate,
  flow: z.enum(['income', 'expense']),
  amount: money,
  description: text(500),
  /** When it falls due (never before `date`); absent when it has no due date, as in files written before them. */
  dueDate: isoDate.optional(),
  createdAt: instant,
  deletedAt: deleted,
  /** Deleted together with its entity: restoring the entity brings it back. */
  deletedWithEntity: z.boolean(),
});

const paymentV1 = z.object({
  ref,
  invoice: ref,
  date: isoDate,
  amount: money,
  method: z.enum(PAYMENT_METHOD_CODES as [string, ...string[]]),
  notes: text(1000),
  autopay: z.boolean(),
  createdAt: instant,
  deletedAt: deleted,
  /** Deleted together with its invoice: restoring the invoice brings it back. */
  deletedWithInvoice: z.boolean(),
});

const uniqueRefs = (items: readonly { ref: number }[]) => new Set(items.map((i) => i.ref)).size === items.length;

const fileV1 = {
  format: z.literal(ACCOUNT_FILE_FORMAT),
  version: z.literal(1),
  exportedAt: instant,
  /** The highest invoice number the account ever issued; numbers are never reused, even after a purge. */
  lastInvoiceNumber: z.number().int().min(0),
  entities: z.array(entityV1).refine(uniqueRefs, 'refs must be unique'),
  invoices: z.array(invoiceV1).refine(uniqueRefs, 'refs must be unique'),
  payments: z.array(paymentV1).refine(uniqueRefs, 'refs must be unique'),
};

type Problem = (path: (string | number)[], message: string) => void;
/** A file's entities, invoices and payments, whatever its version: entity categories became free names in version 3. */
type FileV1 = Omit<z.infer<z.ZodObject<typeof fileV1>>, 'version' | 'entities'> & {
  entities: (Omit<z.infer<typeof entityV1>, 'category'> & { category: string })[];
};

/** The references and rules between entities, invoices and payments (version 1 on). */
function checkReferences(file: FileV1, problem: Problem): void {
  const entities = new Map(file.entities.map((e) => [e.ref, e]));
  const names = new Set<string>();
  file.entities.forEach((e, i) => {
    const key = e.name.toLowerCase();
    if (e.deletedAt !== null) return; // deleted entities may share a name
    if (names.has(key)) problem(['entities', i, 'name'], `another entity is already named "${e.name}"`);
    names.add(key);
  });
  const numbers = new Set<number>();
  const invoices = new Map(file.invoices.map((inv) => [inv.ref, inv]));
  file.invoices.forEach((inv, i) => {
    const entity = entities.get(inv.entity);
    if (!entity) problem(['invoices', i, 'entity'], `no entity has ref ${inv.entity}`);
    else if (entity.internal && inv.flow !== 'expense')
      problem(['invoices', i, 'flow'], 'an invoice of an internal entity is an expense');
    if (inv.dueDate !== undefined && inv.dueDate < inv.date)
      problem(['invoices', i, 'dueDate'], 'must not be before the invoice date');
    if (numbers.has(inv.number)) problem(['invoices', i, 'number'], `invoice number ${inv.number} appears twice`);
    numbers.add(inv.number);
    if (inv.number > file.lastInvoiceNumber) problem(['invoices', i, 'number'], 'is above lastInvoiceNumber');
    if (inv.deletedWithEntity && (inv.deletedAt === null || entity?.deletedAt === null))
      problem(['invoices', i, 'deletedWithEntity'], 'needs the invoice and its entity deleted');
  });
  file.payments.forEach((p, i) => {
    const invoice = invoices.get(p.invoice);
    if (!invoice) problem(['payments', i, 'invoice'], `no invoice has ref ${p.invoice}`);
    if (p.deletedWithInvoice && (p.deletedAt === null || invoice?.deletedAt === null))
      problem(['payments', i, 'deletedWithInvoice'], 'needs the payment and its invoice deleted');
  });
}

const problemsOf =
  (ctx: z.RefinementCtx): Problem =>
  (path, message) =>
    ctx.addIssue({ code: 'custom', path, message });

export const accountFileV1 = z.object(fileV1).superRefine((file, ctx) => checkReferences(file, problemsOf(ctx)));

/** One created occurrence of a schedule: its invoice (null once purged) and its automatic payment, if any. */
const occurrenceV2 = z.object({
  date: isoDate,
  invoice: ref.nullable(),
  /** The day its automatic payment is still to be recorded, or null. */
  autopayDate: isoDate.nullable(),
  payment: ref.nullable(),
  createdAt: instant,
});

const scheduleV2 = z.object({
  ref,
  entity: ref,
  cadence: z.enum(CADENCES),
  interval: z.number().int().min(1).max(MAX_INTERVAL),
  dayOfMonth: z.number().int().min(1).max(31).nullable(),
  firstDate: isoDate,
  endDate: isoDate.nullable(),
  count: z.number().int().min(1).max(MAX_COUNT).nullable(),
  amount: money,
  flow: z.enum(['income', 'expense']),
  description: descriptionTemplate,
  dueDays: z.number().int().min(0).max(MAX_DUE_DAYS),
  autopay: z.enum(PAYMENT_METHOD_CODES as [string, ...string[]]).nullable(),
  paused: z.boolean(),
  /** The next occurrence it will create, or null once it has ended. */
  nextDate: isoDate.nullable(),
  createdAt: instant,
  /** The occurrences it created, oldest first; their count is how many of `count` it has used. */
  occurrences: z.array(occurrenceV2),
});

/** Version 2 adds the recurring invoices' schedules (docs/decisions/1011-account-file-v2.md). */
const fileV2 = {
  ...fileV1,
  version: z.literal(2),
  schedules: z.array(scheduleV2).refine(uniqueRefs, 'refs must be unique'),
};
type FileV2 = FileV1 & Pick<z.infer<z.ZodObject<typeof fileV2>>, 'schedules'>;

/** The schedules' references (version 2 on). */
function checkSchedules(file: FileV2, problem: Problem): void {
  const entities = new Set(file.entities.map((e) => e.ref));
  const invoices = new Set(file.invoices.map((inv) => inv.ref));
  const payments = new Set(file.payments.map((p) => p.ref));
  file.schedules.forEach((s, i) => {
    if (!entities.has(s.entity)) problem(['schedules', i, 'entity'], `no entity has ref ${s.entity}`);
    if ((s.cadence === 'weekly') !== (s.dayOfMonth === null))
      problem(['schedules', i, 'dayOfMonth'], 'is set for monthly, quarterly and yearly schedules only');
    const dates = new Set<string>();
    s.occurrences.forEach((o, j) => {
      const at = ['schedules', i, 'occurrences', j];
      if (dates.has(o.date)) problem([...at, 'date'], `occurrence ${o.date} appears twice`);
      dates.add(o.date);
      if (o.invoice !== null && !invoices.has(o.invoice))
        problem([...at, 'invoice'], `no invoice has ref ${o.invoice}`);
      if (o.payment !== null && !payments.has(o.payment))
        problem([...at, 'payment'], `no payment has ref ${o.payment}`);
    });
  });
}

export const accountFileV2 = z.object(fileV2).superRefine((file, ctx) => {
  const problem = problemsOf(ctx);
  checkReferences(file, problem);
  checkSchedules(file, problem);
});

/** A category of the user's own (version 3 on); entities name it by its name, as they name a built-in one. */
const categoryV3 = z.object({
  name: categoryName,
  flow: z.enum(CATEGORY_FLOWS),
  retired: z.boolean(),
  createdAt: instant,
});

const fileV3 = {
  ...fileV2,
  version: z.literal(3),
  categories: z.array(categoryV3).max(MAX_OWN_CATEGORIES),
  entities: z.array(entityV1.extend({ category: z.string().max(100) })).refine(uniqueRefs, 'refs must be unique'),
};
type FileV3 = z.infer<z.ZodObject<typeof fileV3>>;

/** The references and category names of a version-3 file (and of every later one). */
function checkV3(file: Omit<FileV3, 'version'>, ctx: z.RefinementCtx): void {
  const problem = problemsOf(ctx);
  checkReferences(file, problem);
  checkSchedules(file, problem);
  const own = new Set<string>();
  file.categories.forEach((c, i) => {
    const key = categoryKey(c.name);
    if (isBuiltInCategory(c.name)) problem(['categories', i, 'name'], `"${c.name}" is a built-in category`);
    else if (own.has(key)) problem(['categories', i, 'name'], `another category is already named "${c.name}"`);
    own.add(key);
  });
  file.entities.forEach((e, i) => {
    if (!isBuiltInCategory(e.category) && !own.has(categoryKey(e.category)))
      problem(['entities', i, 'category'], `"${e.category}" is neither a built-in category nor in categories`);
  });
}

/**
 * Version 3 adds the user's own categories; an entity's category is a built-in one or one of them
 * (docs/decisions/0105-categories-of-your-own.md).
 */
export const accountFileV3 = z.object(fileV3).superRefine(checkV3);

/**
 * Version 4: the file is a ledger's (docs/decisions/0107-ledgers.md) and says which, by name; its content is
 * version 3's. Importing it loads the content into the request's ledger, whatever that ledger is named.
 */
const fileV4 = { ...fileV3, version: z.literal(4), ledger: z.object({ name: nameText(100) }) };
export const accountFileV4 = z.object(fileV4).superRefine(checkV3);
/** A version-4 file as written before estimated amounts: what tests of old files build. */
export type AccountFileV4 = z.infer<typeof accountFileV4>;

/** An invoice of version 5 on: what its schedule estimated, and whether its amount is still that estimate. */
const invoiceV5 = invoiceV1.extend({
  /** Absent for an invoice no schedule created. */
  estimate: money.optional(),
  /** Absent (false) unless the amount is the estimate, not yet confirmed. */
  estimated: z.literal(true).optional(),
});

/** A schedule of version 5 on: where its invoices' amount comes from. */
const scheduleV5 = scheduleV2.extend({
  amountMode: z.enum(AMOUNT_MODES),
  averageOf: z.number().int().min(AVERAGE_OF.min).max(AVERAGE_OF.max).nullable(),
});

/**
 * Version 5 adds estimated amounts (docs/decisions/0212-estimated-amounts.md): each schedule's `amountMode` and
 * `averageOf`, each invoice's `estimate` and `estimated` mark; otherwise version 4's.
 */
const fileV5 = {
  ...fileV4,
  version: z.literal(5),
  invoices: z.array(invoiceV5).refine(uniqueRefs, 'refs must be unique'),
  schedules: z.array(scheduleV5).refine(uniqueRefs, 'refs must be unique'),
};

/** The estimates' rules of a version-5 file (and of every later one), beside version 3's. */
function checkV5(file: Omit<z.infer<z.ZodObject<typeof fileV5>>, 'version'>, ctx: z.RefinementCtx): void {
  checkV3(file, ctx);
  const problem = problemsOf(ctx);
  file.invoices.forEach((inv, i) => {
    if (inv.estimated && inv.estimate === undefined) problem(['invoices', i, 'estimated'], 'needs an estimate');
  });
  file.schedules.forEach((s, i) => {
    if ((s.amountMode === 'average') !== (s.averageOf !== null))
      problem(['schedules', i, 'averageOf'], 'is set for amountMode average only');
  });
}

export const accountFileV5 = z.object(fileV5).superRefine(checkV5);
/** A version-5 file as written before attachments: what tests of old files build. */
export type AccountFileV5 = z.infer<typeof accountFileV5>;

/** The SHA-256 of a file's bytes in lower-case hex: its name in the ledger archive (`files/<sha256>`). */
export const fileSha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be the SHA-256 of the file in lower-case hex');

/**
 * An attached file (version 6 on): the invoice or the payment it belongs to (exactly one), its name and type as
 * the server stored them, its size in bytes and the SHA-256 of its bytes, which name the file in the ledger archive
 * (docs/decisions/1160-ledger-archive.md). It is in the recycle bin exactly while its item is.
 */
const attachmentV6 = z.object({
  invoice: ref.nullable(),
  payment: ref.nullable(),
  fileName: fileNameText,
  contentType: z.enum(ATTACHMENT_TYPES),
  size: z.number().int().positive(),
  sha256: fileSha256,
  createdAt: instant,
});

/**
 * Version 6 adds the attached files' rows (docs/decisions/1160-ledger-archive.md); their bytes travel beside the
 * JSON in the ledger archive, a tar of `ledger.json` and `files/<sha256>`. Otherwise version 5's.
 */
export const accountFileV6 = z
  .object({ ...fileV5, version: z.literal(6), attachments: z.array(attachmentV6) })
  .superRefine((file, ctx) => {
    checkV5(file, ctx);
    const problem = problemsOf(ctx);
    const invoices = new Set(file.invoices.map((inv) => inv.ref));
    const payments = new Set(file.payments.map((p) => p.ref));
    const files = new Map<string, { size: number; contentType: string }>();
    file.attachments.forEach((a, i) => {
      if ((a.invoice === null) === (a.payment === null))
        problem(['attachments', i], 'belongs to exactly one invoice or payment');
      else if (a.invoice !== null && !invoices.has(a.invoice))
        problem(['attachments', i, 'invoice'], `no invoice has ref ${a.invoice}`);
      else if (a.payment !== null && !payments.has(a.payment))
        problem(['attachments', i, 'payment'], `no payment has ref ${a.payment}`);
      const same = files.get(a.sha256);
      if (same && (same.size !== a.size || same.contentType !== a.contentType))
        problem(['attachments', i, 'sha256'], 'names the same file as another attachment with another size or type');
      files.set(a.sha256, a);
    });
  });
export type AccountFile = z.infer<typeof accountFileV6>;
export type AccountFileCategory = AccountFile['categories'][number];
export type AccountFileEntity = AccountFile['entities'][number];
export type AccountFileInvoice = AccountFile['invoices'][number];
export type AccountFilePayment = AccountFile['payments'][number];
export type AccountFileSchedule = AccountFile['schedules'][number];
export type AccountFileAttachment = AccountFile['attachments'][number];

/** A version-1 file as version 2: it had no schedules. */
const upgradeV1 = (file: z.infer<typeof accountFileV1>): z.infer<typeof accountFileV2> => ({
  ...file,
  version: 2,
  schedules: [],
});
/** A version-2 file as version 3: it had only the built-in categories. */
const upgradeV2 = (file: z.infer<typeof accountFileV2>): z.infer<typeof accountFileV3> => ({
  ...file,
  version: 3,
  categories: [],
});
/** A version-3 file as version 4: it held one user's whole account, which became their personal ledger. */
const upgradeV3 = (file: z.infer<typeof accountFileV3>): AccountFileV4 => ({
  ...file,
  version: 4,
  ledger: { name: 'Personal' },
});

/** A version-4 file as version 5: its schedules had fixed amounts and its invoices no estimates. */
const upgradeV4 = (file: AccountFileV4): AccountFileV5 => ({
  ...file,
  version: 5,
  schedules: file.schedules.map((s) => ({ ...s, amountMode: 'fixed' as const, averageOf: null })),
});

/** A version-5 file as version 6: it carried no attached files. */
const upgradeV5 = (file: AccountFileV5): AccountFile => ({ ...file, version: 6, attachments: [] });

/**
 * Any version this server has ever written, upgraded to the current one (6). A later version adds its schema here
 * and an upgrade from the one before, so old files keep importing.
 */
export const accountFile = z
  .looseObject({ format: z.literal(ACCOUNT_FILE_FORMAT, 'is not a Billfold account file'), version: z.number() })
  .pipe(
    z.discriminatedUnion(
      'version',
      [accountFileV1, accountFileV2, accountFileV3, accountFileV4, accountFileV5, accountFileV6],
      {
        error: `version must be 1, 2, 3, 4, 5 or 6 (this server reads account files up to version ${ACCOUNT_FILE_VERSION})`,
      },
    ),
  )
  .transform((file): AccountFile => {
    if (file.version === 1) return upgradeV5(upgradeV4(upgradeV3(upgradeV2(upgradeV1(file)))));
    if (file.version === 2) return upgradeV5(upgradeV4(upgradeV3(upgradeV2(file))));
    if (file.version === 3) return upgradeV5(upgradeV4(upgradeV3(file)));
    if (file.version === 4) return upgradeV5(upgradeV4(file));
    if (file.version === 5) return upgradeV5(file);
    return file;
  });

/** What `POST /account/import` answers: how many of each the file loaded. */
export const accountImportSummary = z.object({
  entities: z.number().int(),
  invoices: z.number().int(),
  payments: z.number().int(),
  schedules: z.number().int(),
  categories: z.number().int(),
  /** Attached files (version 6 on; 0 for older files). */
  attachments: z.number().int(),
});
export type AccountImportSummary = z.infer<typeof accountImportSummary>;
