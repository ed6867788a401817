import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { centsToDecimalString } from '@billfold/contract/money';
import { PAYMENT_METHOD_CODES, paymentMethodLabel } from '@billfold/contract/payment-methods';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { rollupDifferences } from '../packages/server/src/modules/read-model/rollup-tables.ts';
import { multipart } from '../packages/server/test/helpers/multipart.ts';
import { findPgBin, type PgCluster, startPgCluster } from '../packages/server/test/helpers/pg-cluster.ts';
import { parseArgs } from './lib/args.ts';
import { Random } from './lib/random.ts';

/**
 * `npm run bench:import`: CSV imports of random files through the real routes (`app.inject`, multipart) into a
 * fresh SQLite file (and, with `--db`, a throwaway PostgreSQL cluster), one after the other into one account, so
 * each file lands in a database that already holds the earlier ones. Timed from upload to the last NDJSON line:
 * preview, then commit, with the CPU time this process spent (the machine may be shared: the load average is
 * printed before and after). Each file draws its layout (signed amount or debit/credit, date format, delimiter,
 * currency style, paid and method columns) and every cell at random; the target is 100,000 rows committed in at
 * most 10 s on SQLite. Prints the seed, every file's timings (slowest first) and checks the rollups afterwards
 * (not timed).
 */

const HELP = `Usage: npm run bench:import -- [options]

  --rows N    data rows per file (default 100,000)
  --files N   files imported one after the other into the same account (default 3)
  --seed N    replay a run (the same seed draws the same files)
  --db LIST   sqlite,postgres (default sqlite; postgres starts a throwaway cluster, as npm run bench does)
  --help`;

