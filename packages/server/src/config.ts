import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './lib/file-store.ts';
import type { LogFormat } from './lib/logger.ts';
import type { MailConfig } from './lib/mailer.ts';

/** The forms of Fastify's `trustProxy` that an environment variable can express. */
export type TrustProxy = boolean | number | string[];

export type DatabaseConfig = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  jwtSecret: string;
  /** Key text that encrypts MFA secrets and keys the recovery-code hashes. */
  mfaKey: string;
  logLevel: string;
  /** `LOG_FORMAT`: readable lines, JSON, or `auto` (readable on a terminal); absent is `auto` (lib/logger.ts). */
  logFormat?: LogFormat;
  /** Seconds a SIGTERM waits for in-flight requests and jobs before the process ends anyway (main.ts). */
  shutdownTimeoutSeconds?: number;
  /** Which proxies' `X-Forwarded-For` decides the client address (Fastify's `trustProxy`); false trusts none. */
  trustProxy: TrustProxy;
  /** Seconds after its first use within which a refresh token may be presented again without revoking its family. */
  refreshReuseSeconds: number;
  /** Memory for the users' ledger indexes in MiB; 0 answers every read from SQL (docs/decisions/0405-ledger-index.md). */
  ledgerIndexMb: number;
  /**
   * Where the indexes of large ledgers are saved to be read back at the next start (docs/decisions/0407-saved-ledger-index.md);
   * absent: `dataDir/ledger-indexes`; null: never saved.
   */
  ledgerIndexDir?: string | null;
  /** Folder of the built web app; served when it exists. */
  webRoot: string | null;
  /** Injected clock: tests move time, production reads the wall clock. */
  now: () => number;
  /** SMTP for the e-mail reminders; null (or absent) when `SMTP_URL` and `MAIL_FROM` are not both set. */
  mail?: MailConfig | null;
  /** The reminders' daily digest goes out from this hour (UTC) on; 7 when absent. */
  reminderHourUtc?: number | null;
  /** The app's public address (`https://bills.example.com`) for links in e-mails and the calendar feed. */
  publicUrl?: string | null;
  /** Size, shape and fairness limits; absent ones take `DEFAULT_LIMITS`. */
  limits?: Partial<Limits>;
  /** Sign-in with an OpenID Connect provider; null (or absent) when `OIDC_ISSUER` is not set. */
  oidc?: OidcConfig | null;
  /** Username/password sign-in and sign-up (`PASSWORD_LOGIN`); true when absent. */
  passwordLogin?: boolean;
  /** Where attachment files are kept; absent: the disk under `dataDir/attachments` (lib/file-store.ts). */
  attachments?: AttachmentsConfig;
  /**
   * Notification channels may reach private, loopback and link-local addresses (`NOTIFY_ALLOW_PRIVATE`); false when
   * absent (docs/decisions/1153-outbound-addresses.md).
   */
  notifyAllowPrivate?: boolean;
  /** The deadline of one notification request in seconds (`NOTIFY_TIMEOUT_SECONDS`); 10 when absent. */
  notifyTimeoutSeconds?: number;
  /**
   * A recurring bill's new amount up by more than this percent of the previous one is a `price_increase` event
   * (`PRICE_INCREASE_PERCENT`, docs/decisions/0215-price-increase-event.md); 10 when absent.
   */
  priceIncreasePercent?: number;
}

/** The price increase threshold when `PRICE_INCREASE_PERCENT` is not set. */
export const DEFAULT_PRICE_INCREASE_PERCENT = 10;

/** A notification request's deadline when `NOTIFY_TIMEOUT_SECONDS` is not set. */
export const DEFAULT_NOTIFY_TIMEOUT_SECONDS = 10;

// ---- Sign-in with an identity provider (docs/decisions/0722-openid-connect-sign-in.md) ----

