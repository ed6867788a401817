import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import type { RawRequest } from 'autocannon';
import { LEDGER_HEADER } from '../packages/contract/src/ledgers.ts';
import type { DatabaseConfig } from '../packages/server/src/config.ts';
import { createDatabase } from '../packages/server/src/db/database.ts';
import { findPgBin, type PgCluster, startPgCluster } from '../packages/server/test/helpers/pg-cluster.ts';
import { parseArgs } from './lib/args.ts';
import {
  COMBINATION_BUDGETS,
  type CombinationResult,
  combinationChecks,
  runCombinations,
  runMemberCombinations,
  slowest,
} from './lib/combinations.ts';
import { BENCH_PASSWORD, BENCH_USER, postgresDataset, type SeedInfo, sqliteDataset } from './lib/datasets.ts';
import { captureRequestSql, type RequestKind, timeFloor } from './lib/floor.ts';
import { type LoadResult, median, runLoad } from './lib/load.ts';
import { type DataSample, sampleData } from './lib/sample.ts';
import { REPO_ROOT, type RunningServer, signIn, startServer } from './lib/server-process.ts';

/**
 * `npm run bench -- [options]`: the real server on a seeded database, loaded with autocannon, on SQLite and
 * PostgreSQL, printed side by side with the targets. See docs/performance.md for the method.
 */

const HELP = `Usage: npm run bench -- [options]

  --invoices N     invoices in the data set (default 1,000,000); the SQLite seed is cached in ${'$'}BENCH_DIR
                   (default /tmp/billfold-bench) and reused while the seeder and schema are unchanged
  --db LIST        sqlite,postgres (default both; postgres needs binaries under /usr/lib/postgresql)
  --seconds N      measured seconds per scenario (default 5; each also gets a 1 s warm-up)
  --connections N  connections for the load scenarios (default 50)
  --log-level L    server LOG_LEVEL (default warn; info logs every request)
  --reseed         seed the SQLite file again even if a cached one fits
  --combos N       random filter combinations drawn from the whole filter panel (default 200)
  --combo-seed S   the generator's seed for them (default: a new one, printed)
  --only-combos    run only the random combinations (and their exports)
  --members N      N members of the seeded ledger run the combinations at once, each naming it in the
                   Billfold-Ledger header (default 1: its owner alone, no header); N-1 accounts are made and
                   added to the ledger (editors and viewers in turn)
  --help`;

type Dialect = 'sqlite' | 'postgres';
type Kind = 'health' | 'list' | 'read' | 'stats' | 'write' | 'auth';

interface Scenario {
  key: string;
  label: string;
  kind: Kind;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  vary?: (request: RawRequest) => RawRequest;
  /** Extra request headers (`cache-control: no-cache` for the uncached list twins). */
  headers?: Record<string, string>;
  connections: number;
  /** For list and stats scenarios: the request's query, replayed on the driver for the floor. */
  floor?: { kind: RequestKind; query: string };
}

interface ScenarioResult extends LoadResult {
  key: string;
  label: string;
  kind: Kind;
  path: string;
  /** rps relative to the health route in the same run. */
  ofHealth: number;
}

interface FloorResult {
  key: string;
  label: string;
  /** Median latency of the request at one connection, ms (the server's whole time for it). */
  serverMs: number;
  /** Median time of the same SQL on the raw driver, ms. */
  floorMs: number;
  ratio: number;
  statements: number;
  sql: string[];
}

interface DbResult {
  dialect: Dialect;
  version: string;
  seed: SeedInfo;
  liveEntries: number;
  deepPage: number;
  scenarios: ScenarioResult[];
  single: ScenarioResult[];
  floors: FloorResult[];
  deepCurve: { page: number; ms: number }[];
  memory: { peakRssMb: number; hwmMb: number };
  combinations: CombinationResult;
}

const ms = (x: number) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)) : '–');
const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '–');

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

function shiftYears(date: string, years: number): string {
  return `${Number(date.slice(0, 4)) + years}${date.slice(4)}`;
}

/** A request header that makes the list skip its response cache (ADR 0403): the cost of a first view. */
const NO_CACHE = { 'cache-control': 'no-cache' };

/**
 * Each list scenario twice: as a repeated view (answered from the response cache, the usual case) and with
 * `Cache-Control: no-cache`, which makes the server run the queries every time.
 */
