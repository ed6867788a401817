import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CATEGORIES } from '@billfold/contract/categories';
import { centsToDecimalString } from '@billfold/contract/money';
import { PAYMENT_METHOD_CODES } from '@billfold/contract/payment-methods';
import { DEFAULT_LIMITS } from '../packages/server/src/config.ts';
import { multipart } from '../packages/server/test/helpers/multipart.ts';
import { rawHeader } from '../packages/server/test/helpers/tar.ts';
import { parseArgs } from './lib/args.ts';
import { drawCombination, quantile } from './lib/combinations.ts';
import { BENCH_PASSWORD, BENCH_USER, sqliteDataset } from './lib/datasets.ts';
import { Random } from './lib/random.ts';
import { sampleData } from './lib/sample.ts';
import { type RunningServer, signIn, withServer } from './lib/server-process.ts';

/**
 * `npm run bench:stall`: does any one request stall the others? The real server (bench/lib/server-process.ts) on a
 * copy of the seeded SQLite file (1,000,000 invoices, `npm run seed`'s data set); a second client, in a worker
 * thread of its own so that this process's work never delays it, asks `GET /api/v1/health` every 10 ms for the
 * whole run. Meanwhile heavy requests drawn at random from the whole space run one at a time: account files from
 * 64 KiB up to the byte limit into fresh accounts (always one within 2 % of the limit; their entities, own
 * categories, payments per invoice, recycled entity and schedule drawn), account exports of those accounts and of
 * the seeded ledger, CSV previews and imports with wide headers (up to and far past the column limit), many rows
 * (up to and past the row limit) and long fields (up to and past the field limit), CSV exports and stats of the
 * 1,000,000-invoice ledger with random filters (from the ledger index, or by SQL with `--ledger-index-mb 0`), and
 * ledger archives (docs/decisions/1160-ledger-archive.md: a tar of `ledger.json` and `files/<sha256>`) imported into
 * fresh accounts, their files' count, sizes (up to the per-file limit) and types drawn, the first one's attachments
 * within 2 % of the ledger's quota, and the archive exports of those accounts. Each
 * health answer is counted against the heavy request that was running when it was asked; the report prints p50 /
 * p99 / max per kind against the budgets (p99 ≤ 100 ms, max ≤ 250 ms), PASS/FAIL, the seed, the slowest cases and
 * the server's RSS at each case's start and its peak while it ran. Data reaches the server only through the seeder
 * and the public API.
 */

const HELP = `Usage: npm run bench:stall -- [options]

  --cases N      heavy requests drawn (default 24; at least one of each kind)
  --seed N       replay a run (the same seed draws the same requests and files)
  --invoices N   the seeded ledger's size (default 1,000,000)
  --reseed       seed the ledger again even when a cached copy is fresh
  --account-mib N  the largest account file drawn (default: the limit, LIMIT_ACCOUNT_FILE_BYTES's default)
  --archive-mib N  the most attached bytes of a ledger archive drawn (default: the ledger's quota,
                 LIMIT_LEDGER_ATTACHMENT_BYTES's default)
  --ledger-index-mb N  the server's LEDGER_INDEX_MB (default: its own); 0 answers stats and CSV exports by SQL
  --help`;

const BUDGET = { p99: 100, max: 250 };
const POLL_MS = 10;