export interface OidcConfig {
  /** The provider's issuer URL (`OIDC_ISSUER`); its discovery document is read from there. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the login page's button says: "Sign in with <name>" (`OIDC_NAME`). */
  name: string;
  /** Whether someone without an account may make one by signing in at the provider (`OIDC_SIGNUP`). */
  signup: boolean;
  /** Whether a first provider sign-in may take over the account of the same, provider-verified address (`OIDC_MATCH_EMAIL`). */
  matchEmail: boolean;
  /** `PUBLIC_URL` + `/api/v1/auth/oidc/callback`: register it at the provider. */
  redirectUri: string;
  /** The web app's address, where the callback sends the browser. */
  appUrl: string;
}

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''], { message: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An issuer must be https, except on this machine (a provider started beside the app, as the tests do). */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'OIDC_ISSUER must be a URL';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'OIDC_ISSUER must be an https:// address (http:// only on 127.0.0.1 or localhost)';
}

const oidcEnvSchema = z.object({
  OIDC_ISSUER: z.string().trim().min(1).optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(40).optional(),
  OIDC_SIGNUP: flag(false),
  OIDC_MATCH_EMAIL: flag(false),
  PASSWORD_LOGIN: flag(true),
});

function oidcOf(e: z.output<typeof oidcEnvSchema>, publicUrl: string | undefined): OidcConfig | null {
  if (!e.OIDC_ISSUER) {
    if (!e.PASSWORD_LOGIN)
      throw new Error('Invalid configuration: PASSWORD_LOGIN=false needs OIDC_ISSUER, or nobody can sign in');
    return null;
  }
  const problems = [
    issuerProblem(e.OIDC_ISSUER),
    e.OIDC_CLIENT_ID ? null : 'OIDC_CLIENT_ID is required with OIDC_ISSUER',
    e.OIDC_CLIENT_SECRET ? null : 'OIDC_CLIENT_SECRET is required with OIDC_ISSUER',
    publicUrl ? null : 'PUBLIC_URL is required with OIDC_ISSUER (the provider sends the browser back to it)',
  ].filter((p) => p !== null);
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID ?? '',
    clientSecret: e.OIDC_CLIENT_SECRET ?? '',
    name: e.OIDC_NAME ?? new URL(e.OIDC_ISSUER).hostname,
    signup: e.OIDC_SIGNUP,
    matchEmail: e.OIDC_MATCH_EMAIL,
    redirectUri: `${publicUrl}/api/v1/auth/oidc/callback`,
    appUrl: publicUrl ?? '',
  };
}

// ---- end of identity provider ----

// ---- Attachments (docs/decisions/1140-attachment-storage.md) ----

export interface AttachmentsConfig {
  /** Local folder: the files themselves when no S3 store is set, else only uploads in progress (`ATTACHMENTS_DIR`). */
  dir: string;
  /** An S3-compatible store (`S3_URL`, `S3_BUCKET`, …); null keeps the files on local disk. */
  s3: S3Settings | null;
}

const s3EnvSchema = z.object({
  ATTACHMENTS_DIR: z.string().min(1).optional(),
  S3_URL: z.url({ protocol: /^https?$/, message: 'S3_URL must be an http:// or https:// address' }).optional(),
  S3_BUCKET: z.string().trim().min(1).optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "S3_PREFIX may hold letters, digits and !_.*'()/- only")
    .default('attachments/'),
  S3_FORCE_PATH_STYLE: flag(true),
});

function attachmentsOf(e: z.output<typeof s3EnvSchema>, dataDir: string): AttachmentsConfig {
  const dir = e.ATTACHMENTS_DIR ? resolve(e.ATTACHMENTS_DIR) : join(dataDir, 'attachments');
  if (!e.S3_URL) {
    if (e.S3_BUCKET) throw new Error('Invalid configuration: S3_BUCKET needs S3_URL');
    return { dir, s3: null };
  }
  const problems = [
    e.S3_BUCKET ? null : 'S3_BUCKET is required with S3_URL',
    e.S3_ACCESS_KEY_ID ? null : 'S3_ACCESS_KEY_ID is required with S3_URL',
    e.S3_SECRET_ACCESS_KEY ? null : 'S3_SECRET_ACCESS_KEY is required with S3_URL',
  ].filter((p) => p !== null);
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return {
    dir,
    s3: {
      url: e.S3_URL,
      bucket: e.S3_BUCKET ?? '',
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
      prefix: e.S3_PREFIX,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    },
  };
}