function withUncachedLists(all: Scenario[]): Scenario[] {
  return all.flatMap((s) =>
    s.kind === 'list'
      ? [
          { ...s, floor: undefined },
          { ...s, key: `${s.key}-fresh`, label: `${s.label} (no-cache)`, headers: NO_CACHE },
        ]
      : [s],
  );
}

function scenarios(sample: DataSample, deepPage: number, connections: number): Scenario[] {
  const fiveYears = shiftYears(sample.lastDate, -5);
  const oneYear = shiftYears(sample.lastDate, -1);
  const category = encodeURIComponent(sample.topCategory);
  const filtered = `startDate=${fiveYears}&endDate=${sample.lastDate}&categoryList=${category}&paid=false&sortField=balance&sortOrder=desc`;
  const deep = `pageNum=${deepPage}&pageSize=100`;
  const statsFiltered = `startDate=${oneYear}&endDate=${sample.lastDate}&categoryList=${category}`;
  return withUncachedLists([
    { key: 'health', label: 'GET /health (framework ceiling)', kind: 'health', path: '/api/v1/health', connections },
    {
      key: 'list',
      label: 'list, default page',
      kind: 'list',
      path: '/api/v1/entries',
      connections,
      floor: { kind: 'list', query: '' },
    },
    {
      key: 'list-filtered',
      label: 'list, 3 filters + sort by balance',
      kind: 'list',
      path: `/api/v1/entries?${filtered}`,
      connections,
      floor: { kind: 'list', query: filtered },
    },
    {
      key: 'list-deep',
      label: `list, page ${(deepPage + 1).toLocaleString('en-US')}`,
      kind: 'list',
      path: `/api/v1/entries?${deep}`,
      connections,
      floor: { kind: 'list', query: deep },
    },
    {
      key: 'entry',
      label: 'one invoice (random)',
      kind: 'read',
      path: '/api/v1/entries/1',
      vary: (r) => ({ ...r, path: `/api/v1/entries/${pick(sample.readIds)}` }),
      connections,
    },
    {
      key: 'entry-payments',
      label: 'its payments (random invoice)',
      kind: 'read',
      path: '/api/v1/payments?entryId=1',
      vary: (r) => ({ ...r, path: `/api/v1/payments?entryId=${pick(sample.readIds)}` }),
      connections,
    },
    {
      key: 'stats',
      label: 'stats, unfiltered',
      kind: 'stats',
      path: '/api/v1/entries/stats',
      connections: 1,
      floor: { kind: 'stats', query: '' },
    },
    {
      key: 'stats-filtered',
      label: 'stats, last year + category',
      kind: 'stats',
      path: `/api/v1/entries/stats?${statsFiltered}`,
      connections: 1,
      floor: { kind: 'stats', query: statsFiltered },
    },
    {
      key: 'payment-create',
      label: 'create payment (random invoice)',
      kind: 'write',
      method: 'POST',
      path: '/api/v1/payments',
      body: {},
      vary: (r) => ({
        ...r,
        body: JSON.stringify({
          entryId: pick(sample.writableIds),
          date: sample.lastDate,
          amount: (100 + Math.floor(Math.random() * 5000)) / 100,
          type: 'credit',
          medium: 'web',
          notes: 'bench',
          autopay: false,
        }),
      }),
      connections,
    },
    {
      key: 'login',
      label: 'login (argon2id; 4 connections)',
      kind: 'auth',
      method: 'POST',
      path: '/api/v1/auth/login',
      body: { username: BENCH_USER, password: BENCH_PASSWORD },
      connections: 4,
    },
  ]);
}

/**
 * Waits until the user's ledger index answers (the server loads it in the background at start, answering by SQL
 * meanwhile: docs/decisions/0405-ledger-index.md), so that every timed request sees the steady state. The stats
 * route says which answered in `Server-Timing`. Returns the seconds waited.
 */
