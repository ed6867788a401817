import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type RawRequest, type RequestSpec, type Result } from 'autocannon';
import type { DatabaseConfig } from '../packages/server/src/config.ts';
import { findNginx, type RunningNginx, startNginx } from '../packages/server/test/helpers/nginx.ts';
import { findPgBin, freePort, type PgCluster } from '../packages/server/test/helpers/pg-cluster.ts';
import { parseArgs } from './lib/args.ts';
import { COMBINATION_BUDGETS } from './lib/combinations.ts';
import { BENCH_PASSWORD, cachedPostgresCluster, cachedSqliteTenants, type TenantsSpec } from './lib/datasets.ts';
import { Random } from './lib/random.ts';
import { sampleLedgers } from './lib/sample.ts';
import { REPO_ROOT, type RunningServer, signIn, startServer } from './lib/server-process.ts';
import {
  type Case,
  drawCase,
  firstPerUser,
  followUp,
  KINDS,
  type Kind,
  type Sample,
  slowestSamples,
  summarizeWindow,
  type TenantSample,
  type WindowSummary,
  windows,
} from './lib/tenants.ts';

/**
 * `npm run bench:tenants -- [options]`: many tenants at once (issue 28). The seeder writes `--users` users with
 * `--invoices-per-user` invoices each in their personal ledgers (cached in BENCH_DIR between runs: a PostgreSQL data
 * directory, or a SQLite file); `--processes` server processes start on it (behind nginx as docs/deploy.md deploys
 * them, TRUST_PROXY set, when there are several or `--nginx` is given), each with `LEDGER_INDEX_MB` (and PostgreSQL's Unix
 * socket instead of 127.0.0.1 with `--pg-socket`); every user signs
 * in; then the processes are restarted on the same ports and the clock starts when each answers `/health` again.
 * From then `--clients` clients, for `--seconds`, each repeatedly act as a random user with a random request
 * (bench/lib/tenants.ts: a first page of a random filter combination of the whole panel with any sort and then a page
 * drawn from its result, the stats of a combination, the due summary, an Entities page search and a page of it), all
 * with `Cache-Control: no-cache`. The report gives the first, middle and last minute: p50 / p95 / max per kind
 * against the budgets of docs/performance.md and the issue's many-tenant targets, requests per second, errors and
 * non-2xx answers, each process's RSS at the start, its peak and the end against its setting, the seed, the load
 * averages and the slowest requests. Exit code 1 when a target is missed.
 */

const HELP = `Usage: npm run bench:tenants -- [options]

  --users N               users, each with a personal ledger (default 200)
  --invoices-per-user N   invoices in each ledger (default 5,000)
  --entities-per-user N   entities in each ledger (default invoices ÷ 50, within 21–1,000)
  --db sqlite|postgres    database (default postgres)
  --processes N           server processes on the database (default 2)
  --nginx                 put nginx in front (the default with more than one process)
  --clients N             concurrent clients (default 50)
  --seconds N             length of the timed load (default 180; the access tokens last 15 minutes)
  --seed S                the draw of users and requests (default: drawn, printed)
  --data-seed S           the seeder's seed (default 20261125)
  --ledger-index-mb MB    LEDGER_INDEX_MB of each process (default 512, the server's default)
  --pg-socket             the processes reach PostgreSQL through its Unix socket (default: TCP on 127.0.0.1)
  --reseed                seed again even when a cached data set fits
  --help`;

