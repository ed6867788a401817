import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';

export type DatabaseConfig = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  jwtSecret: string;
  logLevel: string;
  /** Folder of the built web app; served when it exists. */
  webRoot: string | null;
  /** Injected clock: tests move time, production reads the wall clock. */
  now: () => number;
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_ROOT: z.string().min(1).optional(),
});

function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

/** `postgres://` or `postgresql://` selects PostgreSQL; `sqlite:<path>` or a plain path selects SQLite. */
export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseConfig {
  if (!url) return { dialect: 'sqlite', file: join(dataDir, 'billfold.db') };
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  const file = url.replace(/^sqlite:(\/\/)?/i, '');
  return { dialect: 'sqlite', file: isAbsolute(file) ? file : resolve(file) };
}

/** The secret is generated once and kept in the data directory, so tokens survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
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

const defaultWebRoot = resolve(import.meta.dirname, '../../web/dist');

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
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    webRoot: e.WEB_ROOT ? resolve(e.WEB_ROOT) : defaultWebRoot,
    now: Date.now,
  };
}

export interface BackupConfig {
  database: DatabaseConfig;
  /** Where `npm run backup` writes its copies. */
  dir: string;
  /** How many copies it keeps; older ones are removed after each successful backup. */
  keep: number;
}

const backupEnvSchema = envSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).extend({
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
  };
}