async function waitForLedgerIndex(server: RunningServer, token: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${server.url}/api/v1/entries/stats?invoiceNum=1`, {
      headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' },
    });
    await res.arrayBuffer();
    const state = res.headers.get('server-timing') ?? '';
    if (state === 'ledger;desc=index') return (performance.now() - started) / 1000;
    if (state !== 'ledger;desc=sql' || performance.now() - started > 600_000) {
      throw new Error(`the ledger index did not load (${state || 'no Server-Timing'})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function getJson(server: RunningServer, token: string, path: string, headers = {}): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  if (!res.ok) throw new Error(`GET ${path} → ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

async function measure(
  server: RunningServer,
  token: string,
  s: Scenario,
  seconds: number,
  connections = s.connections,
) {
  const headers: Record<string, string> =
    s.kind === 'auth' || s.kind === 'health' ? {} : { authorization: `Bearer ${token}`, ...s.headers };
  const spec = {
    url: server.url,
    method: s.method ?? 'GET',
    path: s.path,
    headers,
    body: s.body,
    ...(s.vary ? { vary: s.vary } : {}),
    connections,
  } as const;
  // Warm-up by count, not time: a timed run leaves its last requests queued in the server.
  await runLoad({ ...spec, seconds: 1, amount: Math.max(2 * connections, 10) });
  const result = await runLoad({ ...spec, seconds });
  await drain(server);
  return result;
}

/**
 * Waits until the server has worked off the requests a timed run abandoned in flight (up to `connections`
 * slow requests): the health route answers in a few milliseconds only once its queue is empty.
 */
async function drain(server: RunningServer): Promise<void> {
  const deadline = Date.now() + 120_000;
  let quick = 0;
  while (quick < 3 && Date.now() < deadline) {
    const start = performance.now();
    await fetch(`${server.url}/api/v1/health`).then((r) => r.arrayBuffer());
    quick = performance.now() - start < 20 ? quick + 1 : 0;
  }
}

/**
 * The seeded user's personal ledger shared with `count - 1` new accounts (editors and viewers in turn; their
 * `ledger_members` rows written as an accepted invitation writes them): every member's token, each naming the
 * ledger in the `Billfold-Ledger` header, the seeded user first.
 */
async function ledgerMembers(
  config: DatabaseConfig,
  server: RunningServer,
  ownerToken: string,
  count: number,
): Promise<{ url: string; token: string; headers: Record<string, string> }[]> {
  const db = createDatabase(config);
  try {
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('username_key', '=', BENCH_USER.toLowerCase())
      .executeTakeFirstOrThrow();
    const ledger = await db
      .selectFrom('ledgers')
      .select('id')
      .where('personal_user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    const headers = { [LEDGER_HEADER]: String(ledger.id) };
    const members = [{ url: server.url, token: ownerToken, headers }];
    const stamp = Date.now().toString(36);
    for (let i = 1; i < count; i++) {
      const username = `member${i}_${stamp}`;
      const created = await fetch(`${server.url}/api/v1/auth/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: BENCH_PASSWORD }),
      });
      if (created.status !== 201) throw new Error(`sign-up ${username}: ${created.status} ${await created.text()}`);
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', username.toLowerCase())
        .executeTakeFirstOrThrow();
      await db
        .insertInto('ledger_members')
        .values({ ledger_id: ledger.id, user_id: user.id, role: i % 2 ? 'editor' : 'viewer', joined_at: Date.now() })
        .execute();
      members.push({ url: server.url, token: await signIn(server, username, BENCH_PASSWORD), headers });
    }
    return members;
  } finally {
    await db.destroy();
  }
}

