import { BILL_PAGE_SIZES, BILL_SORT_FIELDS, type BillOverviewList } from '@billfold/contract/bills';
import { CATEGORIES } from '@billfold/contract/categories';
import { utcDate } from '@billfold/contract/dates';
import { type EntryList, SORT_FIELDS } from '@billfold/contract/entries';
import { TREND_INTERVALS } from '@billfold/contract/trends';
import { Random } from './random.ts';
import type { DataSample } from './sample.ts';

/**
 * Filter combinations drawn at random from the whole filter panel (invoice #, categories, entities, a single
 * date or a range, min/max, the four paid states, the three flows, archives, overdue or due within N days) with
 * any of the 12 sorts in either order. Each field is set or not independently, so every combination can come up;
 * the benchmark cannot pick its cases.
 */

/** What drawing a combination needs to know of a ledger. */
export type CombinationSample = Pick<DataSample, 'firstDate' | 'lastDate' | 'entityNames' | 'invoiceNumbers'>;

export interface Combination {
  /** The filters as a query string (no sort, no page). */
  filters: string;
  sort: string;
}

const DAY = 86_400_000;

/** Amounts in cents around the seeded figures: from a few dollars to tens of thousands. */
function amount(r: Random): number {
  return Math.round(r.logNormal(8_000, 1.6));
}

export function drawCombination(r: Random, sample: CombinationSample): Combination {
  const q = new URLSearchParams();
  const first = Date.parse(sample.firstDate);
  const last = Date.parse(sample.lastDate);
  const days = Math.max(1, Math.round((last - first) / DAY));
  if (r.chance(0.4)) {
    const kind = r.int(0, 3);
    const a = first + r.int(0, days) * DAY;
    // Ranges from a day to the whole ledger, short ones as likely as long ones.
    const b = Math.min(last, a + Math.round(Math.exp(r.next() * Math.log(days))) * DAY);
    // A single date, a range, from a day on, up to a day.
    if (kind !== 3) q.set('startDate', utcDate(a));
    if (kind === 0) q.set('endDate', utcDate(a));
    if (kind === 1 || kind === 3) q.set('endDate', utcDate(b));
  }
  if (r.chance(0.05) && sample.invoiceNumbers.length > 0) q.set('invoiceNum', String(r.pick(sample.invoiceNumbers)));
  if (r.chance(0.2) && sample.entityNames.length > 0) {
    for (let i = r.int(1, 3); i > 0; i--) q.append('partyList', r.pick(sample.entityNames));
  }
  if (r.chance(0.3)) {
    for (let i = r.int(1, 3); i > 0; i--) q.append('categoryList', r.pick(CATEGORIES));
  }
  if (r.chance(0.3)) {
    const [lo, hi] = [amount(r), amount(r)].sort((x, y) => x - y) as [number, number];
    const both = r.int(0, 2);
    if (both !== 2) q.set('min', (lo / 100).toFixed(2));
    if (both !== 1) q.set('max', (hi / 100).toFixed(2));
  }
  if (r.chance(0.35)) q.set('flow', r.pick(['income', 'expense', 'internal']));
  if (r.chance(0.4)) q.set('paid', r.pick(['true', 'false', 'overpaid', 'partial']));
  if (r.chance(0.3)) q.set('archives', r.pick(['true', 'false']));
  if (r.chance(0.3)) {
    // Overdue, or due within a few days to a year, seen from a day of the ledger (or the server's today).
    const due = r.pick(['overdue', 'upcoming']);
    q.set('due', due);
    if (due === 'upcoming' && r.chance(0.8)) q.set('dueWithin', String(r.pick([0, 7, 30, 90, 366])));
    if (r.chance(0.8)) q.set('today', utcDate(first + r.int(0, days + 30) * DAY));
  }
  const sort = `sortField=${r.pick(SORT_FIELDS)}&sortOrder=${r.pick(['asc', 'desc'])}`;
  return { filters: q.toString(), sort };
}

/**
 * The Entities page's search (`GET /bills/overview`, docs/decisions/0406-entity-overview.md): the archived state,
 * part of a name, one to three categories, each set or not, with any of its sorts in either order and any page size.
 */
export function drawEntityCombination(r: Random, sample: CombinationSample): string {
  const q = new URLSearchParams();
  if (r.chance(0.5)) q.set('status', r.pick(['active', 'inactive', 'all']));
  if (r.chance(0.3) && sample.entityNames.length > 0) {
    const name = r.pick(sample.entityNames);
    const from = r.int(0, Math.max(0, name.length - 2));
    q.set('name', name.slice(from, from + r.int(1, 6)));
  }
  if (r.chance(0.3)) {
    for (let i = r.int(1, 3); i > 0; i--) q.append('category', r.pick(CATEGORIES));
  }
  if (r.chance(0.8)) {
    q.set('sortField', r.pick(BILL_SORT_FIELDS));
    q.set('sortOrder', r.pick(['asc', 'desc']));
  }
  q.set('pageSize', String(r.pick(BILL_PAGE_SIZES)));
  return q.toString();
}