const TARGET_MS = 10_000;
const args = parseArgs(process.argv.slice(2), {
  rows: 'number',
  files: 'number',
  seed: 'number',
  db: 'string',
  help: 'boolean',
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const ROWS = args.rows ?? 100_000;
const FILES = args.files ?? 3;
const SEED = args.seed ?? Math.floor(Math.random() * 2 ** 31);
const DIALECTS = (args.db ?? 'sqlite').split(',').map((d) => d.trim());
for (const d of DIALECTS) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`--db: unknown database "${d}"`);

const WORDS = [
  'Power',
  'Water',
  'Gas',
  'Rent',
  'Phone',
  'Acme',
  'Globex',
  'Initech',
  'Gym',
  'Market',
  'Cafe',
  'Garage',
];
const FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;

interface Layout {
  signed: boolean;
  dateFormat: (typeof FORMATS)[number];
  delimiter: string;
  currency: boolean;
  payments: boolean;
}

function csvCell(text: string): string {
  return /[",\r\n;\t]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function dateText(r: Random, format: Layout['dateFormat']): string {
  const [y, m, d] = [r.int(2000, 2030), r.int(1, 12), r.int(1, 28)];
  const [mm, dd] = [String(m).padStart(2, '0'), String(d).padStart(2, '0')];
  if (format === 'YYYY-MM-DD') return `${y}-${mm}-${dd}`;
  if (format === 'MM/DD/YYYY') return `${mm}/${dd}/${y}`;
  return `${dd}.${mm}.${y}`;
}

function amountText(r: Random, cents: number, layout: Layout): string {
  const plain = centsToDecimalString(Math.abs(cents));
  const grouped = plain.replace(/\B(?=(\d{3})+(?!\d))/g, (m, offset: number) =>
    offset < plain.indexOf('.') ? ',' : m,
  );
  const body = layout.currency ? `$${r.chance(0.5) ? grouped : plain}` : plain;
  if (cents >= 0) return body;
  return r.chance(0.5) ? `-${body}` : `(${body})`;
}

function makeFile(r: Random, rows: number): { csv: string; layout: Layout } {
  const layout: Layout = {
    signed: r.chance(0.5),
    dateFormat: r.pick(FORMATS),
    delimiter: r.pick([',', ';', '\t']),
    currency: r.chance(0.5),
    payments: r.chance(0.5),
  };
  const entities = Array.from({ length: r.int(5, 2_000) }, (_, i) => `${r.pick(WORDS)} ${r.pick(WORDS)} ${i}`);
  const headers = ['Date', 'Payee', 'Memo', ...(layout.signed ? ['Amount'] : ['Debit', 'Credit'])];
  if (layout.payments) headers.push('Paid', 'Payment Method');
  const lines = [headers.join(layout.delimiter)];
  for (let i = 0; i < rows; i++) {
    const cents = r.int(1, r.chance(0.01) ? 99_999_999_999 : 500_000) * (r.chance(0.7) ? -1 : 1);
    const cells = [dateText(r, layout.dateFormat), r.pick(entities), `Row ${i} ${r.pick(WORDS)}, "note"`];
    if (layout.signed) cells.push(amountText(r, cents, layout));
    else if (cents < 0) cells.push(amountText(r, -cents, layout), '');
    else cells.push('', amountText(r, cents, layout));
    if (layout.payments) {
      const paid = r.chance(0.4) ? r.int(1, Math.abs(cents)) : 0;
      cells.push(paid ? centsToDecimalString(paid) : '', paid ? paymentMethodLabel(r.pick(PAYMENT_METHOD_CODES)) : '');
    }
    lines.push(cells.map((c) => csvCell(c)).join(layout.delimiter));
  }
  return { csv: `${lines.join('\n')}\n`, layout };
}

interface Result {
  dialect: string;
  file: number;
  layout: Layout;
  bytes: number;
  previewMs: number;
  commitMs: number;
  commitCpuMs: number;
  invoices: number;
}

/** Imports FILES random files one after the other into one account of a fresh database; checks the rollups. */
async function runOn(databaseUrl: string, dir: string): Promise<{ results: Result[]; exact: boolean }> {
  const config = loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: 'bench-import-secret-bench-import-secret-0123',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
  });
  const database = config.database;
  const app = await buildApp(config);
  try {
    const user = { username: 'bench_import', email: 'bench_import@example.com', password: 'Str0ng!Passw0rd' };
    await app.inject({ method: 'POST', url: '/api/v1/auth/create', payload: user });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: user });
    const auth = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` };
    const random = new Random(SEED);
    const results: Result[] = [];
    for (let n = 1; n <= FILES; n++) {
      const { csv, layout } = makeFile(random, ROWS);
      const send = async (url: string) => {
        const body = multipart({ name: `bench-${n}.csv`, content: csv });
        const [started, cpu] = [performance.now(), process.cpuUsage()];
        const res = await app.inject({
          method: 'POST',
          url,
          headers: { ...auth, ...body.headers },
          payload: body.payload,
        });
        const used = process.cpuUsage(cpu);
        return { res, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
      };
      const preview = await send('/api/v1/imports/preview');
      if (preview.res.statusCode !== 200) throw new Error(`preview failed: ${preview.res.body.slice(0, 500)}`);
      const commit = await send('/api/v1/imports');
      const last = JSON.parse(commit.res.body.trim().split('\n').at(-1) ?? '{}') as {
        result?: { invoices: number };
        error?: string;
      };
      if (commit.res.statusCode !== 200 || !last.result)
        throw new Error(`commit failed: ${commit.res.statusCode} ${commit.res.body.slice(0, 500)}`);
      results.push({
        dialect: database.dialect,
        file: n,
        layout,
        bytes: csv.length,
        previewMs: preview.ms,
        commitMs: commit.ms,
        commitCpuMs: commit.cpuMs,
        invoices: last.result.invoices,
      });
      console.log(
        `  ${database.dialect} file ${n}: ${(csv.length / 1024 / 1024).toFixed(1)} MB, ${last.result.invoices.toLocaleString('en-US')} invoices imported — preview ${preview.ms.toFixed(0)} ms, commit ${commit.ms.toFixed(0)} ms (${commit.cpuMs.toFixed(0)} ms CPU in this process)`,
      );
    }
    const differences = await rollupDifferences(app.db);
    console.log(
      `  ${database.dialect} rollups after the imports: ${differences.length === 0 ? 'exact' : `${differences.length} differences`}`,
    );
    return { results, exact: differences.length === 0 };
  } finally {
    await app.close();
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `bench:import seed ${SEED}: ${FILES} files of ${ROWS.toLocaleString('en-US')} rows on ${DIALECTS.join(', ')}; load average ${load()} (${cpus().length} cores)`,
);
const all: Result[] = [];
let exact = true;
for (const dialect of DIALECTS) {
  const dir = mkdtempSync(join(tmpdir(), 'billfold-bench-import-'));
  let cluster: PgCluster | null = null;
  try {
    if (dialect === 'postgres') {
      if (!findPgBin()) throw new Error('No PostgreSQL binaries under /usr/lib/postgresql');
      // The settings of `npm run bench`: fsync on, memory sized for a shared 2-core machine.
      cluster = await startPgCluster({
        settings: { shared_buffers: '512MB', effective_cache_size: '2GB', work_mem: '16MB', max_wal_size: '4GB' },
      });
    }
    const run = await runOn(cluster ? cluster.url : `sqlite:${join(dir, 'bench.db')}`, dir);
    all.push(...run.results);
    exact &&= run.exact;
  } finally {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`load average afterwards ${load()}; slowest commits first:`);
for (const r of [...all].sort((a, b) => b.commitMs - a.commitMs))
  console.log(
    `  ${r.dialect} file ${r.file}: commit ${r.commitMs.toFixed(0)} ms (${r.commitMs <= TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS / 1000} s target), preview ${r.previewMs.toFixed(0)} ms, layout ${JSON.stringify(r.layout)}`,
  );
const worst = Math.max(...all.filter((r) => r.dialect === 'sqlite').map((r) => r.commitMs));
if (Number.isFinite(worst))
  console.log(
    `worst SQLite commit ${worst.toFixed(0)} ms for ${ROWS.toLocaleString('en-US')} rows: ${worst <= TARGET_MS ? 'PASS' : 'FAIL'}`,
  );
if (!exact || worst > TARGET_MS) process.exitCode = 1;
