import { parseArgs } from './lib/args.ts';
import { BENCH_PASSWORD, BENCH_USER, sqliteDataset } from './lib/datasets.ts';
import { type RunningServer, signIn, withServer } from './lib/server-process.ts';

/**
 * `npm run bench:index-memory -- [options]`: how much a large ledger raises the server's memory under a small
 * `LEDGER_INDEX_MB` (docs/decisions/0405-ledger-index.md, Memory). The seeded SQLite data set (bench/seed) is
 * served by the real server with the cap; after start-up (and its preload) the benchmark signs in and runs what
 * would load the ledger index — stats, list pages in several sorts, a deep page, the whole export — twice, with a
 * pause for a background load between, sampling VmRSS every 200 ms. The ledger's index does not fit, so SQL
 * answers (`Server-Timing: ledger;desc=sql`) and RSS must grow by at most three times the cap. `--mb 512` (the
 * default) shows the same reads with the index loaded, for comparison.
 */
const HELP = `Usage: npm run bench:index-memory -- [options]

  --invoices N   invoices of the seeded ledger (default 1,000,000)
  --mb N         LEDGER_INDEX_MB of the server (default 32)
  --settle N     seconds to wait for a background index load between the rounds (default 20)
  --reseed       seed the data set again even when a cached one is current
  --help`;

const mb = (kb: number) => kb / 1024;

/** One request read to its end; returns who answered the stats (index or SQL) when it says. */
async function get(server: RunningServer, token: string, path: string): Promise<string | null> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const reader = res.body?.getReader();
  if (reader) for (let r = await reader.read(); !r.done; r = await reader.read());
  return res.headers.get('server-timing');
}

const READS = [
  '/entries/stats',
  '/entries/stats?startDate=2024-01-01&flow=expense',
  '/entries?sortField=services&sortOrder=desc',
  '/entries?sortField=amount&min=100&max=900',
  '/entries?sortField=name&pageNum=4999',
  '/entries/export?sortField=amount',
];

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), {
    invoices: 'number',
    mb: 'number',
    settle: 'number',
    reseed: 'boolean',
    help: 'boolean',
  });
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  const invoices = args.invoices ?? 1_000_000;
  const capMb = args.mb ?? 32;
  const settle = args.settle ?? 20;
  const { file } = await sqliteDataset(invoices, args.reseed ?? false);
  const env = { LEDGER_INDEX_MB: String(capMb) };
  return withServer({ databaseUrl: `sqlite:${file}`, dataDirPrefix: 'billfold-index-memory-', env }, async (server) => {
    // The baseline is the server just started, before it sizes or preloads any ledger (`preload` runs at start).
    const baseline = server.memory().rssKb;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const afterPreload = server.memory().rssKb;
    const token = await signIn(server, BENCH_USER, BENCH_PASSWORD);
    const answers = new Set<string>();
    const started = performance.now();
    for (let round = 1; round <= 2; round++) {
      for (const path of READS) {
        const timing = await get(server, token, path);
        if (path.startsWith('/entries/stats') && timing) answers.add(timing);
      }
      if (round === 1) await new Promise((resolve) => setTimeout(resolve, settle * 1000));
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = server.peakRssKb();
    const end = server.memory().rssKb;
    const growth = mb(peak - baseline);
    const limit = 3 * capMb;
    console.log(`Ledger index memory, SQLite, ${invoices.toLocaleString('en-US')} invoices, LEDGER_INDEX_MB=${capMb}`);
    console.log(`  reads: ${READS.length} kinds x 2 rounds (${settle} s apart), ${seconds.toFixed(1)} s`);
    console.log(`  stats answered by: ${[...answers].join(', ') || 'unknown'}`);
    console.log(
      `  RSS at start ${mb(baseline).toFixed(0)} MB, after preload ${mb(afterPreload).toFixed(0)} MB, ` +
        `peak ${mb(peak).toFixed(0)} MB, end ${mb(end).toFixed(0)} MB`,
    );
    const pass = growth <= limit;
    console.log(
      `  growth ${growth.toFixed(0)} MB (limit ${limit} MB = 3 x LEDGER_INDEX_MB): ${pass ? 'PASS' : 'FAIL'}`,
    );
    return pass ? 0 : 1;
  });
}

process.exitCode = await main();
