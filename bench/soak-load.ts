import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@billfold/contract/entries';
import type { Payment } from '@billfold/contract/payments';
import autocannon, { type RawRequest, type RequestSpec, type Result } from 'autocannon';
import type { DatabaseConfig } from '../packages/server/src/config.ts';
import { createDatabase } from '../packages/server/src/db/database.ts';
import { findNginx, startNginx } from '../packages/server/test/helpers/nginx.ts';
import { findPgBin, type PgCluster, startPgCluster } from '../packages/server/test/helpers/pg-cluster.ts';
import { totalsMismatches } from '../packages/server/test/security/database-state.ts';
import { parseArgs } from './lib/args.ts';
import { percentile } from './lib/load.ts';
import { startServer } from './lib/server-process.ts';

/**
 * `npm run soak` (after the long security tests), or `tsx bench/soak-load.ts [options]`: the real server under
 * 200 concurrent connections of mixed reads and writes for 60 s, on SQLite and PostgreSQL. Every connection signs
 * in as one of several users and loops: create an invoice, pay it, then five reads (list, one invoice, its
 * payments, stats, entities). Passes only with zero errors, zero timeouts and zero non-2xx answers, and when the
 * database afterwards holds every write the server acknowledged, with every invoice's totals equal to its payments.
 * Prints throughput and latency percentiles (p99 included). Exits 1 on any failure.
 */

const HELP = `Usage: tsx bench/soak-load.ts [options]

  --seconds N      length of the load (default 60)
  --connections N  concurrent connections (default 200)
  --users N        accounts the connections share (default 20)
  --db LIST        sqlite,postgres (default both; postgres needs binaries under /usr/lib/postgresql)
  --nginx          the deployment of docs/deploy.md: two server processes on PostgreSQL behind nginx
                   (/usr/sbin/nginx) with TRUST_PROXY set; the load goes through nginx
  --help`;

const PASSWORD = 'Soak!Passw0rd';

interface User {
  token: string;
  billIds: number[];
}

interface Acked {
  entries: Map<number, number>;
  payments: Map<number, { entryId: number; cents: number }>;
}

async function api(url: string, token: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function makeUsers(url: string, count: number): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < count; i++) {
    const username = `soak${i}`;
    await api(url, null, 'POST', '/auth/create', { username, email: `${username}@example.com`, password: PASSWORD });
    const { accessToken } = (await api(url, null, 'POST', '/auth/login', { username, password: PASSWORD })) as {
      accessToken: string;
    };
    const billIds: number[] = [];
    for (const [n, internal] of [
      [0, false],
      [1, false],
      [2, true],
    ] as const) {
      billIds.push((await api(url, accessToken, 'POST', '/bills', { name: `Soak ${i}.${n}`, internal })).id as number);
    }
    users.push({ token: accessToken, billIds });
  }
  return users;
}

interface Context extends Record<string, unknown> {
  user?: User;
  entryId?: number;
  cents?: number;
}

/** Per request kind: how many were sent and how each was answered (a timeout is sent, never answered). */
type Tally = Record<
  string,
  { sent: number; answered: Record<string, number>; ms: number[]; slowest: { ms: number; at: number } }
>;

/** Counts and times one kind of request; `at` of the slowest is seconds after the load started. */
function tracked(tally: Tally, kind: string, spec: RequestSpec, origin: number): RequestSpec {
  const entry = { sent: 0, answered: {} as Record<string, number>, ms: [] as number[], slowest: { ms: 0, at: 0 } };
  tally[kind] = entry;
  return {
    ...spec,
    setupRequest: (request, context) => {
      entry.sent += 1;
      context.started = performance.now();
      return spec.setupRequest ? spec.setupRequest(request, context) : request;
    },
    onResponse: (status, body, context) => {
      entry.answered[status] = (entry.answered[status] ?? 0) + 1;
      const started = context.started as number;
      const ms = performance.now() - started;
      entry.ms.push(ms);
      if (ms > entry.slowest.ms) entry.slowest = { ms, at: (started - origin) / 1000 };
      spec.onResponse?.(status, body, context);
    },
  };
}

