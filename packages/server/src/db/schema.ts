import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Booleans are 0/1 integers and instants are epoch milliseconds in both dialects, so one
 * query serves SQLite and PostgreSQL. Money columns hold integer cents.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  email: string;
  email_key: string;
  password_hash: string;
  role: Generated<string>;
  mfa_enabled: Generated<number>;
  /** The TOTP secret, sealed by `SecretBox`; set while MFA is on. */
  mfa_secret: string | null;
  /** A secret shown during set-up and not yet confirmed with a code. */
  mfa_pending_secret: string | null;
  /** The last TOTP time step whose code was accepted: only later steps are accepted after it (no replay). */
  mfa_last_step: Generated<number>;
  created_at: number;
  last_login: number | null;
  deactivated_at: number | null;
  /** Highest invoice number ever issued; incremented under the row lock, never reused. */
  last_invoice_number: Generated<number>;
  /** Carried by every access token; incremented by a password change or deactivation to cut off older tokens. */
  token_version: Generated<number>;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

/**
 * Throttle events, one row per counted attempt under a key: failed logins per account and per address, and
 * sign-ups and refreshes per address (`modules/auth/throttle.ts`).
 */
export interface LoginFailuresTable {
  id: Generated<number>;
  key: string;
  at: number;
}

/** One-time recovery codes, stored as keyed hashes (`SecretBox.digest`). */
export interface MfaRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

/** Between a sign-in's password step and its code step: an opaque token, stored hashed, single use. */
export interface MfaChallengesTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
}

export interface BillsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  name_key: string;
  category: string;
  internal: number;
  status: number;
  recycled_at: number | null;
  created_at: number;
  /** The CSV import that created it (undone together), or null. */
  import_id: number | null;
}

/**
 * An invoice. Entity columns (name, category, internal, archived) are copied in so that every list filter
 * and sort is answered by one table's indexes; payment totals are kept in the same transaction as every
 * payment change so lists never aggregate payments.
 */
export interface EntriesTable {
  id: Generated<number>;
  user_id: number;
  bill_id: number;
  invoice_number: number;
  date: string;
  flow: string;
  amount_cents: number;
  services: string;
  paid_cents: Generated<number>;
  balance_cents: number;
  /** 0 unpaid, 1 partial (payments but not paid), 2 paid, 3 overpaid. */
  pay_state: number;
  payment_count: Generated<number>;
  bill_name: string;
  bill_name_key: string;
  category: string;
  internal: number;
  archived: number;
  recycled_at: number | null;
  /** 1 when deleted together with its entity, so restoring the entity brings it back. */
  recycled_cascade: Generated<number>;
  created_at: number;
  /** The CSV import that wrote it (undone together), or null. */
  import_id: number | null;
}

export interface PaymentsTable {
  id: Generated<number>;
  user_id: number;
  entry_id: number;
  date: string;
  amount_cents: number;
  type: string;
  medium: string;
  notes: string;
  autopay: number;
  recycled_at: number | null;
  /** 1 when deleted together with its invoice. */
  recycled_cascade: Generated<number>;
  created_at: number;
}

/** Grows with every write to a user's invoices (triggers of migration `2026-11-25T00-00_data_versions`). */
export interface UserDataVersionsTable {
  user_id: number;
  version: number;
}

/** One committed CSV import; `undone_at` once it was undone (its rows went to the recycle bin). */
export interface ImportsTable {
  id: Generated<number>;
  user_id: number;
  file_name: string;
  created_at: number;
  invoice_count: number;
  payment_count: number;
  entity_count: number;
  skipped_count: number;
  undone_at: number | null;
}

export interface Database {
  users: UsersTable;
  user_data_versions: UserDataVersionsTable;
  refresh_tokens: RefreshTokensTable;
  login_failures: LoginFailuresTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  bills: BillsTable;
  entries: EntriesTable;
  payments: PaymentsTable;
  imports: ImportsTable;
}

export type UserRow = Selectable<UsersTable>;
export type BillRow = Selectable<BillsTable>;
export type EntryRow = Selectable<EntriesTable>;
export type NewEntry = Insertable<EntriesTable>;
export type EntryUpdate = Updateable<EntriesTable>;
export type PaymentRow = Selectable<PaymentsTable>;