// ---- end of attachments ----

// ---- Limits and fairness (docs/security.md, Limits; docs/decisions/0706-limits-and-fairness.md) ----

/** Every size, shape and fairness limit of the API: each refused with its own code (contract/error-codes.ts). */
export interface Limits {
  /** Bytes of a JSON body on every route but the account file (`LIMIT_JSON_BODY_BYTES`, 413 BODY_TOO_LARGE). */
  jsonBodyBytes: number;
  /** Bytes of the CSV file of an import or preview (`LIMIT_CSV_BYTES`, 413 BODY_TOO_LARGE). */
  csvBytes: number;
  /** Bytes of an account file (`LIMIT_ACCOUNT_FILE_BYTES`, 413 BODY_TOO_LARGE). */
  accountFileBytes: number;
  /** Columns of a CSV row, the header's included (`LIMIT_CSV_COLUMNS`, 400 TOO_MANY_COLUMNS). */
  csvColumns: number;
  /** Characters of one CSV field (`LIMIT_CSV_FIELD_CHARS`, 400 FIELD_TOO_LONG). */
  csvFieldChars: number;
  /** Data rows of one CSV import (`LIMIT_IMPORT_ROWS`, 400 TOO_MANY_ROWS). */
  importRows: number;
  /** Heavy requests (imports, previews, exports, account files, stats) one user may run at once (`LIMIT_HEAVY_PER_USER`, 429 BUSY). */
  heavyPerUser: number;
  /** Requests one signed-in user may make per minute on one process; 0 turns it off (`LIMIT_REQUESTS_PER_MINUTE`, 429 RATE_LIMITED). */
  requestsPerMinute: number;
  // Ledger invitations (docs/decisions/0107-ledgers.md): counted in the database, so across processes.
  /** Invitations one user may make in 15 minutes (`LIMIT_INVITATIONS`, 429 INVITATIONS_THROTTLED). */
  invitations: number;
  /**
   * Unusable invitation links (unknown, expired, used, revoked) one user, and one client address, may try in
   * 15 minutes, previews and accepts together (`LIMIT_INVITATION_ATTEMPTS`, 429 INVITATIONS_THROTTLED).
   */
  invitationAttempts: number;
  /** Bytes of one attachment file (`LIMIT_ATTACHMENT_BYTES`, 413 BODY_TOO_LARGE). */
  attachmentBytes: number;
  /** Bytes of all attachments of one ledger, those in the recycle bin included (`LIMIT_LEDGER_ATTACHMENT_BYTES`, 413 ATTACHMENT_QUOTA_EXCEEDED). */
  ledgerAttachmentBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  jsonBodyBytes: 256 * 1024,
  csvBytes: 16 * 1024 * 1024,
  accountFileBytes: 128 * 1024 * 1024,
  csvColumns: 200,
  csvFieldChars: 10_000,
  importRows: 100_000,
  heavyPerUser: 2,
  requestsPerMinute: 6_000,
  invitations: 20,
  invitationAttempts: 20,
  attachmentBytes: 20 * 1024 * 1024,
  ledgerAttachmentBytes: 1024 * 1024 * 1024,
};