const args = parseArgs(process.argv.slice(2), {
  users: 'number',
  'invoices-per-user': 'number',
  'entities-per-user': 'number',
  db: 'string',
  processes: 'number',
  nginx: 'boolean',
  clients: 'number',
  seconds: 'number',
  seed: 'number',
  'data-seed': 'number',
  'ledger-index-mb': 'number',
  'pg-socket': 'boolean',
  reseed: 'boolean',
  help: 'boolean',
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const USERS = args.users ?? 200;
const INVOICES = args['invoices-per-user'] ?? 5_000;
const ENTITIES = args['entities-per-user'] ?? Math.min(1_000, Math.max(21, Math.round(INVOICES / 50)));
const DB = (args.db ?? 'postgres') as 'sqlite' | 'postgres';
const PROCESSES = args.processes ?? 2;
const NGINX = args.nginx ?? PROCESSES > 1;
const CLIENTS = args.clients ?? 50;
const SECONDS = args.seconds ?? 180;
const SEED = args.seed ?? Math.floor(Math.random() * 2 ** 31);
const DATA_SEED = args['data-seed'] ?? 20261125;
const INDEX_MB = args['ledger-index-mb'] ?? 512;
const USERNAME = 'tenant';
/** Seconds a request may wait for its answer before it counts as an error. */
const TIMEOUT_S = 60;
if (DB !== 'sqlite' && DB !== 'postgres') throw new Error('--db is sqlite or postgres');
if (PROCESSES > 1 && !NGINX) throw new Error('several processes need --nginx in front of them');

const log = (line: string) => process.stderr.write(`${line}\n`);
const fmt = (ms: number) =>
  Number.isNaN(ms) ? '—' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

function commit(): string {
  const git = (...a: string[]) => execFileSync('git', a, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' (with local changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

interface Deployment {
  url: string;
  servers: RunningServer[];
  /** Stops the server processes and starts them again on the same ports; resolves when every one answers /health. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function deploy(databaseUrl: string, dataDir: string): Promise<Deployment> {
  const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
  const env = {
    // Shared by the processes (a token signed by one is good at the other) and kept over the restart.
    JWT_SECRET: randomBytes(48).toString('base64url'),
    LEDGER_INDEX_MB: String(INDEX_MB),
    ...(NGINX ? { TRUST_PROXY: '127.0.0.1' } : {}),
  };
  const start = () =>
    Promise.all(ports.map((port, i) => startServer({ databaseUrl, dataDir: join(dataDir, `p${i}`), env, port })));
  const deployment: Deployment = {
    url: '',
    servers: await start(),
    async restart() {
      await Promise.all(deployment.servers.map((s) => s.stop()));
      deployment.servers = await start();
    },
    async stop() {
      await proxy?.stop();
      await Promise.all(deployment.servers.map((s) => s.stop()));
    },
  };
  let proxy: RunningNginx | null = null;
  if (NGINX) {
    proxy = await startNginx(ports.map((p) => `127.0.0.1:${p}`));
    deployment.url = proxy.url;
  } else deployment.url = deployment.servers[0]?.url ?? '';
  return deployment;
}

/** Every user's access token, signed in through the deployment a few at a time. */
async function signInAll(url: string, users: TenantSample[]): Promise<string[]> {
  const tokens = new Array<string>(users.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < users.length; i = next++) {
      tokens[i] = await signIn({ url }, (users[i] as TenantSample).username, BENCH_PASSWORD);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return tokens;
}

/**
 * The timed load: `CLIENTS` connections, each drawing its next user and request as bench/lib/tenants.ts says. Each
 * connection loops over two steps (autocannon keeps a connection's context over its list of requests and clears it
 * when the list starts again): the first draws a case, the second asks the first's follow-up page when it has one and
 * else draws a case of its own. The draws come from one generator seeded with `SEED`: the same seed draws the same
 * stream of cases (which connection sends which depends on timing, and so does a redraw of a user another connection
 * is acting as at that moment). A request with no answer `TIMEOUT_S` after it was
 * sent is an error; one still in flight when the run ends is counted apart.
 */
function load(url: string, users: TenantSample[], tokens: string[], origin: number) {
  const random = new Random(SEED);
  const samples: Sample[] = [];
  const inFlight = new Map<Record<string, unknown>, { c: Case; started: number }>();
  // How many requests of each user are in flight: a client draws a user no other client is acting as.
  const acting = new Map<number, number>();
  const act = (user: number, by: number) => acting.set(user, (acting.get(user) ?? 0) + by);
  const step = (first: boolean): RequestSpec => ({
    method: 'GET',
    setupRequest: (request: RawRequest, context) => {
      const pending = first ? null : (context.pending as Case | null | undefined);
      const c = pending ?? drawCase(random, users, (user) => (acting.get(user) ?? 0) > 0);
      context.pending = null;
      inFlight.set(context, { c, started: performance.now() });
      act(c.user, 1);
      return {
        ...request,
        path: c.path,
        headers: { ...request.headers, authorization: `Bearer ${tokens[c.user]}`, 'cache-control': 'no-cache' },
      };
    },
    onResponse: (status, body, context) => {
      const sent = inFlight.get(context);
      if (!sent) return;
      inFlight.delete(context);
      const { c, started } = sent;
      act(c.user, -1);
      const ms = performance.now() - started;
      samples.push({ at: (started - origin) / 1000, kind: c.kind, ms, status, user: c.user, path: c.path });
      context.pending = first && status === 200 ? followUp(random, c, body) : null;
    },
  });
  return new Promise<{ samples: Sample[]; result: Result; cutOff: number }>((resolve, reject) => {
    autocannon(
      { url, connections: CLIENTS, duration: SECONDS, timeout: TIMEOUT_S, requests: [step(true), step(false)] },
      (err, result) => {
        if (err) return reject(err);
        const end = performance.now();
        let cutOff = 0;
        for (const { c, started } of inFlight.values()) {
          if (end - started < TIMEOUT_S * 1000) cutOff += 1;
          else {
            const at = (started - origin) / 1000;
            samples.push({ at, kind: c.kind, ms: TIMEOUT_S * 1000, status: 0, user: c.user, path: c.path });
          }
        }
        resolve({ samples, result, cutOff });
      },
    );
  });
}

function printWindow(s: WindowSummary): void {
  console.log(
    `\n${s.window.name}: ${s.requests.toLocaleString('en-US')} requests, ${s.rps.toFixed(0)}/s, non-2xx ${s.non2xx}, errors ${s.errors}` +
      (s.non2xx + s.errors > 0 ? ` (statuses ${JSON.stringify(s.statuses)})` : ''),
  );
  console.log('  kind            count      p50      p95      max   budget p95 / max (docs/performance.md)');
  for (const k of KINDS) {
    const r = s.kinds[k];
    const b = budgetOf(k);
    const pass = r.count > 0 && r.p95 <= b.p95 && r.max <= b.max;
    console.log(
      `  ${k.padEnd(14)} ${String(r.count).padStart(6)} ${fmt(r.p50).padStart(8)} ${fmt(r.p95).padStart(8)} ${fmt(r.max).padStart(8)}   ${b.p95} / ${b.max} ms ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  console.log(
    `  list (first + any page) p95 ${fmt(s.list.p95)} ms (target ≤ 25), stats p95 ${fmt(s.kinds.stats.p95)} ms (target ≤ 50)`,
  );
}

function budgetOf(kind: Kind): { p95: number; max: number } {
  if (kind === 'any page') return COMBINATION_BUDGETS.page;
  if (kind === 'stats') return COMBINATION_BUDGETS.stats;
  // The due summary and a page of the Entities page have the first page's budget (docs/performance.md).
  return COMBINATION_BUDGETS.first;
}

async function main(): Promise<number> {
  if (NGINX && !findNginx()) throw new Error('/usr/sbin/nginx not found (apt-get install nginx)');
  if (DB === 'postgres' && !findPgBin()) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  const spec: TenantsSpec = {
    users: USERS,
    invoicesPerUser: INVOICES,
    entitiesPerUser: ENTITIES,
    seed: DATA_SEED,
    username: USERNAME,
  };
  const at = new Date().toISOString();
  log(
    `many tenants: ${USERS} users × ${INVOICES} invoices on ${DB}, ${PROCESSES} process(es)${NGINX ? ' behind nginx' : ''}, ` +
      `${CLIENTS} clients, ${SECONDS} s, LEDGER_INDEX_MB=${INDEX_MB}, seed ${SEED}; commit ${commit()}; load ${loads()}`,
  );
  let cluster: PgCluster | null = null;
  let config: DatabaseConfig;
  // What the server processes are given: the seeder's URL, or the cluster's socket with `--pg-socket`.
  let serverUrl = '';
  let seedInfo: { seconds: number; cached: boolean; invoices: number; seededAt: number; counts: unknown };
  if (DB === 'postgres') {
    const cached = await cachedPostgresCluster(
      spec,
      // A production-like cluster for two processes of 10 connections each.
      {
        shared_buffers: '1GB',
        effective_cache_size: '4GB',
        work_mem: '16MB',
        max_wal_size: '8GB',
        checkpoint_timeout: '30min',
        maintenance_work_mem: '512MB',
      },
      args.reseed ?? false,
    );
    cluster = cached.cluster;
    config = { dialect: 'postgres', url: cluster.url };
    serverUrl = args['pg-socket'] ? cluster.socketUrl : cluster.url;
    seedInfo = cached.seed;
  } else {
    const cached = await cachedSqliteTenants(spec, args.reseed ?? false);
    config = { dialect: 'sqlite', file: cached.file };
    seedInfo = cached.seed;
  }
  const seedLine = `${seedInfo.invoices.toLocaleString('en-US')} invoices, ${JSON.stringify(seedInfo.counts)}, seeded in ${seedInfo.seconds.toFixed(0)} s at ${new Date(seedInfo.seededAt).toISOString()}${seedInfo.cached ? ' (cached)' : ''}`;
  log(`data set: ${seedLine}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-tenants-'));
  let deployment: Deployment | null = null;
  try {
    const sampleStart = performance.now();
    const users = await sampleLedgers(config, USERNAME);
    if (users.length !== USERS) throw new Error(`expected ${USERS} seeded ledgers, found ${users.length}`);
    log(`sampled ${users.length} ledgers in ${((performance.now() - sampleStart) / 1000).toFixed(1)} s`);
    const databaseUrl = config.dialect === 'postgres' ? serverUrl : `sqlite:${config.file}`;
    deployment = await deploy(databaseUrl, dataDir);
    const signStart = performance.now();
    const tokens = await signInAll(deployment.url, users);
    const signSeconds = (performance.now() - signStart) / 1000;
    log(`${tokens.length} users signed in in ${signSeconds.toFixed(1)} s; restarting the server processes`);
    await deployment.restart();
    // The clock: every process answers /health again (startServer resolves on its first 200).
    const origin = performance.now();
    const servers = deployment.servers;
    const rssStart = servers.map((s) => s.memory().rssKb);
    const loadBefore = loads();
    log(`clock started; ${CLIENTS} clients for ${SECONDS} s`);
    const { samples, result, cutOff } = await load(deployment.url, users, tokens, origin);
    const rssEnd = servers.map((s) => s.memory().rssKb);
    const rssPeak = servers.map((s) => s.peakRssKb());
    const loadAfter = loads();

    console.log(
      `\nMany tenants (issue 28): ${USERS.toLocaleString('en-US')} users × ${INVOICES.toLocaleString('en-US')} invoices ` +
        `(${ENTITIES} entities each) on ${DB === 'postgres' ? `${cluster?.version ?? 'PostgreSQL'} ${args['pg-socket'] ? 'through its Unix socket' : 'over TCP'}` : 'SQLite'}, ` +
        `${PROCESSES} server process(es)${NGINX ? ' behind nginx' : ''}, LEDGER_INDEX_MB=${INDEX_MB}, ${CLIENTS} clients, ${SECONDS} s from /health`,
    );
    console.log(`started ${at}; commit ${commit()}; seed ${SEED}, data seed ${DATA_SEED}`);
    console.log(`data set: ${seedLine}`);
    console.log(
      `every user signed in before the clock: ${signSeconds.toFixed(1)} s; load average before ${loadBefore}, after ${loadAfter}`,
    );
    const total = { name: `whole run (0–${SECONDS} s)`, from: 0, to: SECONDS };
    const summaries = [...windows(SECONDS), total].map((w) => summarizeWindow(samples, w));
    for (const s of summaries) printWindow(s);
    const firsts = firstPerUser(samples);
    console.log(
      `\neach user's first request after the clock (${firsts.users} of ${USERS} users reached): p50 ${fmt(firsts.p50)} ms, p95 ${fmt(firsts.p95)} ms, max ${fmt(firsts.max)} ms`,
    );
    console.log(
      `\nautocannon: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx of ${result.requests.total} requests; ${cutOff} still in flight when the run ended (not counted)`,
    );
    console.log('\nRSS per process (LEDGER_INDEX_MB is its setting for the ledger indexes):');
    servers.forEach((s, i) => {
      const start = rssStart[i] ?? Number.NaN;
      const peak = rssPeak[i] ?? Number.NaN;
      console.log(
        `  process ${i + 1} (pid ${s.pid}): start ${mb(start)}, peak ${mb(peak)}, end ${mb(rssEnd[i] ?? Number.NaN)}; ` +
          `growth at peak ${mb(peak - start)} against ${INDEX_MB} MB`,
      );
    });
    console.log('\nslowest requests (kind, ms, seconds after /health, user, path):');
    for (const s of slowestSamples(samples, 3)) {
      console.log(
        `  ${s.kind.padEnd(14)} ${fmt(s.ms).padStart(7)} ms  at ${s.at.toFixed(1).padStart(6)} s  ${users[s.user]?.username}  ${s.status === 200 ? '' : `[${s.status}] `}${s.path}`,
      );
    }
    const whole = summaries[summaries.length - 1] as WindowSummary;
    const checks = [
      { what: 'list p95 ≤ 25 ms (whole run)', pass: whole.list.p95 <= 25 },
      { what: 'stats p95 ≤ 50 ms (whole run)', pass: whole.kinds.stats.p95 <= 50 },
      { what: '0 errors and 0 non-2xx', pass: whole.errors + whole.non2xx === 0 && result.errors === 0 },
      // With the index off (0) there is no memory setting to hold the processes to.
      ...(INDEX_MB > 0
        ? [
            {
              what: `RSS growth per process ≤ LEDGER_INDEX_MB (${INDEX_MB} MB)`,
              pass: servers.every((_, i) => (rssPeak[i] ?? 0) - (rssStart[i] ?? 0) <= INDEX_MB * 1024),
            },
          ]
        : []),
    ];
    console.log('\nmany-tenant targets:');
    for (const c of checks) console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.what}`);
    const resultsDir = join(REPO_ROOT, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    const file = join(resultsDir, `tenants-${at.replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          at,
          commit: commit(),
          options: { USERS, INVOICES, ENTITIES, DB, PROCESSES, NGINX, CLIENTS, SECONDS, SEED, DATA_SEED, INDEX_MB },
          seed: seedInfo,
          signSeconds,
          firstPerUser: firsts,
          loadBefore,
          loadAfter,
          summaries,
          rss: servers.map((s, i) => ({ pid: s.pid, startKb: rssStart[i], peakKb: rssPeak[i], endKb: rssEnd[i] })),
          slowest: slowestSamples(samples, 10),
          checks,
        },
        null,
        2,
      ),
    );
    console.log(`\nwritten: ${file}`);
    return checks.every((c) => c.pass) ? 0 : 1;
  } catch (err) {
    for (const s of deployment?.servers ?? []) log(s.output());
    throw err;
  } finally {
    await deployment?.stop();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
