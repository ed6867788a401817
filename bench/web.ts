import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../e2e/support/chromium.ts';
import { INITIAL_JS_BUDGET_BYTES, measureInitialJs } from '../packages/web/scripts/size.ts';
import { parseArgs } from './lib/args.ts';
import { BENCH_PASSWORD, BENCH_USER, sqliteDataset } from './lib/datasets.ts';
import { median } from './lib/load.ts';
import { REPO_ROOT, startServer } from './lib/server-process.ts';

/**
 * `npm run bench:web`: the production web build served by the real server on the seeded SQLite data set,
 * driven by Debian's Chromium through playwright-core. Prints the initial JavaScript (gzip), the LCP of
 * `/home` with its 100-row page and the time of a page change, against the issue's targets.
 */

const HELP = `Usage: npm run bench:web -- [options]

  --invoices N   invoices in the data set (default 1,000,000; the seeded SQLite file is shared with npm run bench)
  --build        rebuild the web app first (default: build only when packages/web/dist is missing)
  --runs N       page loads and page changes measured (default 5)
  --help`;

const DIST = resolve(REPO_ROOT, 'packages/web/dist');
const TARGETS = { initialJsGzip: INITIAL_JS_BUDGET_BYTES, lcpMs: 1_500, pageChangeMs: 200 };

/** The first data row of the home grid (row 1 is the header row). */
const FIRST_ROW = '[role="grid"] [role="row"][aria-rowindex="2"]';