const args = parseArgs(process.argv.slice(2), {
  cases: 'number',
  seed: 'number',
  invoices: 'number',
  reseed: 'boolean',
  'account-mib': 'number',
  'archive-mib': 'number',
  'ledger-index-mb': 'number',
  help: 'boolean',
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const SEED = args.seed ?? Math.floor(Math.random() * 2 ** 31);
const CASES = Math.max(6, args.cases ?? 24);
const INVOICES = args.invoices ?? 1_000_000;
const LIMITS = DEFAULT_LIMITS;
const ACCOUNT_MAX = Math.min(LIMITS.accountFileBytes, (args['account-mib'] ?? Number.POSITIVE_INFINITY) * 1024 * 1024);
const ARCHIVE_MAX = Math.min(
  LIMITS.ledgerAttachmentBytes,
  (args['archive-mib'] ?? Number.POSITIVE_INFINITY) * 1024 * 1024,
);

type Kind =
  | 'account-import'
  | 'account-export'
  | 'csv-preview'
  | 'csv-import'
  | 'entries-export'
  | 'stats'
  | 'archive-import'
  | 'archive-export';
const KINDS: Kind[] = [
  'account-import',
  'account-export',
  'csv-preview',
  'csv-import',
  'entries-export',
  'stats',
  'archive-import',
  'archive-export',
];

interface Case {
  kind: Kind;
  what: string;
  status: number;
  bytesSent: number;
  bytesReceived: number;
  start: number;
  end: number;
  /** The server's VmRSS when the case started and the most it reached while it ran (sampled every 100 ms), MB. */
  rssStartMb?: number;
  rssPeakMb?: number;
}

// ---------- the health poller: its own thread and event loop ----------

const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const samples = [];
let running = true;
function once() {
  return new Promise((resolve) => {
    const at = performance.timeOrigin + performance.now();
    const req = http.get(workerData.url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ at, ms: performance.timeOrigin + performance.now() - at, status: res.statusCode }));
    });
    req.on('error', () => resolve({ at, ms: performance.timeOrigin + performance.now() - at, status: 0 }));
  });
}
(async () => {
  while (running) {
    samples.push(await once());
    await new Promise((r) => setTimeout(r, workerData.pollMs));
  }
})();
parentPort.on('message', () => {
  running = false;
  parentPort.postMessage(samples);
});
`;

interface Sample {
  at: number;
  ms: number;
  status: number;
}

function startPoller(url: string): { stop: () => Promise<Sample[]> } {
  const worker = new Worker(POLLER, { eval: true, workerData: { url: `${url}/api/v1/health`, pollMs: POLL_MS } });
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once('message', (samples: Sample[]) => {
          void worker.terminate();
          resolve(samples);
        });
        worker.postMessage('stop');
      }),
  };
}

// ---------- files ----------

const WORDS = ['Power', 'Water', 'Gas', 'Rent', 'Phone', 'Acme', 'Globex', 'Initech', 'Gym', 'Market', 'Cafe'];
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

/**
 * An account file of about `target` bytes, its shape drawn: 1 to 1,000 entities (some of its own categories, some in
 * the recycle bin with their invoices), invoices with 0 to 2 payments each (the share drawn per file), and sometimes
 * a weekly schedule whose occurrences point at invoices and payments. Version 3, or with `attached` the current
 * version 6 (the ledger's name, the schedule's amount mode) whose attachments name those files, each on an invoice or
 * a payment drawn; their rows come on top of `target` (within `ACCOUNT_MAX`).
 */
function accountFileOf(
  r: Random,
  target: number,
  attached?: readonly ArchiveFile[],
): { text: string; invoices: number; payments: number } {
  const entities = r.int(1, 1_000);
  const paidShare = r.next();
  const ownCategories = r.chance(0.5) ? r.int(1, 20) : 0;
  const created = Date.UTC(2026, 0, 1);
  const categories = Array.from({ length: ownCategories }, (_, i) =>
    JSON.stringify({ name: `Own ${i + 1}`, flow: 'expense', retired: false, createdAt: iso(created) }),
  );
  // The schedule's occurrences (about 140 bytes each, at most a tenth of the file) are counted in its size first.
  const occurrenceCount = r.chance(0.5) ? r.int(1, Math.max(1, Math.min(5_000, Math.floor(target / 1_400)))) : 0;
  const deletedEntity = entities > 1 && r.chance(0.5) ? r.int(1, entities) : 0;
  const entityRefs: string[] = [];
  for (let i = 1; i <= entities; i++) {
    entityRefs.push(
      JSON.stringify({
        ref: i,
        name: `${r.pick(WORDS)} ${r.pick(WORDS)} ${i}`,
        category: ownCategories > 0 && r.chance(0.3) ? `Own ${r.int(1, ownCategories)}` : r.pick(CATEGORIES),
        internal: false,
        archived: r.chance(0.05),
        createdAt: iso(created),
        deletedAt: i === deletedEntity ? iso(created + 86_400_000) : null,
      }),
    );
  }
  const invoices: string[] = [];
  const payments: string[] = [];
  // An attachment's row is counted with the widest ref it can get.
  const attachmentRow = (file: ArchiveFile, i: number, invoice: number | null, payment: number | null) =>
    JSON.stringify({
      invoice,
      payment,
      fileName: `scan ${i + 1}.${file.ext}`,
      contentType: file.type,
      size: file.size,
      sha256: file.sha256,
      createdAt: iso(created),
    });
  const rows = (attached ?? []).reduce((n, file, i) => n + attachmentRow(file, i, 99_999_999, null).length + 1, 0);
  const goal = attached ? Math.min(ACCOUNT_MAX, target + rows) : target;
  let bytes = 600 + occurrenceCount * 140 + rows + [...entityRefs, ...categories].reduce((n, e) => n + e.length + 1, 0);
  let n = 0;
  while (n === 0 || bytes < goal - 600) {
    n += 1;
    const cents = r.int(100, 500_000);
    const date = day(Date.UTC(2016, 0, 1) + r.int(0, 3_650) * 86_400_000);
    const entity = r.int(1, entities);
    const deleted = entity === deletedEntity;
    const invoice = JSON.stringify({
      ref: n,
      entity,
      number: n,
      date,
      flow: r.chance(0.2) ? 'income' : 'expense',
      amount: centsToDecimalString(cents),
      description: `Invoice ${n} ${r.pick(WORDS)}`,
      createdAt: iso(created),
      deletedAt: deleted ? iso(created + 86_400_000) : null,
      deletedWithEntity: deleted,
    });
    invoices.push(invoice);
    bytes += invoice.length + 1;
    const count = r.chance(paidShare) ? (r.chance(0.1) ? 2 : 1) : 0;
    for (let k = 0; k < count; k++) {
      const payment = JSON.stringify({
        ref: payments.length + 1,
        invoice: n,
        date,
        amount: centsToDecimalString(count === 1 && r.chance(0.9) ? cents : r.int(1, cents)),
        method: r.pick(PAYMENT_METHOD_CODES),
        notes: r.chance(0.1) ? `Paid ${r.pick(WORDS)}` : '',
        autopay: r.chance(0.1),
        createdAt: iso(created),
        deletedAt: deleted ? iso(created + 86_400_000) : null,
        deletedWithInvoice: deleted,
      });
      payments.push(payment);
      bytes += payment.length + 1;
    }
  }
  const schedules: string[] = [];
  if (occurrenceCount > 0) {
    const occurrences = Array.from({ length: Math.min(n, occurrenceCount) }, (_, k) => ({
      date: day(Date.UTC(1990, 0, 1) + k * 7 * 86_400_000),
      invoice: k + 1,
      autopayDate: null,
      payment: k < payments.length && r.chance(0.5) ? k + 1 : null,
      createdAt: iso(created),
    }));
    schedules.push(
      JSON.stringify({
        ref: 1,
        entity: r.int(1, entities),
        cadence: 'weekly',
        interval: 1,
        dayOfMonth: null,
        firstDate: '1990-01-01',
        endDate: null,
        count: null,
        amount: '10.00',
        ...(attached ? { amountMode: 'fixed', averageOf: null } : {}),
        flow: 'expense',
        description: 'Weekly',
        dueDays: 0,
        autopay: null,
        paused: false,
        nextDate: null,
        createdAt: iso(created),
        occurrences,
      }),
    );
  }
  // Attachments on invoices, or on payments one time in four (when the file has any).
  const attachments = (attached ?? []).map((file, i) =>
    payments.length > 0 && r.chance(0.25)
      ? attachmentRow(file, i, null, r.int(1, payments.length))
      : attachmentRow(file, i, r.int(1, n), null),
  );
  const text = [
    `{"format":"billfold-account","version":${attached ? 6 : 3},"exportedAt":"${iso(created)}","lastInvoiceNumber":${n},`,
    attached ? `"ledger":{"name":"Stall ${SEED}"},` : '',
    `"categories":[${categories.join(',')}],"entities":[${entityRefs.join(',')}],"invoices":[${invoices.join(',')}],`,
    `"payments":[${payments.join(',')}],"schedules":[${schedules.join(',')}]`,
    attached ? `,"attachments":[${attachments.join(',')}]}` : '}',
  ].join('');
  return { text, invoices: n, payments: payments.length };
}

type CsvShape = 'wide' | 'too-wide' | 'many-rows' | 'long-fields' | 'too-long-field' | 'too-many-rows';

/** A CSV file of the drawn shape, within the byte limit. */
function csvOf(r: Random, shape: CsvShape): { text: string; what: string } {
  const header = ['Date', 'Entity', 'Amount', 'Description'];
  const row = (i: number, description: string) =>
    `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},${r.pick(WORDS)} ${i % 500},-${r.int(1, 99_999)}.${String(r.int(0, 99)).padStart(2, '0')},${description}`;
  if (shape === 'too-wide') {
    // The attack of issue 26: a header of millions of columns, as large as the byte limit allows.
    const columns = Math.floor((LIMITS.csvBytes - 100) / 4);
    return {
      text: `${Array.from({ length: columns }, (_, i) => `c${i % 100}`).join(',')}\n1,2\n`,
      what: `${columns.toLocaleString('en-US')} columns`,
    };
  }
  if (shape === 'wide') {
    const columns = r.int(5, LIMITS.csvColumns);
    const extra = Array.from({ length: columns - header.length }, (_, i) => `Extra ${i}`);
    const rows = Math.min(LIMITS.importRows, Math.floor(LIMITS.csvBytes / (columns * 3 + 60)), r.int(100, 20_000));
    const lines = [[...header, ...extra].join(',')];
    const blanks = ','.repeat(extra.length);
    for (let i = 0; i < rows; i++) lines.push(`${row(i, `Row ${i}`)}${blanks}`);
    return { text: `${lines.join('\n')}\n`, what: `${columns} columns, ${rows.toLocaleString('en-US')} rows` };
  }
  if (shape === 'many-rows' || shape === 'too-many-rows') {
    const rows = shape === 'many-rows' ? r.int(10_000, LIMITS.importRows) : LIMITS.importRows + r.int(1, 50_000);
    const lines = [header.join(',')];
    for (let i = 0; i < rows; i++) lines.push(row(i, `Row ${i}`));
    return { text: `${lines.join('\n')}\n`, what: `${rows.toLocaleString('en-US')} rows` };
  }
  const length =
    shape === 'long-fields' ? r.int(1_000, LIMITS.csvFieldChars) : r.int(LIMITS.csvFieldChars + 1, 4_000_000);
  const rows = Math.max(1, Math.min(2_000, Math.floor((LIMITS.csvBytes - 1000) / (length + 60))));
  const lines = [header.join(',')];
  const text = 'x'.repeat(length);
  for (let i = 0; i < rows; i++) lines.push(row(i, text));
  return {
    text: `${lines.join('\n')}\n`,
    what: `${rows.toLocaleString('en-US')} rows with ${length.toLocaleString('en-US')}-character fields`,
  };
}

/** The first bytes the server tells each type by (`file-types.ts`), as an attached file of that type starts. */
const FILE_TYPES = [
  { type: 'application/pdf', ext: 'pdf', magic: Buffer.from('%PDF-1.7\n%', 'latin1') },
  { type: 'image/png', ext: 'png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', ext: 'jpg', magic: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) },
  { type: 'image/webp', ext: 'webp', magic: Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1') },
] as const;

/** An attached file of a ledger archive: its bytes are its type's first bytes, its id, then noise from `offset`. */
interface ArchiveFile {
  type: (typeof FILE_TYPES)[number]['type'];
  ext: string;
  size: number;
  id: string;
  offset: number;
  sha256: string;
}

/** 1 MiB of seeded noise that attached files are cut from (they are PDFs and photos: already compressed). */
const NOISE = (() => {
  const r = new Random(SEED ^ 0x2545f491);
  const noise = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < noise.length; i += 4) noise.writeUInt32LE(Math.floor(r.next() * 2 ** 32), i);
  return noise;
})();
/** The smallest file drawn: room for its type's bytes and its id. */
const FILE_MIN = 64;

/** A file's bytes, a chunk at a time (at most 1 MiB each, views of `NOISE`): never held whole. */
function* fileBytes(file: Omit<ArchiveFile, 'sha256'>): Generator<Buffer> {
  const magic = FILE_TYPES.find((t) => t.type === file.type)?.magic as Buffer;
  const head = Buffer.concat([magic, Buffer.from(` ${file.id}\n`, 'latin1')]).subarray(0, file.size);
  yield head;
  let left = file.size - head.length;
  let at = file.offset;
  while (left > 0) {
    const chunk = NOISE.subarray(at, at + Math.min(left, NOISE.length - at));
    yield chunk;
    left -= chunk.length;
    at = (at + chunk.length) % NOISE.length;
  }
}

/**
 * The files of a ledger archive whose attachments add up to at most `total` bytes (as the quota counts them), their
 * shape drawn: 1 to 32,000 files (the archive's header room holds 32,768; enough of them that `total` fits), sizes
 * spread log-normally and scaled to fill `total` with the largest cut at exactly `LIMIT_ATTACHMENT_BYTES`, and now and
 * then a file attached twice (the archive carries it once). Each file's SHA-256 is taken here, a pass over its bytes.
 */
function archiveFilesOf(r: Random, total: number, tag: string): { files: ArchiveFile[]; attached: ArchiveFile[] } {
  const most = Math.max(1, Math.min(32_000, Math.floor(total / FILE_MIN)));
  const drawn = Math.round(Math.exp(r.next() * Math.log(most)));
  const count = Math.min(most, Math.max(drawn, Math.ceil((total / LIMITS.attachmentBytes) * 1.25)));
  const weights = Array.from({ length: count }, () => r.logNormal(1, 1));
  // The largest scale whose sizes, each cut to the limits, add up to at most `total`.
  const sizeAt = (scale: number, w: number) =>
    Math.max(FILE_MIN, Math.min(LIMITS.attachmentBytes, Math.floor(scale * w)));
  let [low, high] = [0, total / Math.min(...weights)];
  for (let i = 0; i < 64; i++) {
    const mid = (low + high) / 2;
    if (weights.reduce((n, w) => n + sizeAt(mid, w), 0) <= total) low = mid;
    else high = mid;
  }
  const files: ArchiveFile[] = weights.map((w, i) => {
    const { type, ext } = r.pick(FILE_TYPES);
    const size = sizeAt(low, w);
    const file = { type, ext, size, id: `${tag}-${i + 1}`, offset: r.int(0, NOISE.length - 1) };
    const hash = createHash('sha256');
    for (const chunk of fileBytes(file)) hash.update(chunk);
    return { ...file, sha256: hash.digest('hex') };
  });
  let left = total - files.reduce((n, f) => n + f.size, 0);
  const attached = [...files];
  if (r.chance(0.5))
    for (let k = r.int(1, Math.ceil(count / 10)); k > 0; k--) {
      const again = r.pick(files);
      if (again.size > left) continue;
      attached.splice(r.int(0, attached.length), 0, again);
      left -= again.size;
    }
  return { files, attached };
}

/** The ledger archive: `ledger.json`, then each file once as `files/<sha256>`, then the end (test/helpers/tar.ts). */
function archiveOf(json: Buffer, files: readonly ArchiveFile[]): { length: number; chunks: () => Generator<Buffer> } {
  const padding = (size: number) => Buffer.alloc((512 - (size % 512)) % 512);
  const length =
    512 +
    json.length +
    padding(json.length).length +
    files.reduce((n, f) => n + 512 + f.size + padding(f.size).length, 0) +
    1024;
  return {
    length,
    *chunks() {
      yield rawHeader({ name: 'ledger.json', body: json });
      yield json;
      yield padding(json.length);
      for (const file of files) {
        yield rawHeader({ name: `files/${file.sha256}`, body: Buffer.alloc(0), size: file.size });
        yield* fileBytes(file);
        yield padding(file.size);
      }
      yield Buffer.alloc(1024);
    },
  };
}

// ---------- the API ----------

let users = 0;
async function newUser(server: RunningServer): Promise<{ username: string; password: string }> {
  users += 1;
  const user = {
    username: `stall_${SEED}_${users}`,
    email: `stall_${SEED}_${users}@example.com`,
    password: 'Str0ng!Passw0rd-stall',
  };
  const res = await fetch(`${server.url}/api/v1/auth/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!res.ok) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  return user;
}

