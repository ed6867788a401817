import { utcDate } from '@billfold/contract/dates';
import { type CombinationSample, drawCombination, drawEntityCombination } from './combinations.ts';
import { percentile } from './load.ts';
import type { Random } from './random.ts';

/**
 * The pure parts of the many-tenant bench (`bench/tenants.ts`): what a client asks next, and the summary of what
 * it was answered, per minute.
 *
 * A client draws a user uniformly from all seeded users, then a request kind by weight. A list is a random filter
 * combination of the whole panel with any sort (bench/lib/combinations.ts) asked for its first page; the same client's
 * next request is a page drawn uniformly from that result (it needs the first page's `total`). Stats are those of a
 * freshly drawn combination; the due summary is read as of a day drawn over the user's ledger; the Entities page is a
 * drawn search's first page, followed by a page drawn from its result. Nothing is repeated on purpose: every request
 * carries `Cache-Control: no-cache`.
 */

export const KINDS = ['first page', 'any page', 'stats', 'due summary', 'entities page'] as const;
export type Kind = (typeof KINDS)[number];

/** What the drawing needs to know of one user: their sign-in name and the sample of their ledger. */
export interface TenantSample extends CombinationSample {
  username: string;
}

export interface Case {
  kind: Kind;
  /** Index of the user in the sample list. */
  user: number;
  path: string;
  /** For a first page: the query its follow-up page repeats, and the page size it counts in. */
  follow?: { base: string; pageSize: number; kind: Kind };
}

/** How often each kind starts a client's next step (a first page brings its follow-up page with it). */
export const WEIGHTS: Record<'list' | 'stats' | 'due summary' | 'entities', number> = {
  list: 0.4,
  stats: 0.25,
  'due summary': 0.15,
  entities: 0.2,
};

const DAY = 86_400_000;
const STEPS = Object.keys(WEIGHTS) as (keyof typeof WEIGHTS)[];

/** The step a uniform draw `u` in [0, 1) falls on, by weight. */
export function pickStep(u: number): keyof typeof WEIGHTS {
  const total = STEPS.reduce((sum, step) => sum + WEIGHTS[step], 0);
  let x = u * total;
  for (const step of STEPS) {
    x -= WEIGHTS[step];
    if (x < 0) return step;
  }
  return STEPS[STEPS.length - 1] as keyof typeof WEIGHTS;
}
const LIST_PAGE_SIZE = 100;

/**
 * A random user's random request. A user `busy` says is in flight on another client is drawn again (up to a hundred
 * times): a person has one screen asking at a time, and the server limits a user's heavy requests side by side
 * (LIMIT_HEAVY_PER_USER), so two clients meeting on one user would measure that limit instead of the server.
 */
export function drawCase(
  r: Random,
  users: readonly TenantSample[],
  busy: (user: number) => boolean = () => false,
): Case {
  if (users.length === 0) throw new Error('no users to draw from');
  let user = r.int(0, users.length - 1);
  for (let tries = 0; busy(user) && tries < 100; tries++) user = r.int(0, users.length - 1);
  const sample = users[user] as TenantSample;
  const kind = pickStep(r.next());
  if (kind === 'list') {
    const c = drawCombination(r, sample);
    const base = `/api/v1/entries?${c.filters}${c.filters ? '&' : ''}${c.sort}&pageSize=${LIST_PAGE_SIZE}`;
    return {
      kind: 'first page',
      user,
      path: `${base}&pageNum=0`,
      follow: { base, pageSize: LIST_PAGE_SIZE, kind: 'any page' },
    };
  }
  if (kind === 'stats') {
    const c = drawCombination(r, sample);
    return { kind: 'stats', user, path: `/api/v1/entries/stats${c.filters ? `?${c.filters}` : ''}` };
  }
  if (kind === 'due summary') {
    const first = Date.parse(sample.firstDate);
    const days = Math.max(1, Math.round((Date.parse(sample.lastDate) - first) / DAY));
    return {
      kind: 'due summary',
      user,
      path: `/api/v1/entries/due-summary?today=${utcDate(first + r.int(0, days + 30) * DAY)}`,
    };
  }
  const query = drawEntityCombination(r, sample);
  const base = `/api/v1/bills/overview?${query}`;
  return {
    kind: 'entities page',
    user,
    path: `${base}&pageNum=0`,
    follow: { base, pageSize: Number(new URLSearchParams(query).get('pageSize')), kind: 'entities page' },
  };
}