/** One connection's loop: two writes, five reads. */
function scenario(users: User[], acked: Acked, tally: Tally): RequestSpec[] {
  const origin = performance.now();
  const track = (kind: string, spec: RequestSpec) => tracked(tally, kind, spec, origin);
  let next = 0;
  const auth = (ctx: Context, request: RawRequest): RawRequest => {
    if (!ctx.user) {
      ctx.user = users[next % users.length] as User;
      next += 1;
    }
    return { ...request, headers: { ...request.headers, authorization: `Bearer ${ctx.user.token}` } };
  };
  const json = { 'content-type': 'application/json' };
  const read = (path: (ctx: Context) => string): RequestSpec => ({
    method: 'GET',
    setupRequest: (request, context) => {
      const ctx = context as Context;
      return auth(ctx, { ...request, path: path(ctx) });
    },
  });
  return [
    track('create invoice', {
      method: 'POST',
      path: '/api/v1/entries/new',
      setupRequest: (request, context) => {
        const ctx = context as Context;
        const withAuth = auth(ctx, request);
        const user = ctx.user as User;
        ctx.cents = 1 + Math.floor(Math.random() * 500_000);
        const body = {
          billId: user.billIds[Math.floor(Math.random() * user.billIds.length)],
          date: `2026-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-15`,
          flow: Math.random() < 0.5 ? 'income' : 'expense',
          amount: ctx.cents / 100,
          services: 'soak',
        };
        return { ...withAuth, headers: { ...withAuth.headers, ...json }, body: JSON.stringify(body) };
      },
      onResponse: (status, body, context) => {
        const ctx = context as Context;
        if (status !== 201) return;
        const entry = JSON.parse(body) as Pick<Entry, 'entryId'>;
        ctx.entryId = entry.entryId;
        acked.entries.set(entry.entryId, ctx.cents ?? 0);
      },
    }),
    track('add payment', {
      method: 'POST',
      path: '/api/v1/payments',
      setupRequest: (request, context) => {
        const ctx = context as Context;
        const withAuth = auth(ctx, request);
        ctx.cents = 1 + Math.floor(Math.random() * 300_000);
        const body = {
          entryId: ctx.entryId,
          date: '2026-11-05',
          amount: ctx.cents / 100,
          type: 'bank',
          medium: 'ach',
        };
        return { ...withAuth, headers: { ...withAuth.headers, ...json }, body: JSON.stringify(body) };
      },
      onResponse: (status, body, context) => {
        const ctx = context as Context;
        if (status !== 201) return;
        const payment = JSON.parse(body) as Pick<Payment, 'paymentId' | 'entryId'>;
        acked.payments.set(payment.paymentId, { entryId: payment.entryId, cents: ctx.cents ?? 0 });
      },
    }),
    track(
      'list page',
      read(() => '/api/v1/entries?pageSize=25&sortField=amount&sortOrder=desc'),
    ),
    track(
      'one invoice',
      read((ctx) => `/api/v1/entries/${ctx.entryId}`),
    ),
    track(
      'its payments',
      read((ctx) => `/api/v1/payments?entryId=${ctx.entryId}`),
    ),
    track(
      'stats',
      read(() => '/api/v1/entries/stats?flow=income'),
    ),
    track(
      'entities',
      read(() => '/api/v1/bills?status=all'),
    ),
  ];
}

interface Outcome {
  dialect: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  entries: number;
  payments: number;
  problems: string[];
  tally: Tally;
}

interface SoakArgs {
  seconds: number;
  connections: number;
  users: number;
  /** Two server processes behind nginx instead of one process. */
  nginx: boolean;
}