interface LoadMeasure {
  lcpMs: number;
  lcpElement: string;
  rowsMs: number;
  rows: number;
  jsGzipBytes: number;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function build(force: boolean): void {
  if (!force && existsSync(join(DIST, 'index.html'))) return;
  log('Building the web app (npm run build -w @billfold/web)');
  const result = spawnSync('npm', ['run', 'build', '-w', '@billfold/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('web build failed');
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(BENCH_USER);
  await page.getByLabel('Password', { exact: true }).fill(BENCH_PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL('**/home', { timeout: 30_000 });
}

/** LCP entries are buffered from navigation start; the observer keeps the last (largest) one. */
const LCP_OBSERVER = `
  window.__lcp = { ms: 0, element: '' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const el = entry.element;
      window.__lcp = { ms: entry.startTime, element: el ? el.tagName.toLowerCase() + (el.getAttribute('role') ? '[role=' + el.getAttribute('role') + ']' : '') + ' ' + (el.textContent || '').trim().slice(0, 40) : '' };
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

/** Loads /home and waits for its grid to show the first page (100 rows requested by default). */
async function loadHome(page: Page): Promise<LoadMeasure> {
  const jsResponses: Promise<number>[] = [];
  const onResponse = (response: import('playwright-core').Response) => {
    if (response.request().resourceType() === 'script') {
      jsResponses.push(
        response
          .body()
          .then((b) => gzipSync(b, { level: 9 }).length)
          .catch(() => 0),
      );
    }
  };
  page.on('response', onResponse);
  const listResponse = page.waitForResponse((r) => /\/api\/v1\/entries(\?|$)/.test(r.url()) && r.ok(), {
    timeout: 30_000,
  });
  await page.goto('/home', { waitUntil: 'commit' });
  const list = (await (await listResponse).json()) as { entries: unknown[] };
  await page.locator(FIRST_ROW).waitFor({ timeout: 30_000 });
  const rowsMs = await page.evaluate(() => performance.now());
  // LCP is final once the page has painted its content and gone quiet.
  await page.waitForTimeout(800);
  const lcp = (await page.evaluate('window.__lcp')) as { ms: number; element: string };
  page.off('response', onResponse);
  const js = await Promise.all(jsResponses);
  return {
    lcpMs: lcp.ms,
    lcpElement: lcp.element,
    rowsMs,
    rows: list.entries.length,
    jsGzipBytes: js.reduce((a, b) => a + b, 0),
  };
}

interface PageChange {
  /** From the click to the first row showing other data, in the page's clock. */
  ms: number;
  /** The API calls the change made, each from request start to the last byte of its response. */
  api: { path: string; ms: number }[];
}

/**
 * Clicks "next page" inside the page (no Playwright actionability round trips in the measured time) and
 * times, in the page's clock, until the first row shows other data.
 */
async function changePage(page: Page): Promise<PageChange> {
  const before = (await page.locator(FIRST_ROW).textContent()) ?? '';
  const next = await page.getByRole('button', { name: /next page/i }).elementHandle();
  if (!next) throw new Error('no "next page" button');
  const api: PageChange['api'] = [];
  const onFinished = (request: import('playwright-core').Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      api.push({ path: `${url.pathname}${url.search}`, ms: request.timing().responseEnd });
  };
  page.on('requestfinished', onFinished);
  await next.evaluate((button) => {
    (window as unknown as { __t0: number }).__t0 = performance.now();
    (button as HTMLElement).click();
  });
  const handle = await page.waitForFunction(
    ({ selector, previous }) => {
      const row = document.querySelector(selector);
      const text = row?.textContent ?? '';
      return text !== '' && text !== previous ? performance.now() - (window as unknown as { __t0: number }).__t0 : 0;
    },
    { selector: FIRST_ROW, previous: before },
    { timeout: 15_000, polling: 'raf' },
  );
  const ms = (await handle.jsonValue()) as number;
  await page.waitForTimeout(300);
  page.off('requestfinished', onFinished);
  return { ms, api };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), {
    invoices: 'number',
    build: 'boolean',
    runs: 'number',
    help: 'boolean',
  });
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  const runs = args.runs ?? 5;
  build(args.build ?? false);
  const size = measureInitialJs(DIST);

  const { file } = await sqliteDataset(args.invoices ?? 1_000_000, false);
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-bench-web-'));
  const server = await startServer({ databaseUrl: `sqlite:${file}`, dataDir, env: { WEB_ROOT: DIST } });
  let browser: Browser | undefined;
  const loads: LoadMeasure[] = [];
  const changes: PageChange[] = [];
  let problem: string | null = null;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
    });
    await context.addInitScript(LCP_OBSERVER);
    const page = await context.newPage();
    await signIn(page);
    try {
      // The first load fetches the route chunks (a first visit); later ones are served from the HTTP cache.
      for (let i = 0; i < runs; i++) loads.push(await loadHome(page));
      for (let i = 0; i < runs; i++) changes.push(await changePage(page));
    } catch (err) {
      const heading = await page
        .locator('h1')
        .first()
        .textContent({ timeout: 1_000 })
        .catch(() => null);
      problem =
        `/home did not render an invoice grid with a "next page" button (${(err as Error).message.split('\n')[0]}). ` +
        `The page shows: ${JSON.stringify(heading)}. The home grid is not built yet, or its roles changed.`;
    }
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const msText = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '–');
  const first = loads[0];
  const warm = loads.slice(1);
  const pageChange = changes.length > 0 ? median(changes.map((c) => c.ms)) : Number.NaN;
  const apiTimes = changes.flatMap((c) => c.api.filter((a) => /\/api\/v1\/entries\?/.test(a.path)).map((a) => a.ms));
  const lines = [
    `Billfold web benchmark · ${new Date().toISOString()} · ${CHROMIUM}`,
    `initial JS (entry + static imports, gzip -9): ${kb(size.totalGzipBytes)} in ${size.files.length} files (${kb(size.totalBytes)} raw)`,
  ];
  if (first) {
    lines.push(
      `/home first visit: LCP ${msText(first.lcpMs)} (${first.lcpElement}), first page of ${first.rows} rows shown at ${msText(first.rowsMs)}, JS fetched ${kb(first.jsGzipBytes)} gzip`,
      `/home reloads (median of ${warm.length}): LCP ${msText(median(warm.map((l) => l.lcpMs)))}, rows at ${msText(median(warm.map((l) => l.rowsMs)))}`,
      `page change (median of ${changes.length}): ${msText(pageChange)}  [${changes.map((c) => c.ms.toFixed(0)).join(', ')}]; ` +
        `its GET /entries from request to last byte: median ${msText(apiTimes.length > 0 ? median(apiTimes) : Number.NaN)}`,
      `API calls of the first page change: ${changes[0]?.api.map((a) => `${a.path} ${a.ms.toFixed(0)} ms`).join('; ') ?? '–'}`,
    );
  }
  if (problem) lines.push(`!! ${problem}`);
  const lcpChecked = first ? Math.max(first.lcpMs, first.rowsMs) : Number.NaN;
  const checks: [string, string, boolean | null][] = [
    ['initial JS ≤ 300 KB gzip', kb(size.totalGzipBytes), size.totalGzipBytes <= TARGETS.initialJsGzip],
    [
      '/home LCP with 100 rows ≤ 1.5 s (first visit; max of LCP and rows shown)',
      msText(lcpChecked),
      first ? lcpChecked <= TARGETS.lcpMs && first.rows === 100 : null,
    ],
    [
      'page change ≤ 200 ms (median)',
      msText(pageChange),
      changes.length > 0 ? pageChange <= TARGETS.pageChangeMs : null,
    ],
  ];
  lines.push('', 'Targets');
  const width = Math.max(...checks.map((c) => c[0].length));
  for (const [target, value, pass] of checks) {
    lines.push(`${target.padEnd(width)}  ${value.padStart(9)}  ${pass === null ? 'NOT RUN' : pass ? 'PASS' : 'FAIL'}`);
  }
  const text = lines.join('\n');
  console.log(`\n${text}`);
  const dir = resolve(REPO_ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'web-latest.json'),
    JSON.stringify({ at: new Date().toISOString(), size, loads, changes, problem, checks }, null, 2),
  );
  writeFileSync(join(dir, 'web-latest.txt'), `${text}\n`);
  if (problem) return 2;
  return checks.every((c) => c[2] === true) ? 0 : 1;
}

process.exitCode = await main();