/** The `total` of a list answer, read without parsing the page (the client must not become the bottleneck). */
export function totalOf(body: string): number | null {
  const match = /"total":(\d+)/.exec(body);
  return match ? Number(match[1]) : null;
}

/** The page drawn uniformly from a first page's result, asked by the same client next; null when there is none. */
export function followUp(r: Random, c: Case, body: string): Case | null {
  if (!c.follow) return null;
  const total = totalOf(body);
  if (total === null) return null;
  const pages = Math.max(1, Math.ceil(total / c.follow.pageSize));
  return { kind: c.follow.kind, user: c.user, path: `${c.follow.base}&pageNum=${r.int(0, pages - 1)}` };
}

/** One request as the client saw it: `at` is when it was sent (seconds after the clock started); status 0 is an error. */
export interface Sample {
  at: number;
  kind: Kind;
  ms: number;
  status: number;
  user: number;
  path: string;
}

export interface Window {
  name: string;
  from: number;
  to: number;
}

/**
 * The first, the middle and the last minute of a run of `seconds` (thirds of it when it is shorter than three
 * minutes), by when a request was sent.
 */
export function windows(seconds: number): Window[] {
  const width = seconds >= 180 ? 60 : seconds / 3;
  const middle = Math.max(width, seconds / 2 - width / 2);
  const label = (from: number) => `${Math.round(from)}–${Math.round(from + width)} s`;
  return [
    { name: `first (${label(0)})`, from: 0, to: width },
    { name: `middle (${label(middle)})`, from: middle, to: middle + width },
    { name: `last (${label(seconds - width)})`, from: seconds - width, to: seconds },
  ];
}

export interface KindSummary {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export interface WindowSummary {
  window: Window;
  requests: number;
  /** Answered requests (any status) per second of the window. */
  rps: number;
  non2xx: number;
  /** Requests that got no answer (connection errors, timeouts). */
  errors: number;
  statuses: Record<string, number>;
  kinds: Record<Kind, KindSummary>;
  /** The issue's "list": first pages and any pages together. */
  list: KindSummary;
}

function summarize(ms: number[]): KindSummary {
  const sorted = Float64Array.from(ms).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}

/** Latencies count answered 2xx requests only; the others are counted as non-2xx or errors. */
export function summarizeWindow(samples: readonly Sample[], window: Window): WindowSummary {
  const inside = samples.filter((s) => s.at >= window.from && s.at < window.to);
  const statuses: Record<string, number> = {};
  for (const s of inside) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const ok = inside.filter((s) => s.status >= 200 && s.status < 300);
  const kinds = Object.fromEntries(
    KINDS.map((k) => [k, summarize(ok.filter((s) => s.kind === k).map((s) => s.ms))]),
  ) as Record<Kind, KindSummary>;
  const errors = inside.filter((s) => s.status === 0).length;
  return {
    window,
    requests: inside.length,
    rps: (inside.length - errors) / Math.max(1e-9, window.to - window.from),
    non2xx: inside.length - ok.length - errors,
    errors,
    statuses,
    kinds,
    list: summarize(ok.filter((s) => s.kind === 'first page' || s.kind === 'any page').map((s) => s.ms)),
  };
}

/** The `n` slowest answered requests of each kind. */
export function slowestSamples(samples: readonly Sample[], n: number): Sample[] {
  return KINDS.flatMap((k) =>
    samples
      .filter((s) => s.kind === k && s.status !== 0)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, n),
  );
}

/**
 * Each user's first request after the clock started (the one that finds their ledger not yet loaded, whatever its
 * kind): their latencies, answered or not (an unanswered one counts with the time it waited).
 */
export function firstPerUser(samples: readonly Sample[]): KindSummary & { users: number } {
  const first = new Map<number, Sample>();
  for (const s of samples) {
    const seen = first.get(s.user);
    if (!seen || s.at < seen.at) first.set(s.user, s);
  }
  return { ...summarize([...first.values()].map((s) => s.ms)), users: first.size };
}
