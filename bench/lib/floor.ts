import { parse as parseQueryString } from 'node:querystring';
import { entriesQuery, statsQuery } from '@billfold/contract/entries';
import SQLite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../../packages/server/src/config.ts';
import type { Database } from '../../packages/server/src/db/schema.ts';
import { EntriesListService } from '../../packages/server/src/modules/entries/entries-list.service.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS } from '../../packages/server/src/modules/read-model/ledger-indexes.ts';
import { ReadModelRepository } from '../../packages/server/src/modules/read-model/read-model.repository.ts';

import { StatsService } from '../../packages/server/src/modules/stats/stats.service.ts';
import { median } from './load.ts';

/**
 * The database floor: the SQL the server runs for one request, captured by running the server's own
 * service and repository code against a logging Kysely instance (so it is the same SQL, by construction),
 * then replayed directly on the driver — better-sqlite3 prepared statements, or `pg` with the server's
 * concurrency (its services issue the list's count and page queries at once, on two pooled connections).
 */

export interface CapturedQuery {
  sql: string;
  parameters: readonly unknown[];
}

export type RequestKind = 'list' | 'stats';

function loggingDb(config: DatabaseConfig, captured: CapturedQuery[]): Kysely<Database> {
  const log = (event: LogEvent) => {
    if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
  };
  if (config.dialect === 'sqlite') {
    return new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(config.file, { readonly: true }) }),
      log,
    });
  }
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: config.url }) }),
    log,
  });
}

/** Query string → the object Fastify hands to the route schema (repeated keys become arrays). */
function queryObject(query: string): Record<string, unknown> {
  return { ...parseQueryString(query) };
}

/** The SQL statements the server executes for `GET /entries?<query>` or `GET /entries/stats?<query>`. */
export async function captureRequestSql(
  config: DatabaseConfig,
  kind: RequestKind,
  ledgerId: number,
  query: string,
): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const db = loggingDb(config, captured);
  // The SQL plan's statements (ADR 0404): the ledger index off, as the server runs while it loads.
  const repo = new ReadModelRepository(db, { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 } });
  try {
    if (kind === 'list') {
      await new EntriesListService(repo, Date.now).list({ id: ledgerId }, entriesQuery.parse(queryObject(query)));
    } else {
      await new StatsService(repo, Date.now).stats({ id: ledgerId }, statsQuery.parse(queryObject(query)));
    }
  } finally {
    await db.destroy();
  }
  return captured;
}

export interface FloorTiming {
  /** Median wall time of all the request's statements, milliseconds. */
  ms: number;
  iterations: number;
  statements: number;
}

/** Replays the statements on the raw driver: a warm-up, then `iterations` timed rounds (or until `maxMs`). */
export async function timeFloor(
  config: DatabaseConfig,
  queries: CapturedQuery[],
  iterations = 50,
  maxMs = 8_000,
): Promise<FloorTiming> {
  const times: number[] = [];
  if (config.dialect === 'sqlite') {
    const db = new SQLite(config.file, { readonly: true });
    try {
      const statements = queries.map((q) => ({ stmt: db.prepare(q.sql), params: q.parameters as unknown[] }));
      const round = () => {
        const start = performance.now();
        for (const { stmt, params } of statements) stmt.all(...params);
        return performance.now() - start;
      };
      round();
      const deadline = performance.now() + maxMs;
      while (times.length < iterations && (times.length < 5 || performance.now() < deadline)) times.push(round());
    } finally {
      db.close();
    }
  } else {
    const pool = new pg.Pool({ connectionString: config.url, max: Math.max(2, queries.length) });
    try {
      const round = async () => {
        const start = performance.now();
        await Promise.all(queries.map((q) => pool.query(q.sql, q.parameters as unknown[])));
        return performance.now() - start;
      };
      await round();
      const deadline = performance.now() + maxMs;
      while (times.length < iterations && (times.length < 5 || performance.now() < deadline)) times.push(await round());
    } finally {
      await pool.end();
    }
  }
  return { ms: median(times), iterations: times.length, statements: queries.length };
}