/** A body sent a chunk at a time as the connection takes it, of a length known beforehand. */
interface Streamed {
  length: number;
  chunks: () => Iterable<Buffer>;
}

/**
 * Sends one request and reads the answer to its end, counting bytes (never holding a large body; a `Streamed` one is
 * not held whole either). node:http, not fetch: a 128 MiB import on a busy machine may take longer than fetch's
 * five-minute header timeout.
 */
function timed(
  kind: Kind,
  what: string,
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: Buffer | string | Streamed },
): Promise<Case> {
  const start = performance.timeOrigin + performance.now();
  const { body } = init;
  const streamed = typeof body === 'object' && !Buffer.isBuffer(body) ? body : null;
  const sent = body === undefined ? 0 : streamed ? streamed.length : Buffer.byteLength(body as Buffer | string);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? 'GET', headers: { ...init.headers, 'content-length': String(sent) } },
      (res) => {
        let received = 0;
        let head = '';
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (head.length < 300) head += chunk.subarray(0, 300).toString();
        });
        res.on('end', () => {
          const end = performance.timeOrigin + performance.now();
          const status = res.statusCode ?? 0;
          if (status >= 500) return reject(new Error(`${kind} ${what}: ${status} ${head}`));
          const refused = status >= 400 || /^\{"error"|\n\{"error"/.test(head);
          resolve({
            kind,
            what: `${what} → ${status}${refused ? ` ${head.replace(/\s+/g, ' ').slice(0, 100)}` : ''}`,
            status,
            bytesSent: sent,
            bytesReceived: received,
            start,
            end,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (!streamed) req.end(body as Buffer | string | undefined);
    else
      void (async () => {
        for (const chunk of streamed.chunks()) if (!req.write(chunk)) await once(req, 'drain');
        req.end();
      })().catch(reject);
  });
}

// ---------- the run ----------

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const r = new Random(SEED);
  console.log(
    `bench:stall seed ${SEED}: ${CASES} heavy requests on SQLite, ${INVOICES.toLocaleString('en-US')} invoices; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${cpus().length} cores)`,
  );
  const { file } = await sqliteDataset(INVOICES, args.reseed ?? false);
  const sample = await sampleData({ dialect: 'sqlite', file }, BENCH_USER);
  const indexMb = args['ledger-index-mb'];
  const env: Record<string, string> = indexMb === undefined ? {} : { LEDGER_INDEX_MB: String(indexMb) };
  await withServer({ databaseUrl: `sqlite:${file}`, dataDirPrefix: 'billfold-stall-', env }, async (server) => {
    const cases: Case[] = [];
    const demo = () => signIn(server, BENCH_USER, BENCH_PASSWORD);
    // The timed requests see the steady state: the ledger index loaded (docs/decisions/0405-ledger-index.md).
    // One sign-in for the wait, polled every 5 s: the minutes an index takes to load on a busy machine are no sign-in
    // benchmark.
    const waitToken = await demo();
    for (const started = Date.now(); indexMb !== 0; ) {
      const res = await fetch(`${server.url}/api/v1/entries/stats?invoiceNum=1`, {
        headers: { authorization: `Bearer ${waitToken}` },
      });
      await res.arrayBuffer();
      if (res.headers.get('server-timing') === 'ledger;desc=index') break;
      if (Date.now() - started > 600_000) throw new Error('the ledger index did not load');
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
    const poller = startPoller(server.url);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // an idle stretch, for the baseline
    const imported: { username: string; password: string; bytes: number }[] = [];
    const archived: { username: string; password: string; bytes: number; files: number }[] = [];
    const csvUser = await newUser(server);
    // One of each kind first (the largest account file and the largest archive among them), then the account export
    // of the seeded ledger, then kinds drawn at random (an account export is the seeded ledger's one time in four).
    const plan: Kind[] = [...KINDS, 'account-export'];
    while (plan.length < CASES) plan.push(r.pick(KINDS));
    let rssPeakKb = 0;
    const rssSampler = setInterval(() => {
      rssPeakKb = Math.max(rssPeakKb, server.memory().rssKb || 0);
    }, 100);
    for (const [index, drawn] of plan.entries()) {
      const rssStartKb = server.memory().rssKb;
      rssPeakKb = rssStartKb;
      const kind: Kind =
        drawn === 'account-export' && imported.length === 0
          ? 'account-import'
          : drawn === 'archive-export' && archived.length === 0
            ? 'archive-import'
            : drawn;
      if (kind === 'account-import') {
        const target =
          index === 0
            ? ACCOUNT_MAX - r.int(0, Math.floor(ACCOUNT_MAX * 0.02))
            : Math.round(Math.exp(Math.log(64 * 1024) + r.next() * Math.log(ACCOUNT_MAX / (64 * 1024))));
        const { text, invoices, payments } = accountFileOf(r, target);
        const user = await newUser(server);
        const token = await signIn(server, user.username, user.password);
        const c = await timed(
          kind,
          `${mib(text.length)} file, ${invoices.toLocaleString('en-US')} invoices, ${payments.toLocaleString('en-US')} payments`,
          `${server.url}/api/v1/account/import`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: text,
          },
        );
        cases.push(c);
        if (c.status === 200) imported.push({ ...user, bytes: text.length });
      } else if (kind === 'account-export') {
        const seeded = index === KINDS.length || r.chance(0.25);
        const user = seeded ? null : r.pick(imported);
        const token = user ? await signIn(server, user.username, user.password) : await demo();
        const what = user
          ? `account of a ${mib(user.bytes)} file`
          : `the seeded ledger (${INVOICES.toLocaleString('en-US')} invoices)`;
        cases.push(
          await timed(kind, what, `${server.url}/api/v1/account/export`, {
            headers: { authorization: `Bearer ${token}` },
          }),
        );
      } else if (kind === 'archive-import') {
        // The first archive's attachments within 2 % of the quota; the others' drawn from 64 KiB up to it. The
        // JSON's size is drawn as an account file's, whatever the files.
        const total =
          archived.length === 0 && !cases.some((c) => c.kind === 'archive-import')
            ? ARCHIVE_MAX - r.int(0, Math.floor(ARCHIVE_MAX * 0.02))
            : Math.round(Math.exp(Math.log(64 * 1024) + r.next() * Math.log(ARCHIVE_MAX / (64 * 1024))));
        const { files, attached } = archiveFilesOf(r, total, `${SEED}-${index + 1}`);
        const target = Math.round(Math.exp(Math.log(64 * 1024) + r.next() * Math.log(ACCOUNT_MAX / (64 * 1024))));
        const { text, invoices, payments } = accountFileOf(r, target, attached);
        const json = Buffer.from(text);
        const archive = archiveOf(json, files);
        const bytes = attached.reduce((n, f) => n + f.size, 0);
        const largest = Math.max(...files.map((f) => f.size));
        const user = await newUser(server);
        const token = await signIn(server, user.username, user.password);
        const c = await timed(
          kind,
          `${mib(archive.length)} archive: ${files.length.toLocaleString('en-US')} files (largest ${mib(largest)}), ${attached.length.toLocaleString('en-US')} attachments of ${mib(bytes)}; ${mib(json.length)} JSON, ${invoices.toLocaleString('en-US')} invoices, ${payments.toLocaleString('en-US')} payments`,
          `${server.url}/api/v1/account/import`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-tar' },
            body: archive,
          },
        );
        cases.push(c);
        if (c.status === 200) archived.push({ ...user, bytes: archive.length, files: files.length });
      } else if (kind === 'archive-export') {
        const user = r.pick(archived);
        const token = await signIn(server, user.username, user.password);
        cases.push(
          await timed(
            kind,
            `account of a ${mib(user.bytes)} archive (${user.files.toLocaleString('en-US')} files)`,
            `${server.url}/api/v1/account/export`,
            { headers: { authorization: `Bearer ${token}` } },
          ),
        );
      } else if (kind === 'csv-preview' || kind === 'csv-import') {
        const shapes: CsvShape[] =
          kind === 'csv-preview'
            ? ['wide', 'too-wide', 'many-rows', 'long-fields', 'too-long-field', 'too-many-rows']
            : ['wide', 'many-rows', 'long-fields'];
        const shape = r.pick(shapes);
        const { text, what } = csvOf(r, shape);
        const body = multipart({ name: `stall-${index}.csv`, content: text });
        const token = await signIn(server, csvUser.username, csvUser.password);
        cases.push(
          await timed(
            kind,
            `${shape}: ${what}, ${mib(body.payload.length)}`,
            `${server.url}/api/v1/${kind === 'csv-preview' ? 'imports/preview' : 'imports'}`,
            {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, ...body.headers },
              body: body.payload,
            },
          ),
        );
      } else {
        const c = drawCombination(r, sample);
        const query = kind === 'stats' ? c.filters : `${c.filters}${c.filters ? '&' : ''}${c.sort}`;
        const path = kind === 'stats' ? '/api/v1/entries/stats' : '/api/v1/entries/export';
        cases.push(
          await timed(kind, `${path}?${query}`, `${server.url}${path}?${query}`, {
            headers: { authorization: `Bearer ${await demo()}`, 'cache-control': 'no-cache' },
          }),
        );
      }
      const last = cases.at(-1) as Case;
      last.rssStartMb = rssStartKb / 1024;
      last.rssPeakMb = Math.max(rssPeakKb, server.memory().rssKb || 0) / 1024;
      console.log(
        `  ${String(index + 1).padStart(3)} ${last.kind.padEnd(14)} ${((last.end - last.start) / 1000).toFixed(2).padStart(7)} s  RSS ${last.rssStartMb.toFixed(0)} → ${last.rssPeakMb.toFixed(0)} MB  ${last.what.slice(0, 140)}`,
      );
    }
    clearInterval(rssSampler);
    report(cases, await poller.stop(), server.peakRssKb());
  });
}