export function newGenerator(seed: number): Random {
  return new Random(seed);
}

/** The budgets for a random combination, uncached, one request at a time. */
export const COMBINATION_BUDGETS = {
  first: { p95: 25, max: 100 },
  page: { p95: 50, max: 250 },
  stats: { p95: 200, max: 500 },
  /** CSV export rows per second (at least). */
  exportRowsPerSecond: 200_000,
} as const;

export interface Timed {
  url: string;
  ms: number;
}

export interface CombinationResult {
  seed: number;
  /** Members of one ledger that ran their combinations at once (1: its owner alone). */
  members?: number;
  first: Timed[];
  page: Timed[];
  stats: Timed[];
  /** The trends of the same filters, by a drawn interval (issue 32): held to the stats' budget. */
  trends: Timed[];
  /** The cash-flow forecast of 1 to 24 months from the drawn day (issue 32): held to the stats' budget. */
  forecast: Timed[];
  /** The Home panel's upcoming and overdue summary, as of a day drawn over the ledger (issue 16). */
  due: Timed[];
  /** The Entities page: a drawn search's first page and a page drawn from its result (issue 25). */
  entities: Timed[];
  exports: { url: string; rows: number; ms: number; rowsPerSecond: number; rssGrowthMb: number }[];
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

export interface Endpoint {
  url: string;
  token: string;
  rssKb: () => number;
  /** Extra request headers: the `Billfold-Ledger` a member names (docs/decisions/0107-ledgers.md). */
  headers?: Record<string, string>;
}

/**
 * One uncached GET as `e`'s user, timed from the request to the last byte: its body, and which path answered it
 * (the `Server-Timing` header: the ledger index or SQL).
 */
export async function timedGet(
  e: Pick<Endpoint, 'url' | 'token' | 'headers'>,
  path: string,
): Promise<{ ms: number; body: unknown; timing: string }> {
  const start = performance.now();
  const res = await fetch(`${e.url}${path}`, {
    headers: { ...e.headers, authorization: `Bearer ${e.token}`, 'cache-control': 'no-cache' },
  });
  const text = await res.text();
  const ms = performance.now() - start;
  if (!res.ok) throw new Error(`GET ${path} → ${res.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text), timing: res.headers.get('server-timing') ?? '' };
}

/** Streams an export, counting rows as they arrive (the body is never held whole). */
async function timedExport(e: Endpoint, path: string) {
  const rssBefore = e.rssKb();
  let rssPeak = rssBefore;
  const start = performance.now();
  const res = await fetch(`${e.url}${path}`, { headers: { ...e.headers, authorization: `Bearer ${e.token}` } });
  if (!res.ok || !res.body) throw new Error(`GET ${path} → ${res.status}`);
  let newlines = 0;
  let chunks = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    for (const byte of chunk) if (byte === 10) newlines++;
    if (++chunks % 64 === 0) rssPeak = Math.max(rssPeak, e.rssKb());
  }
  const ms = performance.now() - start;
  rssPeak = Math.max(rssPeak, e.rssKb());
  const rows = Math.max(0, newlines - 1); // the header line
  return { url: path, rows, ms, rowsPerSecond: rows / (ms / 1000), rssGrowthMb: (rssPeak - rssBefore) / 1024 };
}

/**
 * `count` combinations, each asked three ways one request at a time with `Cache-Control: no-cache`: its first
 * page, a page drawn uniformly from its result, its stats and its trends by a drawn interval; with each, the due summary as of a drawn day. Then CSV exports: the whole ledger and the
 * largest drawn results.
 */
export async function runCombinations(
  e: Endpoint,
  sample: DataSample,
  seed: number,
  count: number,
  log: (line: string) => void,
): Promise<CombinationResult> {
  const r = newGenerator(seed);
  // Its own generator, so that a seed still draws the invoice combinations it drew before the Entities page.
  const er = newGenerator(seed ^ 0x25);
  // The trends' intervals have their own generator too: the same seed draws the combinations it drew before them.
  const tr = newGenerator(seed ^ 0x32);
  const out: CombinationResult = {
    seed,
    first: [],
    page: [],
    stats: [],
    trends: [],
    forecast: [],
    due: [],
    entities: [],
    exports: [],
  };
  const ledgerStart = Date.parse(sample.firstDate);
  const days = Math.max(1, Math.round((Date.parse(sample.lastDate) - ledgerStart) / 86_400_000));
  const sizes: { filters: string; sort: string; total: number }[] = [];
  /** Times one GET, records it with `kind`, and returns its body. */
  const time = async (kind: Timed[], url: string) => {
    const { ms, body } = await timedGet(e, url);
    kind.push({ url, ms });
    return body;
  };
  for (let i = 0; i < count; i++) {
    const c = drawCombination(r, sample);
    const base = `/api/v1/entries?${c.filters}${c.filters ? '&' : ''}${c.sort}&pageSize=100`;
    const { total } = (await time(out.first, `${base}&pageNum=0`)) as Pick<EntryList, 'total'>;
    await time(out.page, `${base}&pageNum=${r.int(0, Math.max(0, Math.ceil(total / 100) - 1))}`);
    await time(out.stats, `/api/v1/entries/stats?${c.filters}`);
    const interval = tr.pick(TREND_INTERVALS);
    await time(out.trends, `/api/v1/entries/trends?${c.filters}${c.filters ? '&' : ''}interval=${interval}`);
    const day = new Date(ledgerStart + r.int(0, days + 30) * 86_400_000).toISOString().slice(0, 10);
    await time(out.due, `/api/v1/entries/due-summary?today=${day}`);
    await time(out.forecast, `/api/v1/forecast?months=${tr.int(1, 24)}&today=${day}`);
    sizes.push({ ...c, total });
    const entityQuery = drawEntityCombination(er, sample);
    const search = `/api/v1/bills/overview?${entityQuery}`;
    const overview = (await time(out.entities, `${search}&pageNum=0`)) as BillOverviewList;
    const pageSize = Number(new URLSearchParams(entityQuery).get('pageSize'));
    await time(out.entities, `${search}&pageNum=${er.int(0, Math.max(0, Math.ceil(overview.total / pageSize) - 1))}`);
    if ((i + 1) % 25 === 0) log(`   ${i + 1}/${count} combinations`);
  }
  const largest = sizes.sort((a, b) => b.total - a.total).slice(0, 2);
  for (const c of [{ filters: '', sort: 'sortField=date&sortOrder=desc' }, ...largest]) {
    out.exports.push(await timedExport(e, `/api/v1/entries/export?${c.filters}${c.filters ? '&' : ''}${c.sort}`));
  }
  return out;
}

/**
 * Several members of one ledger at once (issue 27): each endpoint (a member's token and the ledger's header) runs
 * `count` combinations of its own (seed, seed + 1, …) at the same time as the others, one request at a time each;
 * their timings are pooled and held to the same budgets.
 */
export async function runMemberCombinations(
  endpoints: Endpoint[],
  sample: DataSample,
  seed: number,
  count: number,
  log: (line: string) => void,
): Promise<CombinationResult> {
  const each = await Promise.all(
    endpoints.map((e, i) => runCombinations(e, sample, seed + i, count, (line) => log(`   member ${i + 1}:${line}`))),
  );
  return {
    seed,
    members: endpoints.length,
    first: each.flatMap((c) => c.first),
    page: each.flatMap((c) => c.page),
    stats: each.flatMap((c) => c.stats),
    trends: each.flatMap((c) => c.trends),
    forecast: each.flatMap((c) => c.forecast),
    due: each.flatMap((c) => c.due),
    entities: each.flatMap((c) => c.entities),
    exports: each.flatMap((c) => c.exports),
  };
}

export function combinationChecks(c: CombinationResult) {
  const kinds = [
    ['first page', c.first, COMBINATION_BUDGETS.first],
    ['any page', c.page, COMBINATION_BUDGETS.page],
    ['stats', c.stats, COMBINATION_BUDGETS.stats],
    ['trends', c.trends, COMBINATION_BUDGETS.stats],
    ['forecast', c.forecast, COMBINATION_BUDGETS.stats],
    // The panel is read with every Home visit: it has the first page's budget.
    ['due summary', c.due, COMBINATION_BUDGETS.first],
    // A page of the Entities page is one list page: the first page's budget.
    ['entities page', c.entities, COMBINATION_BUDGETS.first],
  ] as const;
  const rows = kinds.map(([name, timed, budget]) => {
    const times = timed.map((t) => t.ms);
    const p50 = quantile(times, 0.5);
    const p95 = quantile(times, 0.95);
    const max = Math.max(...times);
    return { name, p50, p95, max, budget, pass: p95 <= budget.p95 && max <= budget.max };
  });
  const slowestExport = Math.min(...c.exports.map((x) => x.rowsPerSecond));
  return { rows, slowestExport, exportPass: slowestExport >= COMBINATION_BUDGETS.exportRowsPerSecond };
}

/** The slowest requests of each kind, with their URLs, so a failure names its combination. */
export function slowest(c: CombinationResult, n = 5): string[] {
  const lines: string[] = [];
  for (const [name, timed] of [
    ['first page', c.first],
    ['any page', c.page],
    ['stats', c.stats],
    ['trends', c.trends],
    ['forecast', c.forecast],
    ['due summary', c.due],
    ['entities page', c.entities],
  ] as const) {
    for (const t of [...timed].sort((a, b) => b.ms - a.ms).slice(0, n)) {
      lines.push(`${name.padEnd(10)} ${t.ms.toFixed(1).padStart(8)} ms  ${t.url}`);
    }
  }
  return lines;
}
