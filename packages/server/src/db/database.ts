import SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { startCheckpointer } from './checkpointer.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { SqliteReader } from './sqlite-reader.ts';

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig['dialect'];

// int8 and numeric (sums of cents) come back as JS numbers; cents stay below 2^53 for any real ledger.
pg.types.setTypeParser(20, Number);
pg.types.setTypeParser(1700, Number);

export interface DatabaseOptions {
  /** Called with each statement the connection runs (a test counts a request's round trips). */
  onStatement?: (sql: string) => void;
}

export function createDatabase(config: DatabaseConfig, options: DatabaseOptions = {}): Db {
  const { onStatement } = options;
  const log = onStatement
    ? (event: LogEvent) => {
        if (event.level === 'query') onStatement(event.query.sql);
      }
    : undefined;
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => {});
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  }
  const sqlite = new SQLite(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Planner statistics, sampled (a quarter second on a million invoices) and refreshed only when tables have
  // grown or shrunk a lot: without them SQLite guesses, and picks a date range over a category-and-date index.
  sqlite.pragma('analysis_limit = 10000');
  sqlite.pragma('optimize = 0x10002');
  // Checkpoints run on a thread of their own, never inside a commit on the event loop (db/checkpointer.ts).
  const checkpointer = sqlite.memory ? null : startCheckpointer(config.file);
  if (checkpointer) sqlite.pragma('wal_autocheckpoint = 0');
  const database = withStatementCache(sqlite);
  const reader = sqlite.memory ? null : new SqliteReader(config.file);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: {
        ...database,
        // Kysely does not wait for a close: `closeDatabase` waits for the threads' connections to end.
        close: () => {
          threadsClosing.set(
            db,
            Promise.all([checkpointer?.close(), reader?.close()]).then(() => undefined),
          );
          database.close();
        },
      },
    }),
    ...(log ? { log } : {}),
  });
  sqliteHandles.set(db, sqlite);
  if (reader) readers.set(db, reader);
  return db;
}

const readers = new WeakMap<Db, SqliteReader>();
/** A SQLite database's checkpointer and reader threads, closing their own connections once it is destroyed. */
const threadsClosing = new WeakMap<Db, Promise<void>>();

/**
 * Destroys the database and waits until every connection to it has ended, the SQLite threads' too: only then are its
 * files left alone (a test removes its directory next; a connection still closing would write its `-wal` there).
 */
export async function closeDatabase(db: Db): Promise<void> {
  await db.destroy();
  await threadsClosing.get(db);
}

/**
 * Runs a read that may take seconds on SQLite's reader thread (`SqliteReader`), off the event loop; on PostgreSQL (or
 * a SQLite database in memory) through the app's own connections. Takes a query builder or a raw `sql` query.
 */
export async function readAside<R>(db: Db, query: { compile: (db: Db) => CompiledQuery<R> }): Promise<R[]> {
  const reader = readers.get(db);
  const compiled = query.compile(db);
  return reader ? reader.all(compiled) : (await db.executeQuery(compiled)).rows;
}

const sqliteHandles = new WeakMap<Db, SQLite.Database>();

/**
 * The health route's check that the database answers. On PostgreSQL a `select 1` through the pool. On SQLite every
 * query of the app shares one connection, which a long write transaction holds (a CSV commit, an account import:
 * ADR 0903), so a probe queued behind it would report the queue, not the database: the probe checks that the
 * app's connection is open and reads through a read-only connection of its own (WAL lets it read beside the
 * writer). docs/decisions/0706-limits-and-fairness.md.
 */
export function databaseProbe(config: DatabaseConfig, db: Db): { check: () => Promise<void>; close: () => void } {
  const main = sqliteHandles.get(db);
  if (config.dialect === 'postgres' || !main) {
    return { check: async () => void (await sql`select 1`.execute(db)), close: () => {} };
  }
  let own: SQLite.Database | null = null;
  return {
    check: async () => {
      if (!main.open) throw new Error('the database connection is closed');
      own ??= new SQLite(config.file, { readonly: true, fileMustExist: true });
      own.prepare('select 1').get();
    },
    close: () => own?.close(),
  };
}

/** A consistent, read-only view of the database for a long read, and how to let go of it. */
export interface Snapshot {
  /** Reads through it see the database as it was at its first read, whatever is written meanwhile. */
  db: Db;
  /** Ends the read (idempotent). */
  close: () => Promise<void>;
}

/**
 * A snapshot for a read that outlasts many turns of the event loop (the account export of a large ledger: ADR 0706)
 * without holding what other requests need. On PostgreSQL a `REPEATABLE READ READ ONLY` transaction on a connection
 * of the pool. On SQLite a read transaction on a read-only connection of its own: WAL keeps the pages of its first
 * read's moment for it while the app's one connection goes on writing, so other requests never wait for it. (The
 * WAL file cannot be checkpointed past that moment until the read ends; it grows by what is written meanwhile.) A
 * database in memory has no second connection: the read holds the app's connection, as any transaction does.
 */
export async function openSnapshot(db: Db): Promise<Snapshot> {
  const main = sqliteHandles.get(db);
  let own: Db | null = null;
  let trx: Awaited<ReturnType<ReturnType<Db['startTransaction']>['execute']>>;
  if (main && !main.memory) {
    const reader = new SQLite(main.name, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    own = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(reader) }) });
    trx = await own.startTransaction().execute();
  } else if (main) {
    trx = await db.startTransaction().execute();
  } else {
    trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  }
  let closed: Promise<void> | null = null;
  return {
    db: trx,
    close: () => {
      closed ??= (async () => {
        try {
          await trx.rollback().execute();
        } finally {
          await own?.destroy();
        }
      })();
      return closed;
    },
  };
}

/** Distinct statements kept prepared: the app compiles a few hundred shapes; more only evicts the oldest. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement it runs; preparing costs as much as running a small query
 * (a quarter of a list request's SQL time). The same SQL text gets the same prepared statement back. Safe on
 * one connection: better-sqlite3 runs a statement to completion before the next one starts (`iterate`, the
 * one exception, is only used by Kysely's `stream`, which holds the connection until it is done).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text); // re-inserted below: the Map's order is least recently used first
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

export function isSqlite(db: Db): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  // SQLite has no migration lock: a process racing another one sees the other's work as a conflict, so it
  // waits and tries again, finding the migrations applied (or failing for a real reason).
  for (let attempt = 1; ; attempt++) {
    const { error } = await migrator.migrateToLatest();
    if (!error) return;
    if (attempt === 5) throw error;
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}
