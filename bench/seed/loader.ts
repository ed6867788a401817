import type { GenBill, GenEntry, GenPayment } from './generate.ts';

/** A user row as the server stores it (the hash comes from the server's own `hashPassword`). */
export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  createdAt: number;
  lastLogin: number;
  lastInvoiceNumber: number;
}

/** A seeded account: the user and their personal ledger, which holds their data (docs/decisions/0107-ledgers.md). */
export interface SeededAccount {
  userId: number;
  ledgerId: number;
}

export interface TableCounts {
  users: number;
  bills: number;
  entries: number;
  payments: number;
}

export interface NextIds {
  bill: number;
  entry: number;
  payment: number;
}

/**
 * Bulk writer for one dialect. The seeder calls `prepare` once, then inserts users, bills and batches of
 * entries with their payments, then `finish` (rebuild the indexes dropped by `prepare`, refresh planner
 * statistics, reset sequences).
 */
export interface Loader {
  counts(): Promise<TableCounts>;
  takenUsernames(): Promise<Set<string>>;
  nextIds(): Promise<NextIds>;
  /** Drops the secondary indexes of entries and payments (rebuilt by `finish`): a bulk load then only appends. */
  prepare(): Promise<void>;
  /** The user, their personal ledger (holding the invoice counter) and its owner membership, as sign-up makes them. */
  insertUser(user: NewUser): Promise<SeededAccount>;
  insertBills(ledgerId: number, bills: GenBill[]): Promise<void>;
  insertBatch(ledgerId: number, entries: GenEntry[], payments: GenPayment[]): Promise<void>;
  /** Plain rows into any table (the rollups summed by the seeder). */
  insertTable(table: string, columns: readonly string[], rows: (string | number | null)[][]): Promise<void>;
  finish(onStep?: (step: string, done: number, total: number) => void): Promise<void>;
  close(): Promise<void>;
}

export const USER_COLUMNS = [
  'username',
  'username_key',
  'email',
  'email_key',
  'password_hash',
  'role',
  'mfa_enabled',
  'created_at',
  'last_login',
  'deactivated_at',
] as const;

export function userValues(u: NewUser): (string | number | null)[] {
  return [
    u.username,
    u.username.toLowerCase(),
    u.email,
    u.email.toLowerCase(),
    u.passwordHash,
    'ROLE_USER',
    0,
    u.createdAt,
    u.lastLogin,
    null,
  ];
}

/** The personal ledger's row: named as sign-up names it, with the user's invoice counter. */
export const LEDGER_COLUMNS = ['name', 'personal_user_id', 'created_at', 'last_invoice_number'] as const;

export function ledgerValues(userId: number, u: NewUser): (string | number)[] {
  return ['Personal', userId, u.createdAt, u.lastInvoiceNumber];
}

export const MEMBER_COLUMNS = ['ledger_id', 'user_id', 'role', 'joined_at'] as const;

export const BILL_COLUMNS = [
  'id',
  'ledger_id',
  'name',
  'name_key',
  'category',
  'internal',
  'status',
  'recycled_at',
  'created_at',
] as const;

export function billValues(ledgerId: number, b: GenBill): (string | number | null)[] {
  return [
    b.id,
    ledgerId,
    b.name,
    b.nameKey,
    b.category,
    b.internal ? 1 : 0,
    b.archived ? 0 : 1,
    b.recycledAt,
    b.createdAt,
  ];
}

export const ENTRY_COLUMNS = [
  'id',
  'ledger_id',
  'bill_id',
  'invoice_number',
  'date',
  'flow',
  'amount_cents',
  'services',
  'due_date',
  'paid_cents',
  'balance_cents',
  'pay_state',
  'payment_count',
  'bill_name',
  'bill_name_key',
  'category',
  'internal',
  'archived',
  'recycled_at',
  'recycled_cascade',
  'created_at',
] as const;

export function entryValues(ledgerId: number, e: GenEntry): (string | number | null)[] {
  return [
    e.id,
    ledgerId,
    e.bill.id,
    e.invoiceNumber,
    e.date,
    e.flow,
    e.amountCents,
    e.services,
    e.dueDate,
    e.paidCents,
    e.balanceCents,
    e.payState,
    e.paymentCount,
    e.bill.name,
    e.bill.nameKey,
    e.bill.category,
    e.bill.internal ? 1 : 0,
    e.bill.archived ? 1 : 0,
    e.recycledAt,
    e.recycledCascade,
    e.createdAt,
  ];
}

export const PAYMENT_COLUMNS = [
  'id',
  'ledger_id',
  'entry_id',
  'date',
  'amount_cents',
  'type',
  'medium',
  'notes',
  'autopay',
  'recycled_at',
  'recycled_cascade',
  'created_at',
] as const;

export function paymentValues(ledgerId: number, p: GenPayment): (string | number | null)[] {
  return [
    p.id,
    ledgerId,
    p.entryId,
    p.date,
    p.amountCents,
    p.type,
    p.medium,
    p.notes,
    p.autopay,
    p.recycledAt,
    p.recycledCascade,
    p.createdAt,
  ];
}
