import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from './lib/args.ts';
import { COMBINATION_BUDGETS, drawCombination, newGenerator, quantile, timedGet } from './lib/combinations.ts';
import { BENCH_PASSWORD, BENCH_USER, sqliteDataset } from './lib/datasets.ts';
import { sampleData } from './lib/sample.ts';
import { signIn, startServer } from './lib/server-process.ts';

/**
 * `npm run bench:index-ready -- [options]`: how soon after start the seeded 1,000,000-invoice ledger answers from
 * its index (docs/decisions/0407-saved-ledger-index.md), and what a client waits meanwhile. The real server on the
 * seeded SQLite file and a fresh data directory: first with no saved copy (the index loads from the database, then
 * saves itself), then `--runs` restarts on the same directory (the copy saved by the run before). From the moment
 * `/health` answers, a client asks first pages of random filter combinations (every filter, sort and order:
 * bench/lib/combinations.ts) one after another, and a cheap stats request every 100 ms says which answered
 * (`Server-Timing`). Prints, per start: health after spawn, index ready after health, and the first pages asked
 * until then and in the 10 s after, p50 / p95 / max against the first page's budget; the seed and the slowest.
 */
const HELP = `Usage: npm run bench:index-ready -- [options]

  --invoices N   invoices of the seeded ledger (default 1,000,000)
  --runs N       restarts that read the saved copy (default 3)
  --seed S       seed of the drawn combinations (default: random, printed)
  --quiet-cold   no client requests while the first start loads from the database (it takes minutes on SQL's
                 answers' account); only the saved copy's starts are then measured with the client
  --reseed       seed the data set again even when a cached one is current
  --help`;

const READY_PROBE = '/entries/stats?invoiceNum=1';
const AFTER_READY_MS = 10_000;

interface Timed {
  url: string;
  ms: number;
  at: number;
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '—' : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
function line(label: string, timed: Timed[]): string {
  const ms = timed.map((t) => t.ms);
  const p95 = quantile(ms, 0.95);
  const max = ms.length === 0 ? Number.NaN : Math.max(...ms);
  const pass = timed.length === 0 || (p95 <= COMBINATION_BUDGETS.first.p95 && max <= COMBINATION_BUDGETS.first.max);
  return `${label.padEnd(26)} ${String(timed.length).padStart(5)}  ${fmt(quantile(ms, 0.5)).padStart(7)} ${fmt(p95).padStart(7)} ${fmt(max).padStart(7)} ms  ${pass ? 'PASS' : 'FAIL'}`;
}

async function oneStart(
  file: string,
  dataDir: string,
  draw: () => string,
  label: string,
  client: boolean,
): Promise<{ health: number; ready: number; before: Timed[]; after: Timed[] }> {
  const spawned = performance.now();
  const server = await startServer({ databaseUrl: `sqlite:${file}`, dataDir, logLevel: 'info' });
  const healthAt = performance.now();
  try {
    const token = await signIn(server, BENCH_USER, BENCH_PASSWORD);
    let readyAt = Number.NaN;
    const probing = (async () => {
      while (Number.isNaN(readyAt)) {
        const { timing } = await timedGet({ url: server.url, token }, `/api/v1${READY_PROBE}`);
        if (timing.includes('index')) readyAt = performance.now();
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const pages: Timed[] = [];
    while (!client && Number.isNaN(readyAt)) await new Promise((resolve) => setTimeout(resolve, 100));
    for (;;) {
      const url = draw();
      const at = performance.now();
      const { ms } = await timedGet({ url: server.url, token }, `/api/v1${url}`);
      pages.push({ url, ms, at });
      if (!Number.isNaN(readyAt) && at > readyAt + AFTER_READY_MS) break;
      if (at - healthAt > 600_000) throw new Error(`${label}: the index was not ready within 10 minutes`);
    }
    await probing;
    const before = pages.filter((p) => p.at < readyAt);
    const after = pages.filter((p) => p.at >= readyAt);
    return { health: healthAt - spawned, ready: readyAt - healthAt, before, after };
  } finally {
    // SIGTERM: the server saves its large indexes that moved, as a deploy's stop does.
    await server.stop();
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), {
    invoices: 'number',
    runs: 'number',
    seed: 'number',
    reseed: 'boolean',
    'quiet-cold': 'boolean',
    help: 'boolean',
  });
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = args.runs ?? 3;
  const { file } = await sqliteDataset(args.invoices ?? 1_000_000, args.reseed ?? false);
  const sample = await sampleData({ dialect: 'sqlite', file }, BENCH_USER);
  const r = newGenerator(seed);
  const draw = () => {
    const c = drawCombination(r, sample);
    return `/entries?${c.filters}${c.filters ? '&' : ''}${c.sort}`;
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-index-ready-'));
  console.log(`bench:index-ready: ${sample.liveEntries.toLocaleString('en-US')} live invoices, seed ${seed}`);
  console.log(
    `first pages of random combinations (budget p95 ≤ ${COMBINATION_BUDGETS.first.p95} ms, max ≤ ${COMBINATION_BUDGETS.first.max} ms)`,
  );
  let failed = false;
  const slowest: Timed[] = [];
  try {
    for (let run = 0; run <= runs; run++) {
      const label = run === 0 ? 'from the database' : `saved copy, start ${run}`;
      const result = await oneStart(file, dataDir, draw, label, run > 0 || !args['quiet-cold']);
      console.log(
        `\n${label}: /health ${fmt(result.health)} ms after spawn; index answering ${fmt(result.ready)} ms after /health`,
      );
      console.log(
        `${'requests'.padEnd(26)} ${'n'.padStart(5)}  ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'max'.padStart(7)}`,
      );
      console.log(line('  until the index answers', result.before));
      console.log(line(`  the ${AFTER_READY_MS / 1000} s after`, result.after));
      if (run > 0 && result.ready > 3_000) failed = true;
      slowest.push(...result.before, ...result.after);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\nslowest first pages:');
  for (const t of slowest.sort((a, b) => b.ms - a.ms).slice(0, 5)) console.log(`  ${fmt(t.ms)} ms  ${t.url}`);
  console.log(`\nready within 3 s of /health from the saved copy: ${failed ? 'FAIL' : 'PASS'} (seed ${seed})`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