function report(cases: Case[], samples: Sample[], peakRssKb: number): void {
  const during = (c: Case) => samples.filter((s) => s.at >= c.start && s.at <= c.end);
  const baseline = samples.filter((s) => !cases.some((c) => s.at >= c.start - 50 && s.at <= c.end + 50));
  const failed = samples.filter((s) => s.status !== 200).length;
  const line = (label: string, ms: number[], n: number) => {
    const p50 = quantile(ms, 0.5);
    const p99 = quantile(ms, 0.99);
    const max = Math.max(...ms);
    const pass = p99 <= BUDGET.p99 && max <= BUDGET.max;
    return {
      text: `  ${label.padEnd(16)} ${String(n).padStart(5)} ${String(ms.length).padStart(8)} ${p50.toFixed(1).padStart(8)} ${p99.toFixed(1).padStart(8)} ${max.toFixed(1).padStart(8)}  ${pass ? 'PASS' : 'FAIL'}`,
      pass,
    };
  };
  console.log(
    `\nseed ${SEED}; health asked every ${POLL_MS} ms from its own thread; budgets p99 ≤ ${BUDGET.p99} ms, max ≤ ${BUDGET.max} ms`,
  );
  console.log(
    `  ${'while running'.padEnd(16)} ${'cases'.padStart(5)} ${'health'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`,
  );
  let pass = failed === 0;
  for (const kind of KINDS) {
    const ofKind = cases.filter((c) => c.kind === kind);
    const ms = ofKind.flatMap((c) => during(c).map((s) => s.ms));
    if (ms.length === 0) continue;
    const l = line(kind, ms, ofKind.length);
    pass &&= l.pass;
    console.log(l.text);
  }
  const all = cases.flatMap((c) => during(c).map((s) => s.ms));
  const l = line('any heavy', all, cases.length);
  pass &&= l.pass;
  console.log(l.text);
  if (baseline.length > 0)
    console.log(
      line(
        'idle (baseline)',
        baseline.map((s) => s.ms),
        0,
      ).text.replace(/PASS|FAIL/, ''),
    );
  console.log(`  health answers other than 200: ${failed}; server peak RSS ${(peakRssKb / 1024).toFixed(0)} MB`);
  console.log('slowest cases (by the slowest health answer while each ran):');
  const ranked = cases
    .map((c) => ({ c, worst: Math.max(0, ...during(c).map((s) => s.ms)) }))
    .sort((a, b) => b.worst - a.worst)
    .slice(0, 6);
  for (const { c, worst } of ranked)
    console.log(
      `  health max ${worst.toFixed(1)} ms during ${c.kind} (${((c.end - c.start) / 1000).toFixed(2)} s, RSS ${c.rssStartMb?.toFixed(0)} → ${c.rssPeakMb?.toFixed(0)} MB): ${c.what.slice(0, 160)}`,
    );
  console.log(pass ? 'PASS' : 'FAIL');
  if (!pass) process.exitCode = 1;
}

await main();