async function benchDatabase(
  dialect: Dialect,
  config: DatabaseConfig,
  databaseUrl: string,
  version: string,
  seed: SeedInfo,
  opts: {
    seconds: number;
    connections: number;
    logLevel: string;
    combos: number;
    comboSeed: number;
    onlyCombos: boolean;
    members: number;
  },
): Promise<DbResult> {
  const sample = await sampleData(config, BENCH_USER);
  const deepPage = Math.min(4_999, Math.floor((sample.liveEntries - 1) / 100));
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-bench-data-'));
  log(`\n== ${dialect}: starting the server`);
  // One user at thousands of requests a second is this benchmark's load, not an abuse: the per-user request rate
  // is off for its server (docs/decisions/0706-limits-and-fairness.md).
  const server = await startServer({
    databaseUrl,
    dataDir,
    logLevel: opts.logLevel,
    env: { LIMIT_REQUESTS_PER_MINUTE: '0' },
  });
  try {
    const token = await signIn(server, BENCH_USER, BENCH_PASSWORD);
    const indexSeconds = await waitForLedgerIndex(server, token);
    log(`   ledger index ready ${indexSeconds.toFixed(1)} s after the server started answering`);
    // Random filter combinations first, one request at a time, on the data as seeded (the budgets of issue 12).
    const rssKb = () => server.memory().rssKb;
    let combinations: CombinationResult;
    if (opts.members > 1) {
      const endpoints = await ledgerMembers(config, server, token, opts.members);
      log(
        `   ${opts.members} members at once, ${opts.combos} random filter combinations each (seeds ${opts.comboSeed}–${opts.comboSeed + opts.members - 1}), one request at a time per member, no-cache`,
      );
      combinations = await runMemberCombinations(
        endpoints.map((e) => ({ ...e, rssKb })),
        sample,
        opts.comboSeed,
        opts.combos,
        log,
      );
    } else {
      log(`   ${opts.combos} random filter combinations (seed ${opts.comboSeed}), one request at a time, no-cache`);
      combinations = await runCombinations({ url: server.url, token, rssKb }, sample, opts.comboSeed, opts.combos, log);
    }
    const all = opts.onlyCombos ? [] : scenarios(sample, deepPage, opts.connections);
    // Smoke test: every read route answers 200 before anything is timed.
    for (const s of all.filter((x) => x.kind === 'list' || x.kind === 'stats' || x.kind === 'read')) {
      await getJson(server, token, s.vary ? (s.vary({ path: s.path }).path ?? s.path) : s.path);
    }
    const results: ScenarioResult[] = [];
    let healthRps = Number.NaN;
    // Writes and logins last, so every read sees the data as seeded.
    for (const s of all) {
      log(`   ${s.label} (${s.connections} conn, ${opts.seconds} s)`);
      const r = await measure(server, token, s, opts.seconds);
      if (s.key === 'health') healthRps = r.rps;
      results.push({ ...r, key: s.key, label: s.label, kind: s.kind, path: s.path, ofHealth: r.rps / healthRps });
      if (r.non2xx > 0 || r.errors > 0)
        log(`   !! ${r.non2xx} non-2xx, ${r.errors} errors: ${JSON.stringify(r.statusCodes)}`);
    }

    // One connection: the request's own time, no queue (see docs/decisions/0401-benchmark-method.md).
    const single: ScenarioResult[] = [];
    const oneSeconds = Math.min(3, opts.seconds);
    for (const s of all) {
      let one = results.find((r) => r.key === s.key && r.connections === 1);
      if (!one) {
        log(`   ${s.label} (1 conn, ${oneSeconds} s)`);
        const r = await measure(server, token, s, oneSeconds, 1);
        one = { ...r, key: s.key, label: s.label, kind: s.kind, path: s.path, ofHealth: Number.NaN };
      }
      single.push(one);
    }
    for (const r of single) r.ofHealth = r.rps / (single.find((x) => x.key === 'health')?.rps ?? Number.NaN);

    // The database floor: the request's SQL straight on the driver, against the request at one connection.
    const floors: FloorResult[] = [];
    for (const s of all.filter((x) => x.floor)) {
      const floorOf = s.floor as NonNullable<Scenario['floor']>;
      const one = single.find((r) => r.key === s.key) as ScenarioResult;
      const queries = await captureRequestSql(config, floorOf.kind, sample.ledgerId, floorOf.query);
      const floor = await timeFloor(config, queries);
      floors.push({
        key: s.key,
        label: s.label,
        serverMs: one.p50,
        floorMs: floor.ms,
        ratio: one.p50 / floor.ms,
        statements: floor.statements,
        sql: queries.map((q) => q.sql),
      });
    }

    // Latency against depth, one request at a time.
    const deepCurve: { page: number; ms: number }[] = [];
    for (const page of opts.onlyCombos
      ? []
      : [...new Set([0, 500, 1_000, 2_500, deepPage].filter((p) => p <= deepPage))]) {
      const times: number[] = [];
      for (let i = 0; i < 25; i++) {
        const start = performance.now();
        await getJson(server, token, `/api/v1/entries?pageNum=${page}&pageSize=100`, NO_CACHE);
        times.push(performance.now() - start);
      }
      deepCurve.push({ page, ms: median(times.slice(5)) });
    }

    const mem = server.memory();
    return {
      dialect,
      version,
      seed,
      liveEntries: sample.liveEntries,
      deepPage,
      scenarios: results,
      single,
      floors,
      deepCurve,
      memory: { peakRssMb: server.peakRssKb() / 1024, hwmMb: mem.hwmKb / 1024 },
      combinations,
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// --- report ---

interface Check {
  target: string;
  value: (r: DbResult) => number;
  format: (x: number) => string;
  pass: (x: number) => boolean;
  /** Printed for reference, not a target. */
  info?: boolean;
}

function scenario(r: DbResult, key: string): ScenarioResult | undefined {
  return r.scenarios.find((s) => s.key === key);
}

/** The same scenario one request at a time. */
function alone(r: DbResult, key: string): ScenarioResult | undefined {
  return r.single.find((s) => s.key === key);
}

function checks(): Check[] {
  const out: Check[] = [];
  // Latency is checked without the response cache (every request runs its queries), throughput as the
  // repeated view it is; the uncached throughput is printed beside it (ADR 0403).
  for (const [key, name] of [
    ['list', 'default list'],
    ['list-filtered', 'filtered list'],
    ['list-deep', 'deep page'],
  ] as const) {
    out.push(
      {
        target: `${name}: p50 ≤ 10 ms (1 conn, no-cache)`,
        value: (r) => alone(r, `${key}-fresh`)?.p50 ?? Number.NaN,
        format: (x) => `${ms(x)} ms`,
        pass: (x) => x <= 10,
      },
      {
        target: `${name}: p99 ≤ 40 ms (1 conn, no-cache)`,
        value: (r) => alone(r, `${key}-fresh`)?.p99 ?? Number.NaN,
        format: (x) => `${ms(x)} ms`,
        pass: (x) => x <= 40,
      },
      {
        target: `${name}: ≥ 30 % of health req/s (50 conn)`,
        value: (r) => scenario(r, key)?.ofHealth ?? Number.NaN,
        format: pct,
        pass: (x) => x >= 0.3,
      },
      {
        target: `${name}, no-cache: share of health req/s (info)`,
        value: (r) => scenario(r, `${key}-fresh`)?.ofHealth ?? Number.NaN,
        format: pct,
        pass: () => true,
        info: true,
      },
    );
  }
  out.push(
    {
      target: 'deep page ≤ 3 × first page (1 conn)',
      value: (r) => {
        const first = r.deepCurve[0]?.ms ?? Number.NaN;
        const last = r.deepCurve[r.deepCurve.length - 1]?.ms ?? Number.NaN;
        return last / first;
      },
      format: (x) => `${x.toFixed(2)}×`,
      pass: (x) => x <= 3,
    },
    {
      target: 'stats unfiltered ≤ 200 ms (p50, 1 conn)',
      value: (r) => alone(r, 'stats')?.p50 ?? Number.NaN,
      format: (x) => `${ms(x)} ms`,
      pass: (x) => x <= 200,
    },
    {
      target: 'create payment: p50 ≤ 10 ms (1 conn)',
      value: (r) => alone(r, 'payment-create')?.p50 ?? Number.NaN,
      format: (x) => `${ms(x)} ms`,
      pass: (x) => x <= 10,
    },
    {
      target: 'server RSS ≤ 300 MB (peak)',
      value: (r) => Math.max(r.memory.peakRssMb, r.memory.hwmMb),
      format: (x) => `${x.toFixed(0)} MB`,
      pass: (x) => x <= 300,
    },
    {
      target: 'no errors, no non-2xx',
      value: (r) => [...r.scenarios, ...r.single].reduce((n, s) => n + s.non2xx + s.errors, 0),
      format: (x) => int(x),
      pass: (x) => x === 0,
    },
  );
  return out;
}

function table(headers: string[], rows: string[][], alignLeft = 1): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < alignLeft ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The random combinations: p50 / p95 / max per kind against the budgets, the exports, the slowest requests. */
function combinationReport(results: DbResult[]): string[] {
  const out: string[] = [];
  const seeds = [...new Set(results.map((r) => r.combinations.seed))].join(', ');
  const count = results[0]?.combinations.first.length ?? 0;
  out.push(
    '',
    `Random filter combinations: ${count} per database, seed ${seeds} (npm run bench -- --combo-seed ${seeds} repeats them);`,
    'each: its first page, a page drawn from its result, its stats, its trends by a drawn interval, the due summary and a 1–24-month forecast as of a drawn day, and an Entities page search (its first page and a drawn page); Cache-Control: no-cache, one request at a time',
  );
  const members = results[0]?.combinations.members ?? 1;
  if (members > 1) {
    out.push(
      `${members} members of the one ledger at once, each naming it in the Billfold-Ledger header and running its own ${count / members} combinations (seeds ${seeds} to +${members - 1}); timings pooled`,
    );
  }
  const rows: string[][] = [];
  for (const r of results) {
    const c = combinationChecks(r.combinations);
    for (const k of c.rows) {
      rows.push([
        r.dialect,
        k.name,
        `${ms(k.p50)} ms`,
        `${ms(k.p95)} ms`,
        `${ms(k.max)} ms`,
        `p95 ≤ ${k.budget.p95}, max ≤ ${k.budget.max}`,
        k.pass ? 'PASS' : 'FAIL',
      ]);
    }
    rows.push([
      r.dialect,
      'CSV export (slowest)',
      '',
      '',
      `${int(c.slowestExport)} rows/s`,
      `≥ ${int(COMBINATION_BUDGETS.exportRowsPerSecond)} rows/s`,
      c.exportPass ? 'PASS' : 'FAIL',
    ]);
  }
  out.push(table(['database', 'request', 'p50', 'p95', 'max', 'budget', ''], rows, 2));
  for (const r of results) {
    out.push('', `${r.dialect}: exports`);
    for (const x of r.combinations.exports) {
      out.push(
        `  ${int(x.rows)} rows in ${ms(x.ms)} ms = ${int(x.rowsPerSecond)} rows/s, server RSS +${x.rssGrowthMb.toFixed(0)} MB  ${x.url}`,
      );
    }
    out.push(`${r.dialect}: slowest`);
    for (const line of slowest(r.combinations)) out.push(`  ${line}`);
  }
  return out;
}

const combinationsFailed = (results: DbResult[]) =>
  results.some((r) => {
    const c = combinationChecks(r.combinations);
    return !c.exportPass || c.rows.some((k) => !k.pass);
  });

function report(results: DbResult[], onlyCombos: boolean): string {
  const out: string[] = [];
  const names = results.map((r) => (r.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'));
  out.push(
    `Billfold benchmark · ${new Date().toISOString()} · ${cpus().length} CPU (${cpus()[0]?.model ?? '?'}), ` +
      `${(totalmem() / 2 ** 30).toFixed(0)} GB · Node ${process.version}`,
  );
  for (const r of results) {
    out.push(
      `${r.dialect}: ${r.version}; ${int(r.seed.counts.entries)} invoices (${int(r.liveEntries)} live), ` +
        `${int(r.seed.counts.payments)} payments; seeded in ${r.seed.seconds.toFixed(1)} s${r.seed.cached ? ' (cached)' : ''}`,
    );
  }
  if (onlyCombos) return [...out, ...combinationReport(results)].join('\n');
  out.push('');
  const keys = results[0]?.scenarios.map((s) => s.key) ?? [];
  const headers = ['scenario', 'conn'];
  for (const n of names) headers.push(`${n} p50`, 'p99', 'req/s', '×health', '1 conn p50', 'p99');
  const rows = keys.map((key) => {
    const first = scenario(results[0] as DbResult, key);
    const row = [first?.label ?? key, String(first?.connections ?? '')];
    for (const r of results) {
      const s = scenario(r, key);
      const one = alone(r, key);
      row.push(
        s ? `${ms(s.p50)} ms` : '–',
        s ? `${ms(s.p99)} ms` : '–',
        s ? int(s.rps) : '–',
        s ? pct(s.ofHealth) : '–',
        one ? `${ms(one.p50)} ms` : '–',
        one ? `${ms(one.p99)} ms` : '–',
      );
    }
    return row;
  });
  out.push('Under load (conn connections; login 4, stats 1) and one request at a time (1 conn)');
  out.push(table(headers, rows, 1));

  out.push('', 'Database floor: the same SQL on the raw driver (median), vs the request at 1 connection (p50)');
  const floorKeys = results[0]?.floors.map((f) => f.key) ?? [];
  const fHeaders = ['request'];
  for (const n of names) fHeaders.push(`${n} server`, 'SQL', 'server/SQL');
  out.push(
    table(
      fHeaders,
      floorKeys.map((key) => {
        const row = [results[0]?.floors.find((f) => f.key === key)?.label ?? key];
        for (const r of results) {
          const f = r.floors.find((x) => x.key === key);
          row.push(
            f ? `${ms(f.serverMs)} ms` : '–',
            f ? `${ms(f.floorMs)} ms` : '–',
            f ? `${f.ratio.toFixed(2)}×` : '–',
          );
        }
        return row;
      }),
    ),
  );

  out.push('', 'Depth: GET /entries?pageNum=N&pageSize=100, one request at a time (median)');
  const pages = results[0]?.deepCurve.map((d) => d.page) ?? [];
  out.push(
    table(
      ['page', ...names],
      pages.map((page) => [
        (page + 1).toLocaleString('en-US'),
        ...results.map((r) => `${ms(r.deepCurve.find((d) => d.page === page)?.ms ?? Number.NaN)} ms`),
      ]),
    ),
  );

  out.push('', 'Targets');
  out.push(
    table(
      ['target', ...names.flatMap((n) => [n, ''])],
      checks().map((c) => [
        c.target,
        ...results.flatMap((r) => {
          const v = c.value(r);
          return [c.format(v), c.info ? '' : c.pass(v) ? 'PASS' : 'FAIL'];
        }),
      ]),
    ),
  );
  out.push(...combinationReport(results));
  return out.join('\n');
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), {
    invoices: 'number',
    db: 'string',
    seconds: 'number',
    connections: 'number',
    'log-level': 'string',
    reseed: 'boolean',
    combos: 'number',
    'combo-seed': 'number',
    'only-combos': 'boolean',
    members: 'number',
    help: 'boolean',
  });
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  const invoices = args.invoices ?? 1_000_000;
  const wanted = (args.db ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as Dialect[];
  const opts = {
    seconds: args.seconds ?? 5,
    connections: args.connections ?? 50,
    logLevel: args['log-level'] ?? 'warn',
    combos: args.combos ?? 200,
    comboSeed: args['combo-seed'] ?? Math.floor(Math.random() * 2 ** 31),
    onlyCombos: args['only-combos'] ?? false,
    members: Math.max(1, Math.floor(args.members ?? 1)),
  };
  const results: DbResult[] = [];

  if (wanted.includes('sqlite')) {
    const { file, seed } = await sqliteDataset(invoices, args.reseed ?? false);
    const SQLite = (await import('better-sqlite3')).default;
    const probe = new SQLite(':memory:');
    const version = `SQLite ${(probe.prepare('select sqlite_version() as v').get() as { v: string }).v}`;
    probe.close();
    try {
      results.push(await benchDatabase('sqlite', { dialect: 'sqlite', file }, `sqlite:${file}`, version, seed, opts));
    } finally {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    }
  }

  if (wanted.includes('postgres')) {
    if (!findPgBin()) {
      log('!! No PostgreSQL binaries under /usr/lib/postgresql: PostgreSQL skipped.');
    } else {
      let cluster: PgCluster | null = null;
      try {
        // A small production-like configuration: fsync on, memory sized for a shared 2-core machine.
        cluster = await startPgCluster({
          settings: {
            shared_buffers: '512MB',
            effective_cache_size: '2GB',
            work_mem: '16MB',
            max_wal_size: '4GB',
            checkpoint_timeout: '15min',
          },
        });
        const seed = await postgresDataset(cluster.url, invoices);
        results.push(
          await benchDatabase(
            'postgres',
            { dialect: 'postgres', url: cluster.url },
            cluster.url,
            cluster.version,
            seed,
            opts,
          ),
        );
      } finally {
        cluster?.stop();
      }
    }
  }

  if (results.length === 0) throw new Error('nothing was measured');
  const text = report(results, opts.onlyCombos);
  console.log(`\n${text}`);
  const dir = resolve(REPO_ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const json = JSON.stringify({ at: new Date().toISOString(), options: { invoices, ...opts }, results }, null, 2);
  writeFileSync(join(dir, `bench-${stamp}.json`), json);
  writeFileSync(join(dir, 'latest.json'), json);
  writeFileSync(join(dir, 'latest.txt'), `${text}\n`);
  log(`\nResults: bench/results/bench-${stamp}.json`);
  const failed =
    combinationsFailed(results) || (!opts.onlyCombos && checks().some((c) => results.some((r) => !c.pass(c.value(r)))));
  return failed ? 1 : 0;
}

process.exitCode = await main();
