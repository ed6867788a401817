/**
 * The whole-account file: everything one user owns (entities, invoices, payments, and which of them sit in the
 * recycle bin), exported as one JSON document and imported into an empty account on any Billfold server.
 * Objects refer to each other by `ref`, numbers local to the file (1, 2, 3… in creation order), never by database
 * ids, so export → import → export gives the same file on any server. Money is a decimal string ("1234.50"),
 * instants are ISO 8601 UTC with milliseconds. Every version ever written keeps importing: the parser
 * (`accountFile`) upgrades an older version step by step to the current one (docs/decisions/0901-account-file.md).
 */
import { z } from 'zod';
import { CATEGORIES } from './categories.ts';
import { MAX_CENTS, toCents } from './money.ts';
import { PAYMENT_METHOD_CODES } from './payment-methods.ts';
import { isoDate, text } from './schemas.ts';

export const ACCOUNT_FILE_FORMAT = 'billfold-account';
export const ACCOUNT_FILE_VERSION = 1;

const ref = z.number().int().positive();
const instant = z.iso.datetime({ precision: 3 });
const money = z.string().refine((v) => /^\d{1,9}\.\d{2}$/.test(v) && (toCents(v) ?? MAX_CENTS + 1) <= MAX_CENTS, {
  message: 'must be an amount like "1234.50" between 0.00 and 999999999.99',
});
const deleted = instant.nullable();

const entityV1 = z.object({
  ref,
  name: text(100).pipe(z.string().min(1, 'must not be empty')),
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

export const accountFileV1 = z
  .object({
    format: z.literal(ACCOUNT_FILE_FORMAT),
    version: z.literal(1),
    exportedAt: instant,
    /** The highest invoice number the account ever issued; numbers are never reused, even after a purge. */
    lastInvoiceNumber: z.number().int().min(0),
    entities: z.array(entityV1).refine(uniqueRefs, 'refs must be unique'),
    invoices: z.array(invoiceV1).refine(uniqueRefs, 'refs must be unique'),
    payments: z.array(paymentV1).refine(uniqueRefs, 'refs must be unique'),
  })
  .superRefine((file, ctx) => {
    const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
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
  });

export type AccountFile = z.infer<typeof accountFileV1>;
export type AccountFileEntity = AccountFile['entities'][number];
export type AccountFileInvoice = AccountFile['invoices'][number];
export type AccountFilePayment = AccountFile['payments'][number];

/**
 * Any version this server has ever written, upgraded to the current one. Version 1 is the current version; a
 * later version adds its schema here and an `upgrade` from the one before, so old files keep importing.
 */
export const accountFile = z
  .looseObject({ format: z.literal(ACCOUNT_FILE_FORMAT, 'is not a Billfold account file'), version: z.number() })
  .pipe(
    z.discriminatedUnion('version', [accountFileV1], {
      error: `version must be 1 (this server reads account files up to version ${ACCOUNT_FILE_VERSION})`,
    }),
  );