const limit = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** The `LIMIT_*` settings, one per field of `Limits`. */
const limitsEnvSchema = z.object({
  LIMIT_JSON_BODY_BYTES: limit(1024, 64 * 1024 * 1024, DEFAULT_LIMITS.jsonBodyBytes),
  LIMIT_CSV_BYTES: limit(1024, 1024 * 1024 * 1024, DEFAULT_LIMITS.csvBytes),
  LIMIT_ACCOUNT_FILE_BYTES: limit(1024, 1024 * 1024 * 1024, DEFAULT_LIMITS.accountFileBytes),
  LIMIT_CSV_COLUMNS: limit(2, 100_000, DEFAULT_LIMITS.csvColumns),
  LIMIT_CSV_FIELD_CHARS: limit(1, 100_000_000, DEFAULT_LIMITS.csvFieldChars),
  LIMIT_IMPORT_ROWS: limit(1, 10_000_000, DEFAULT_LIMITS.importRows),
  LIMIT_HEAVY_PER_USER: limit(1, 1000, DEFAULT_LIMITS.heavyPerUser),
  LIMIT_REQUESTS_PER_MINUTE: limit(0, 10_000_000, DEFAULT_LIMITS.requestsPerMinute),
  LIMIT_INVITATIONS: limit(1, 100_000, DEFAULT_LIMITS.invitations),
  LIMIT_INVITATION_ATTEMPTS: limit(1, 100_000, DEFAULT_LIMITS.invitationAttempts),
  LIMIT_ATTACHMENT_BYTES: limit(1024, 1024 * 1024 * 1024, DEFAULT_LIMITS.attachmentBytes),
  LIMIT_LEDGER_ATTACHMENT_BYTES: limit(1024, 1024 ** 4, DEFAULT_LIMITS.ledgerAttachmentBytes),
});

function limitsOf(e: z.output<typeof limitsEnvSchema>): Limits {
  return {
    jsonBodyBytes: e.LIMIT_JSON_BODY_BYTES,
    csvBytes: e.LIMIT_CSV_BYTES,
    accountFileBytes: e.LIMIT_ACCOUNT_FILE_BYTES,
    csvColumns: e.LIMIT_CSV_COLUMNS,
    csvFieldChars: e.LIMIT_CSV_FIELD_CHARS,
    importRows: e.LIMIT_IMPORT_ROWS,
    heavyPerUser: e.LIMIT_HEAVY_PER_USER,
    requestsPerMinute: e.LIMIT_REQUESTS_PER_MINUTE,
    invitations: e.LIMIT_INVITATIONS,
    invitationAttempts: e.LIMIT_INVITATION_ATTEMPTS,
    attachmentBytes: e.LIMIT_ATTACHMENT_BYTES,
    ledgerAttachmentBytes: e.LIMIT_LEDGER_ATTACHMENT_BYTES,
  };
}

/** A config's limits with every absent one at its default. */
export function resolvedLimits(config: Pick<Config, 'limits'>): Limits {
  return { ...DEFAULT_LIMITS, ...config.limits };
}

// ---- end of limits ----

const envSchema = limitsEnvSchema
  .extend(oidcEnvSchema.shape)
  .extend(s3EnvSchema.shape)
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.string().min(1).optional(),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    MFA_KEY: z.string().min(32, 'MFA_KEY must be at least 32 characters').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
    WEB_ROOT: z.string().min(1).optional(),
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if (typeof parsed !== 'string') return parsed;
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }),
    REFRESH_REUSE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    LEDGER_INDEX_MB: z.coerce.number().int().min(0).max(1_048_576).default(512),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/i, 'SMTP_URL must be an smtp:// or smtps:// address')
      .optional(),
    MAIL_FROM: z.string().min(3).optional(),
    REMINDER_HOUR: z.coerce.number().int().min(0).max(23).optional(),
    NOTIFY_ALLOW_PRIVATE: flag(false),
    NOTIFY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(DEFAULT_NOTIFY_TIMEOUT_SECONDS),
    PRICE_INCREASE_PERCENT: z.coerce.number().int().min(0).max(1000).default(DEFAULT_PRICE_INCREASE_PERCENT),
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, message: 'PUBLIC_URL must be an http:// or https:// address' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
  });

function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