/** One server process, or the deployment of docs/deploy.md (two processes behind nginx); `url` is where clients go. */
async function startDeployment(databaseUrl: string, dataDir: string, nginx: boolean) {
  if (!nginx) {
    const server = await startServer({ databaseUrl, dataDir });
    return { url: server.url, stop: () => server.stop() };
  }
  const env = { JWT_SECRET: randomBytes(48).toString('base64url'), TRUST_PROXY: '127.0.0.1' };
  const servers = await Promise.all(
    ['a', 'b'].map((name) => startServer({ databaseUrl, dataDir: join(dataDir, name), env })),
  );
  const proxy = await startNginx(servers.map((server) => server.url.replace('http://', '')));
  return {
    url: proxy.url,
    stop: async () => {
      await proxy.stop();
      // Graceful: requests in flight when the load stopped finish before the database is read.
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
}

async function soak(dialect: 'sqlite' | 'postgres', args: SoakArgs) {
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-soak-'));
  let cluster: PgCluster | null = null;
  let server: { url: string; stop: () => Promise<void> } | null = null;
  try {
    let database: DatabaseConfig;
    if (dialect === 'postgres') {
      cluster = await startPgCluster({ settings: { max_connections: 100 } });
      database = { dialect, url: cluster.url };
    } else database = { dialect, file: join(dataDir, 'soak.db') };
    server = await startDeployment(
      database.dialect === 'postgres' ? database.url : `sqlite:${database.file}`,
      dataDir,
      args.nginx,
    );
    const users = await makeUsers(server.url, args.users);
    const acked: Acked = { entries: new Map(), payments: new Map() };
    const tally: Tally = {};
    const latencies: number[] = [];
    const url = server.url;
    const result = await new Promise<Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: args.connections,
          duration: args.seconds,
          // Generous: in a loaded VM, 200 connections opened at once can wait on TCP retransmission timers
          // (1, 3, 7, 15, 31 s) before their first request reaches the server; the server itself answers in ms.
          timeout: 60,
          requests: scenario(users, acked, tally),
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
      instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
    });

    const problems: string[] = [];
    if (result.errors > 0) problems.push(`${result.errors} connection errors`);
    if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
    if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx answers`);

    // Requests in flight when the load stopped still finish in the server: let them (a graceful stop waits for
    // them), then read a database nobody writes to.
    await server.stop();
    server = null;
    // No lost writes: every acknowledged invoice and payment is stored as acknowledged. A write cut off by the end of
    // the run may be stored without its answer having been read: at most one per connection.
    const db = createDatabase(database);
    try {
      const entries = new Map(
        (await db.selectFrom('entries').select(['id', 'amount_cents']).execute()).map((e) => [
          Number(e.id),
          Number(e.amount_cents),
        ]),
      );
      const payments = new Map(
        (await db.selectFrom('payments').select(['id', 'entry_id', 'amount_cents']).execute()).map((p) => [
          Number(p.id),
          { entryId: Number(p.entry_id), cents: Number(p.amount_cents) },
        ]),
      );
      let missing = 0;
      for (const [id, cents] of acked.entries) if (entries.get(id) !== cents) missing += 1;
      for (const [id, p] of acked.payments) {
        const row = payments.get(id);
        if (row?.entryId !== p.entryId || row.cents !== p.cents) missing += 1;
      }
      if (missing > 0) problems.push(`${missing} acknowledged writes missing or different`);
      const unread = entries.size - acked.entries.size + payments.size - acked.payments.size;
      if (unread < 0 || unread > args.connections) {
        problems.push(
          `${entries.size} invoices and ${payments.size} payments stored, ${acked.entries.size} and ${acked.payments.size} acknowledged`,
        );
      }
      const mismatches = await totalsMismatches(db);
      if (mismatches.length > 0) problems.push(`${mismatches.length} invoices whose totals differ from their payments`);
    } finally {
      await db.destroy();
    }

    const sorted = Float64Array.from(latencies).sort();
    const statusCodes: Record<string, number> = {};
    for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
    return {
      dialect,
      requests: latencies.length,
      rps: latencies.length / result.duration,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      statusCodes,
      entries: acked.entries.size,
      payments: acked.payments.size,
      problems,
      tally,
    } satisfies Outcome;
  } finally {
    await server?.stop();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    console.log(HELP);
    return;
  }
  const opts = parseArgs(argv, {
    seconds: 'number',
    connections: 'number',
    users: 'number',
    db: 'string',
    nginx: 'boolean',
    help: 'boolean',
  });
  const args: SoakArgs = {
    seconds: opts.seconds ?? 60,
    connections: opts.connections ?? 200,
    users: opts.users ?? 20,
    nginx: opts.nginx ?? false,
  };
  if (args.nginx && !findNginx()) throw new Error('/usr/sbin/nginx not found (apt-get install nginx)');
  // Several processes share one database only on PostgreSQL.
  const wanted = (opts.db ?? (args.nginx ? 'postgres' : 'sqlite,postgres')).split(',').map((d) => d.trim());
  const dialects = (['sqlite', 'postgres'] as const).filter((d) => wanted.includes(d));
  if (dialects.includes('postgres') && !findPgBin()) {
    throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql; run with --db sqlite');
  }
  let failed = false;
  for (const dialect of dialects) {
    const where = args.nginx ? ' through nginx to two server processes' : '';
    console.log(
      `soak load on ${dialect}${where}: ${args.connections} connections, ${args.seconds} s, ${args.users} users …`,
    );
    const o = await soak(dialect, args);
    console.log(
      `  ${o.requests} requests (${o.rps.toFixed(0)}/s), p50 ${o.p50.toFixed(1)} ms, p99 ${o.p99.toFixed(1)} ms, max ${o.max.toFixed(0)} ms`,
    );
    console.log(
      `  ${o.entries} invoices and ${o.payments} payments acknowledged and found; errors ${o.errors}, timeouts ${o.timeouts}, non-2xx ${o.non2xx}; status ${JSON.stringify(o.statusCodes)}`,
    );
    for (const [kind, t] of Object.entries(o.tally)) {
      const sorted = Float64Array.from(t.ms).sort();
      console.log(
        `    ${kind}: sent ${t.sent}, answered ${JSON.stringify(t.answered)}, p99 ${percentile(sorted, 99).toFixed(0)} ms, slowest ${t.slowest.ms.toFixed(0)} ms at ${t.slowest.at.toFixed(1)} s`,
      );
    }
    if (o.problems.length > 0) {
      failed = true;
      console.log(`  FAIL: ${o.problems.join('; ')}`);
    } else console.log('  ok: zero errors, no lost writes, totals exact');
  }
  if (failed) process.exitCode = 1;
}

await main();