/** Named address ranges Fastify's `trustProxy` understands besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const width = Number(bits);
  return /^\d+$/.test(bits) ? width <= (version === 4 ? 32 : 128) : isIP(bits) === version;
}

/**
 * `TRUST_PROXY`: unset or empty trusts no proxy (the socket's address is the client's); `true`/`false`; a hop
 * count; or a comma-separated list of proxy addresses, CIDRs or range names. Returns the problem as a string.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy | string {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length > 0) {
    return `TRUST_PROXY must be true, a hop count, or a comma-separated list of addresses or CIDRs (not ${bad.join(', ')})`;
  }
  return entries;
}

/** `postgres://` or `postgresql://` selects PostgreSQL; `sqlite:<path>` or a plain path selects SQLite. */
export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseConfig {
  if (!url) return { dialect: 'sqlite', file: join(dataDir, 'billfold.db') };
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  const file = url.replace(/^sqlite:(\/\/)?/i, '');
  return { dialect: 'sqlite', file: isAbsolute(file) ? file : resolve(file) };
}

/** A secret generated once and kept in the data directory, so tokens and encrypted data survive restarts. */
function loadOrCreateSecret(dataDir: string, name: 'jwt-secret' | 'mfa-key'): string {
  const file = join(dataDir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch {
      // another process wrote it first; read theirs below
    }
    return readFileSync(file, 'utf8').trim();
  }
}

/**
 * The server package's folder, found upwards from this module: `src/` when run from source, `builds/<id>/` when
 * compiled (scripts/build.mjs).
 */
function serverPackageDir(): string {
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === '@billfold/server') return dir;
    } catch {
      // no package.json here
    }
  }
  return resolve(import.meta.dirname, '..');
}

/** The web app's current build (`packages/web/dist`, a link the build switches: docs/decisions/0904-compiled-start.md). */
const defaultWebRoot = join(serverPackageDir(), '../web/dist');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnv(envSchema, env);
  const dataDir = resolve(e.DATA_DIR);
  const database = parseDatabaseUrl(e.DATABASE_URL, dataDir);
  if (database.dialect === 'sqlite') mkdirSync(resolve(database.file, '..'), { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir, 'jwt-secret'),
    mfaKey: e.MFA_KEY ?? loadOrCreateSecret(dataDir, 'mfa-key'),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    trustProxy: e.TRUST_PROXY,
    refreshReuseSeconds: e.REFRESH_REUSE_SECONDS,
    ledgerIndexMb: e.LEDGER_INDEX_MB,
    webRoot: e.WEB_ROOT ? resolve(e.WEB_ROOT) : defaultWebRoot,
    now: Date.now,
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : null,
    reminderHourUtc: e.REMINDER_HOUR ?? null,
    publicUrl: e.PUBLIC_URL ?? null,
    limits: limitsOf(e),
    oidc: oidcOf(e, e.PUBLIC_URL),
    passwordLogin: e.PASSWORD_LOGIN,
    attachments: attachmentsOf(e, dataDir),
    notifyAllowPrivate: e.NOTIFY_ALLOW_PRIVATE,
    notifyTimeoutSeconds: e.NOTIFY_TIMEOUT_SECONDS,
    priceIncreasePercent: e.PRICE_INCREASE_PERCENT,
  };
}

export interface BackupConfig {
  database: DatabaseConfig;
  /** Where `npm run backup` writes its copies. */
  dir: string;
  /** How many copies it keeps; older ones are removed after each successful backup. */
  keep: number;
  /** The server's attachment store, whose files each copy carries (docs/decisions/1144-backups-carry-files.md). */
  attachments: AttachmentsConfig;
}

const backupEnvSchema = envSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).extend({
  ...s3EnvSchema.shape,
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1, 'BACKUP_KEEP must be at least 1').default(7),
});

/** The backup command's settings: the server's database, and `DATA_DIR/backups` keeping the last 7 by default. */
export function loadBackupConfig(env: NodeJS.ProcessEnv = process.env): BackupConfig {
  const e = parseEnv(backupEnvSchema, env);
  const dataDir = resolve(e.DATA_DIR);
  return {
    database: parseDatabaseUrl(e.DATABASE_URL, dataDir),
    dir: e.BACKUP_DIR ? resolve(e.BACKUP_DIR) : join(dataDir, 'backups'),
    keep: e.BACKUP_KEEP,
    attachments: attachmentsOf(e, dataDir),
  };
}
