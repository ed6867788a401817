import { dirname } from 'node:path';
import { addDays } from '@billfold/contract/dates';
import { SORT_FIELDS } from '@billfold/contract/entries';
import { isErrorCode } from '@billfold/contract/error-codes';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { filesUnder } from '../helpers/attachments.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  updateBill,
  updatePayment,
} from '../helpers/domain.ts';
import { type Session, STRONG_PASSWORD, signIn, signUp } from '../helpers/factories.ts';
import { createLedger, invite, join } from '../helpers/ledgers.ts';
import { apiRoutes } from '../helpers/route-table.ts';
import { createSchedule } from '../helpers/schedules.ts';
import { type Smtp, startSmtp } from '../helpers/smtp.ts';
import {
  changedTables,
  describeChanges,
  type Row,
  rowCount,
  type Snapshot,
  snapshot,
  tableNames,
  totalsMismatches,
} from './database-state.ts';
import {
  EXTRA_KEYS,
  fromSchema,
  type JsonSchema,
  looseBool,
  NASTY_PATH_PARAMS,
  nastyString,
  nastyValue,
  RAW_NUMBER_TOKENS,
  RAW_QUERY_JUNK,
  shortText,
  validAmount,
  validAmountParam,
  validCategory,
  validDate,
  validFlow,
  validMethod,
  WRONG_CONTENT_TYPES,
} from './fuzz-values.ts';

/**
 * Schema-driven fuzzing of every `/api/v1` route in the app's route table (HEAD included), signed in. Each case is
 * a valid example for the route (picked from the caller's live rows, its bin, another user's ids and random ids)
 * with 0–3 mutations: fields set to values from the route's own schema (as OpenAPI publishes the contract's zod
 * schemas), to domain values or to hostile ones, fields dropped, server-owned and prototype fields added, the body
 * replaced, malformed JSON, wrong content types, huge bodies, duplicated and junk query keys, broken path
 * parameters, other methods. Every answer must be a JSON 2xx/4xx (never 5xx) with the error shape on errors, the
 * security headers, no password hash and nothing of the other user; a refusal (4xx) and any read must leave every
 * table as it was; the other user's rows never change; every invoice's totals equal its live payments at the end.
 *
 * `FUZZ_RUNS` sets the total number of cases (default 2,200; 20,000 under `SOAK=1`), shared by the databases;
 * `FUZZ_SEED` replays a run.
 */

const SOAK = process.env.SOAK === '1' || process.env.SOAK === 'true';
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? (SOAK ? 20_000 : 2_200));
const RUNS_PER_DIALECT = Math.ceil(TOTAL_RUNS / dialects.length);
const MASTER_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

type Gen = fc.GeneratorValue;

/** A request before it is written out: the example's parts plus what the mutations did to them. */
interface Draft {
  method: string;
  /** Fastify's path, `:name` for parameters. */
  route: string;
  params: Record<string, unknown>;
  /** Path parameter text sent verbatim (broken escapes included). */
  rawParams: Record<string, string>;
  query: Record<string, unknown>;
  extraQuery: [string, string][];
  rawQuery: string[];
  body: unknown;
  /** Replaces the JSON body with this text. */
  rawBody?: string;
  contentType?: string;
  mutations: string[];
}

interface Example {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

interface Pools {
  bills: { live: number[]; archived: number[]; recycled: number[]; names: string[] };
  /**
   * `binned`: recycled ones the bin lists, those whose parent is not recycled too (restore and delete act on them);
   * `editable`: live ones of an active entity, which an edit can change.
   */
  entries: { live: number[]; editable: number[]; recycled: number[]; binned: number[]; numbers: number[] };
  payments: { live: number[]; recycled: number[]; binned: number[] };
  /** Schedules of active entities: `kept` for reads and changes, `disposable` for deletes (there is no restore). */
  schedules: { kept: number[]; disposable: number[] };
  categories: number[];
  /** The caller's notification channels. */
  channels: number[];
  /** The caller's API tokens. */
  tokens: number[];
  /**
   * The caller's ledgers (`all`), those they own (`owned`), the other members of those (`members`, with their
   * ledger) and their pending invitations (with their ledger).
   */
  ledgers: {
    all: number[];
    owned: number[];
    members: { ledger: number; id: number }[];
    invitations: { ledger: number; id: number }[];
  };
}

interface World {
  dialect: string;
  me: Session & { id: number };
  victim: { id: number; ids: number[]; secrets: string[]; rows: string };
  pools: Pools;
  counter: number;
}

// ---------- valid examples, one per route ----------

const draw = <T>(g: Gen, arb: fc.Arbitrary<T>): T => g(() => arb);
const maybe = <T>(g: Gen, make: () => T): T | undefined => (draw(g, fc.boolean()) ? make() : undefined);

/** Mostly one of the caller's own ids of the kind, sometimes the other user's, sometimes any id at all. */
function idFrom(g: Gen, w: World, own: number[]): number {
  const choices: fc.WeightedArbitrary<number>[] = [
    { weight: 1, arbitrary: fc.constantFrom(...w.victim.ids) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) },
  ];
  if (own.length > 0) choices.push({ weight: 8, arbitrary: fc.constantFrom(...own) });
  return draw(g, fc.oneof(...choices));
}

const filters = (g: Gen, w: World) => ({
  startDate: maybe(g, () => draw(g, validDate)),
  endDate: maybe(g, () => draw(g, validDate)),
  invoiceNum: maybe(g, () => String(idFrom(g, w, w.pools.entries.numbers))),
  partyList: maybe(g, () => draw(g, fc.subarray(w.pools.bills.names, { maxLength: 3 }))),
  categoryList: maybe(g, () => draw(g, fc.array(validCategory, { minLength: 1, maxLength: 3 }))),
  min: maybe(g, () => draw(g, validAmountParam)),
  max: maybe(g, () => draw(g, validAmountParam)),
  flow: maybe(g, () => draw(g, fc.constantFrom('income', 'expense', 'internal', 'INCOMING', 'outgoing'))),
  paid: maybe(g, () => draw(g, fc.constantFrom('true', 'false', 'overpaid', 'partial'))),
  archives: maybe(g, () => draw(g, fc.constantFrom('true', 'false'))),
  hasAttachment: maybe(g, () => draw(g, fc.constantFrom('true', 'false'))),
  ...(maybe(g, () => true)
    ? {
        due: 'upcoming',
        dueWithin: maybe(g, () => draw(g, fc.integer({ min: 0, max: 366 }))),
        today: maybe(g, () => draw(g, validDate)),
      }
    : { due: maybe(g, () => 'overdue'), today: maybe(g, () => draw(g, validDate)) }),
});
const sorting = (g: Gen) => ({
  sortField: maybe(g, () => draw(g, fc.constantFrom(...SORT_FIELDS, 'paid', 'entryId', 'description'))),
  sortOrder: maybe(g, () => draw(g, fc.constantFrom('asc', 'desc', 'DESC'))),
});
const paging = (g: Gen) => ({
  pageNum: maybe(g, () => draw(g, fc.integer({ min: 0, max: 3 }))),
  pageSize: maybe(g, () => draw(g, fc.integer({ min: 1, max: 100 }))),
});
const allBills = (w: World) => [...w.pools.bills.live, ...w.pools.bills.archived, ...w.pools.bills.recycled];
/** Mostly the caller's active entities (an archived or recycled one refuses writes with 409 by design), else any. */
const writableBills = (g: Gen, w: World) =>
  draw(g, fc.integer({ min: 0, max: 3 })) > 0 && w.pools.bills.live.length > 0 ? w.pools.bills.live : allBills(w);
const allEntries = (w: World) => [...w.pools.entries.live, ...w.pools.entries.recycled];
const allPayments = (w: World) => [...w.pools.payments.live, ...w.pools.payments.recycled];
const bypass = (g: Gen) => maybe(g, () => draw(g, fc.constantFrom('bypass', 'BYPASS', '1', '')));

/** Six digits (a TOTP code, almost surely wrong) or recovery-code shaped text. */
const mfaCode = fc.oneof(fc.stringMatching(/^\d{6}$/), fc.stringMatching(/^[a-z2-9]{5}-[a-z2-9]{5}$/));

/** An item the recycle bin lists, of a drawn kind (an entity, an invoice or a payment), by type and id. */
function recycledItem(g: Gen, w: World): { entityType: string; entityId: number } {
  const [entityType, ids] = draw(
    g,
    fc.constantFrom<[string, number[]]>(
      ['Entity', w.pools.bills.recycled],
      ['Invoice', w.pools.entries.binned],
      ['Payment', w.pools.payments.binned],
    ),
  );
  return { entityType, entityId: idFrom(g, w, ids) };
}

/** A schedule body: any cadence, a first date around the test clock's today (some in the past), any end. */
function scheduleBodyOf(g: Gen) {
  const cadence = draw(g, fc.constantFrom('weekly', 'monthly', 'quarterly', 'yearly'));
  const ends = draw(g, fc.constantFrom('never', 'date', 'count'));
  // Mostly near the test clock's today: a first date decades back is refused as too many invoices at once.
  const firstDate = draw(
    g,
    fc.oneof(
      { weight: 1, arbitrary: validDate },
      { weight: 3, arbitrary: fc.constantFrom('2026-09-30', '2026-11-22', '2027-01-31') },
    ),
  );
  return {
    cadence,
    interval: maybe(g, () => draw(g, fc.integer({ min: 1, max: 99 }))),
    dayOfMonth: cadence === 'weekly' ? undefined : maybe(g, () => draw(g, fc.integer({ min: 1, max: 31 }))),
    firstDate,
    // Mostly on or after the first date (an end before it is a 400 by design; the mutations still send those).
    endDate:
      ends === 'date'
        ? draw(
            g,
            fc.oneof(
              { weight: 1, arbitrary: validDate },
              { weight: 3, arbitrary: fc.integer({ min: 0, max: 3650 }).map((days) => addDays(firstDate, days)) },
            ),
          )
        : undefined,
    count: ends === 'count' ? draw(g, fc.integer({ min: 1, max: 1000 })) : undefined,
    amount: draw(g, validAmount),
    flow: draw(g, validFlow),
    description: draw(g, fc.oneof(shortText, fc.constantFrom('Rent {month} {year}', '#{n} {date} {quarter}'))),
    dueDays: maybe(g, () => draw(g, fc.integer({ min: 0, max: 365 }))),
    autopay: maybe(g, () => draw(g, fc.constantFrom(null, 'bank|ach', 'credit|web', 'other|other'))),
    // Without it, a first date in the past beside existing invoices is a 409 that asks (ADR 1013).
    duplicates: draw(g, fc.constantFrom(undefined, null, 'skip', 'create', 'create')),
  };
}

/**
 * Tokens of invitation links made by `restock` (emptied for each database): some into the caller's own ledgers, some
 * into another's. A link route draws mostly one of the three its restock just made, unused yet.
 */
const invitationTokens: string[] = [];
const tokenOf = (g: Gen) =>
  draw(
    g,
    fc.oneof(
      {
        weight: invitationTokens.length > 0 ? 8 : 0,
        arbitrary: fc.constantFrom(...(invitationTokens.length > 0 ? invitationTokens.slice(-3) : ['-'])),
      },
      { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    ),
  );
/** Mostly a pair of the caller's (a ledger and one of its members or invitations), else any ids. */
function pairFrom(g: Gen, w: World, own: { ledger: number; id: number }[]) {
  if (own.length > 0 && draw(g, fc.integer({ min: 0, max: 9 })) < 8) return draw(g, fc.constantFrom(...own));
  return { ledger: idFrom(g, w, w.pools.ledgers.all), id: idFrom(g, w, []) };
}

const EXAMPLES: Record<string, (g: Gen, w: World) => Example> = {
  'GET /api/v1/health': () => ({}),
  'GET /api/v1/openapi.json': () => ({}),
  'POST /api/v1/auth/create': (_g, w) => {
    w.counter += 1;
    const username = `fz${w.counter}_${w.dialect}`;
    return { body: { username, email: `${username}@example.com`, password: STRONG_PASSWORD } };
  },
  'POST /api/v1/auth/login': (g, w) => ({
    body: {
      username: draw(g, fc.constantFrom(w.me.username, w.me.email, w.me.username.toUpperCase())),
      password: draw(g, fc.constantFrom(w.me.password, 'Wrong!Passw0rd')),
    },
  }),
  'POST /api/v1/auth/refresh': (g, w) =>
    draw(g, fc.boolean())
      ? { query: { refreshToken: w.me.refreshToken } }
      : { body: { refreshToken: w.me.refreshToken } },
  'POST /api/v1/auth/login/mfa': (g) => ({
    body: { challenge: draw(g, fc.base64String({ minLength: 4, maxLength: 44 })), code: draw(g, mfaCode) },
  }),
  'GET /api/v1/user': (_g, w) => ({ query: { userName: w.me.username } }),
  // Sign-in with an identity provider (none is configured here: test/oidc.test.ts drives a real one) and API tokens.
  'GET /api/v1/auth/methods': () => ({}),
  'GET /api/v1/auth/oidc/start': () => ({}),
  'GET /api/v1/auth/oidc/callback': (g) => ({
    query: {
      code: draw(g, fc.stringMatching(/^[A-Za-z0-9_-]{1,43}$/)),
      state: draw(g, fc.stringMatching(/^[A-Za-z0-9_-]{1,43}$/)),
    },
  }),
  'POST /api/v1/auth/oidc/exchange': (g) => ({ body: { ticket: draw(g, fc.stringMatching(/^[A-Za-z0-9_-]{1,43}$/)) } }),
  'GET /api/v1/account/oidc': () => ({}),
  'POST /api/v1/account/oidc/link': (g, w) => ({
    body: { password: draw(g, fc.constantFrom(w.me.password, 'Wrong!Passw0rd')) },
  }),
  'POST /api/v1/account/oidc/unlink': (g, w) => ({
    body: { password: draw(g, fc.constantFrom(w.me.password, 'Wrong!Passw0rd')) },
  }),
  'GET /api/v1/tokens': () => ({}),
  'POST /api/v1/tokens': (g) => ({
    body: {
      name: draw(g, fc.constantFrom('Home Assistant', 'script', 'dashboard')),
      scope: draw(g, fc.constantFrom('read', 'read-write')),
      expiresOn: maybe(g, () => draw(g, fc.constantFrom('2099-12-31', '2030-01-01'))),
    },
  }),
  'DELETE /api/v1/tokens/:id': (g, w) => ({ params: { id: idFrom(g, w, w.pools.tokens) } }),
  // Notification channels: private and loopback addresses are refused here (no NOTIFY_ALLOW_PRIVATE); email ones are
  // saved (mail is configured). Id 1 is the victim's channel, id 2 the caller's (made before fuzzing); the routes of
  // one channel draw mostly the caller's own, restocked when none is left.
  'GET /api/v1/notification-channels': () => ({}),
  // Mostly the email channel, which is saved, so that the route succeeds within a few draws whatever the seed.
  'POST /api/v1/notification-channels': (g) => ({
    body: draw(
      g,
      fc.oneof(
        { arbitrary: fc.constant<object>({ kind: 'email', name: 'Mail', events: ['autopay'] }), weight: 3 },
        {
          arbitrary: fc.constantFrom<object>(
            { kind: 'webhook', name: 'Hook', url: 'http://10.0.0.5/hook', events: ['overdue'] },
            { kind: 'ntfy', name: 'Phone', url: 'http://[fe80::1]/bills', events: ['due_soon'], daysAhead: 5 },
            { kind: 'gotify', name: 'Gotify', url: 'http://127.0.0.1:9/', token: 'AbC123', events: [] },
            { kind: 'email', name: 'Digest', events: ['digest'], daysAhead: 3 },
            { kind: 'webhook', name: 'Hook', url: 'https://hooks.example.com/x', events: ['digest'] },
          ),
          weight: 2,
        },
      ),
    ),
  }),
  'PATCH /api/v1/notification-channels/:id': (g, w) => ({
    params: { id: idFrom(g, w, w.pools.channels) },
    body: draw(
      g,
      fc.constantFrom<object>({ name: 'Renamed' }, { events: ['member_joined'] }, { paused: false }, { daysAhead: 9 }),
    ),
  }),
  'DELETE /api/v1/notification-channels/:id': (g, w) => ({ params: { id: idFrom(g, w, w.pools.channels) } }),
  'POST /api/v1/notification-channels/:id/test': (g, w) => ({ params: { id: idFrom(g, w, w.pools.channels) } }),
  'GET /api/v1/notification-deliveries': (g) => ({
    query: { limit: maybe(g, () => draw(g, fc.integer({ min: 1, max: 200 }))) },
  }),
  'POST /api/v1/notification-deliveries/:id/send-again': (g) => ({
    params: { id: draw(g, fc.integer({ min: 1, max: 40 })) },
  }),
  'GET /api/v1/user/mfa': () => ({}),
  'POST /api/v1/user/mfa/setup': (g, w) => ({
    body: { password: draw(g, fc.constantFrom(w.me.password, 'Wrong!Passw0rd')) },
  }),
  'POST /api/v1/user/mfa/enable': (g) => ({ body: { code: draw(g, mfaCode) } }),
  'POST /api/v1/user/mfa/recovery-codes': (g, w) => ({
    body: { password: draw(g, fc.constantFrom(w.me.password, 'Wrong!Passw0rd')), code: draw(g, mfaCode) },
  }),
  'PUT /api/v1/user': (g, w) => ({
    body: {
      password: draw(g, fc.constantFrom(w.me.password, 'Wrong!Passw0rd')),
      ...draw(
        g,
        fc.constantFrom<object>(
          { mfaEnabled: true },
          { mfaEnabled: 'false' },
          { mfaEnabled: false, code: '123456' },
          { newEmail: `fz-new-${w.dialect}@example.com` },
          { newPassword: 'An0ther!Passw0rd' },
          { recycle: true },
        ),
      ),
    },
  }),
  'GET /api/v1/bills': (g, w) => ({
    query: {
      status: maybe(g, () => draw(g, fc.constantFrom('active', 'inactive', 'all'))),
      name: maybe(g, () => draw(g, fc.constantFrom('', ...w.pools.bills.names)).slice(0, 4)),
      category: maybe(g, () => draw(g, fc.array(validCategory, { minLength: 1, maxLength: 2 }))),
    },
  }),
  'GET /api/v1/bills/overview': (g, w) => ({
    query: {
      status: maybe(g, () => draw(g, fc.constantFrom('active', 'inactive', 'all'))),
      name: maybe(g, () => draw(g, fc.constantFrom('', ...w.pools.bills.names)).slice(0, 4)),
      category: maybe(g, () => draw(g, fc.array(validCategory, { minLength: 1, maxLength: 2 }))),
      sortField: maybe(g, () => draw(g, fc.constantFrom('name', 'category', 'balance', 'nextDue', 'invoices'))),
      sortOrder: maybe(g, () => draw(g, fc.constantFrom('asc', 'desc', 'DESC'))),
      pageNum: maybe(g, () => draw(g, fc.integer({ min: 0, max: 3 }))),
      pageSize: maybe(g, () => draw(g, fc.integer({ min: 1, max: 100 }))),
      today: maybe(g, () => draw(g, validDate)),
    },
  }),
  'GET /api/v1/bills/:id': (g, w) => ({ params: { id: idFrom(g, w, allBills(w)) }, query: { bypass: bypass(g) } }),
  'GET /api/v1/bills/:id/price-history': (g, w) => ({ params: { id: idFrom(g, w, allBills(w)) } }),
  'GET /api/v1/categories': () => ({}),
  'POST /api/v1/categories': (g, w) => {
    w.counter += 1;
    return {
      body: {
        name: `Own ${w.counter} ${draw(g, shortText)}`.slice(0, 50),
        flow: maybe(g, () => draw(g, fc.constantFrom('income', 'expense'))),
      },
    };
  },
  'PATCH /api/v1/categories/:id': (g, w) => ({
    params: { id: idFrom(g, w, w.pools.categories) },
    body: {
      name: maybe(g, () => `Own renamed ${w.counter++}`),
      flow: maybe(g, () => draw(g, fc.constantFrom('income', 'expense'))),
      retired: maybe(g, () => draw(g, fc.boolean())),
    },
  }),
  'POST /api/v1/bills': (g, w) => {
    w.counter += 1;
    return {
      body: {
        name: `Fuzz ${w.counter} ${draw(g, shortText)}`.slice(0, 100),
        status: draw(g, fc.constantFrom<unknown>(1, 0, true, '1')),
        category: draw(g, validCategory),
        internal: draw(g, looseBool),
      },
    };
  },
  'PUT /api/v1/bills': (g, w) => ({
    body: {
      id: idFrom(g, w, allBills(w)),
      name: maybe(g, () => `Renamed ${w.counter++}`),
      status: maybe(g, () => draw(g, fc.constantFrom<unknown>(0, 1, 'true', false))),
      category: maybe(g, () => draw(g, validCategory)),
      internal: maybe(g, () => draw(g, looseBool)),
      recycle: maybe(g, () => draw(g, looseBool)),
    },
  }),
  'GET /api/v1/entries': (g, w) => ({ query: { ...filters(g, w), ...sorting(g), ...paging(g) } }),
  'GET /api/v1/entries/stats': (g, w) => ({ query: filters(g, w) }),
  'GET /api/v1/entries/trends': (g, w) => ({
    query: { ...filters(g, w), interval: maybe(g, () => draw(g, fc.constantFrom('month', 'quarter', 'year'))) },
  }),
  'GET /api/v1/entries/export': (g, w) => ({ query: { ...filters(g, w), ...sorting(g) } }),
  'GET /api/v1/entries/due-summary': (g) => ({ query: { today: maybe(g, () => draw(g, validDate)) } }),
  'GET /api/v1/forecast': (g) => ({
    query: {
      months: maybe(g, () => String(draw(g, fc.integer({ min: 1, max: 24 })))),
      today: maybe(g, () => draw(g, validDate)),
    },
  }),
  'GET /api/v1/forecast/balance': () => ({}),
  'PUT /api/v1/forecast/balance': (g) => ({
    body: {
      balance: draw(
        g,
        fc.oneof(
          fc.constant(null),
          fc.integer({ min: -99_999_999, max: 99_999_999 }).map((c) => c / 100),
        ),
      ),
    },
  }),
  'GET /api/v1/account/calendar-feed': () => ({}),
  'GET /api/v1/ledgers': () => ({}),
  'POST /api/v1/ledgers': (g, w) => {
    w.counter += 1;
    return { body: { name: `Ledger ${w.counter} ${draw(g, shortText)}`.slice(0, 100) } };
  },
  'PATCH /api/v1/ledgers/:id': (g, w) => ({
    params: { id: idFrom(g, w, w.pools.ledgers.all) },
    body: { name: `Renamed ledger ${w.counter++}` },
  }),
  'DELETE /api/v1/ledgers/:id': (g, w) => ({
    params: { id: idFrom(g, w, w.pools.ledgers.owned) },
    body: { password: draw(g, fc.constantFrom(w.me.password, 'Wrong!Passw0rd')) },
  }),
  'GET /api/v1/ledgers/:id/members': (g, w) => ({ params: { id: idFrom(g, w, w.pools.ledgers.all) } }),
  'PATCH /api/v1/ledgers/:id/members/:userId': (g, w) => {
    const { ledger, id } = pairFrom(g, w, w.pools.ledgers.members);
    return {
      params: { id: ledger, userId: draw(g, fc.constantFrom(id, id, w.me.id)) },
      body: { role: draw(g, fc.constantFrom('owner', 'editor', 'viewer')) },
    };
  },
  'DELETE /api/v1/ledgers/:id/members/:userId': (g, w) => {
    const { ledger, id } = pairFrom(g, w, w.pools.ledgers.members);
    return { params: { id: ledger, userId: draw(g, fc.constantFrom(id, id, w.me.id)) } };
  },
  'POST /api/v1/ledgers/:id/invitations': (g, w) => ({
    params: { id: idFrom(g, w, w.pools.ledgers.owned) },
    body: { role: maybe(g, () => draw(g, fc.constantFrom('editor', 'viewer'))) },
  }),
  'GET /api/v1/ledgers/:id/invitations': (g, w) => ({ params: { id: idFrom(g, w, w.pools.ledgers.owned) } }),
  'DELETE /api/v1/ledgers/:id/invitations/:invitationId': (g, w) => {
    const { ledger, id } = pairFrom(g, w, w.pools.ledgers.invitations);
    return { params: { id: ledger, invitationId: id } };
  },
  'GET /api/v1/invitations/:token': (g) => ({ params: { token: tokenOf(g) } }),
  'POST /api/v1/invitations/:token/accept': (g) => ({ params: { token: tokenOf(g) } }),
  'PUT /api/v1/account/calendar-feed': (g) => ({ body: { enabled: draw(g, looseBool) } }),
  'GET /api/v1/calendar/:file': (g) => ({
    params: { file: `${draw(g, fc.stringMatching(/^[A-Za-z0-9_-]{1,43}$/))}.ics` },
  }),
  'GET /api/v1/account/reminders': () => ({}),
  'GET /api/v1/account/email': () => ({}),
  'POST /api/v1/account/email/verification': () => ({}),
  'POST /api/v1/account/email/verify': (g) => ({
    body: { token: draw(g, fc.stringMatching(/^[A-Za-z0-9_-]{1,43}$/)) },
  }),
  'POST /api/v1/auth/password-reset': (g) => ({ body: { email: draw(g, fc.emailAddress()) } }),
  'POST /api/v1/auth/password-reset/confirm': (g) => ({
    body: { token: draw(g, fc.stringMatching(/^[A-Za-z0-9_-]{1,43}$/)), newPassword: 'Fuzz!Passw0rd-long' },
  }),
  'PUT /api/v1/account/reminders': (g) => ({
    body: {
      enabled: draw(g, looseBool),
      daysAhead: maybe(g, () => draw(g, fc.integer({ min: 1, max: 30 }))),
    },
  }),
  'GET /api/v1/entries/:id': (g, w) => ({ params: { id: idFrom(g, w, allEntries(w)) }, query: { filter: bypass(g) } }),
  'POST /api/v1/entries/new': (g, w) => ({
    body: {
      billId: idFrom(g, w, w.pools.bills.live),
      date: draw(g, validDate),
      flow: draw(g, validFlow),
      amount: draw(g, validAmount),
      services: maybe(g, () => draw(g, shortText)),
      dueDate: maybe(g, () => draw(g, fc.option(validDate))),
    },
  }),
  'PUT /api/v1/entries/edit': (g, w) => ({
    query: { filter: bypass(g) },
    body: {
      // Mostly an invoice an edit can change, so that the example succeeds whatever the seed (an archived or
      // recycled one is refused with 409 by design).
      entryId: idFrom(
        g,
        w,
        draw(g, fc.boolean()) || w.pools.entries.editable.length === 0 ? allEntries(w) : w.pools.entries.editable,
      ),
      billId: maybe(g, () => idFrom(g, w, w.pools.bills.live)),
      date: maybe(g, () => draw(g, validDate)),
      flow: maybe(g, () => draw(g, validFlow)),
      amount: maybe(g, () => draw(g, validAmount)),
      services: maybe(g, () => draw(g, shortText)),
      dueDate: maybe(g, () => draw(g, fc.option(validDate))),
      recycle: maybe(g, () => draw(g, looseBool)),
    },
  }),
  'GET /api/v1/payments': (g, w) => ({ query: { entryId: idFrom(g, w, allEntries(w)) } }),
  'GET /api/v1/payments/:id': (g, w) => ({ params: { id: idFrom(g, w, allPayments(w)) } }),
  'POST /api/v1/payments': (g, w) => ({
    body: {
      entryId: idFrom(g, w, w.pools.entries.live),
      date: draw(g, validDate),
      amount: draw(g, validAmount),
      ...draw(g, validMethod),
      notes: maybe(g, () => draw(g, shortText)),
      autopay: maybe(g, () => draw(g, looseBool)),
    },
  }),
  'PUT /api/v1/payments': (g, w) => {
    const id = idFrom(g, w, allPayments(w));
    return {
      query: { filter: bypass(g) },
      body: {
        ...(draw(g, fc.boolean()) ? { paymentId: id } : { id }),
        date: maybe(g, () => draw(g, validDate)),
        amount: maybe(g, () => draw(g, validAmount)),
        ...(maybe(g, () => draw(g, validMethod)) ?? {}),
        notes: maybe(g, () => draw(g, shortText)),
        autopay: maybe(g, () => draw(g, looseBool)),
        recycle: maybe(g, () => draw(g, looseBool)),
      },
    };
  },
  'GET /api/v1/recycle': () => ({}),
  'GET /api/v1/account/export': () => ({}),
  'GET /api/v1/imports': () => ({}),
  // Attachments: the fuzzing caller has none, so every id is unknown; JSON bodies are refused by the upload routes
  // (test/attachments.test.ts covers real files, the file fuzz below hostile forms).
  'GET /api/v1/entries/:id/attachments': (g, w) => ({ params: { id: idFrom(g, w, allEntries(w)) } }),
  'GET /api/v1/payments/:id/attachments': (g, w) => ({ params: { id: idFrom(g, w, allPayments(w)) } }),
  'POST /api/v1/entries/:id/attachments': (g, w) => ({
    params: { id: idFrom(g, w, allEntries(w)) },
    body: { file: draw(g, shortText) },
  }),
  'POST /api/v1/payments/:id/attachments': (g, w) => ({
    params: { id: idFrom(g, w, allPayments(w)) },
    body: { file: draw(g, shortText) },
  }),
  'GET /api/v1/attachments/:id': (g) => ({ params: { id: draw(g, fc.integer({ min: 1, max: 1_000_000 })) } }),
  'GET /api/v1/attachments/:id/thumbnail': (g) => ({ params: { id: draw(g, fc.integer({ min: 1, max: 1_000_000 })) } }),
  'DELETE /api/v1/attachments/:id': (g) => ({ params: { id: draw(g, fc.integer({ min: 1, max: 1_000_000 })) } }),
  // Bill readings: JSON bodies are refused like every upload's; the caller knows no reading's id (random, 32 hex
  // digits), so any id is unknown or malformed (test/bill-readings.test.ts reads real files).
  'POST /api/v1/bill-readings': (g) => ({ body: { file: draw(g, shortText) } }),
  'GET /api/v1/bill-readings/:readingId': (g) => ({
    params: { readingId: draw(g, fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), shortText)) },
  }),
  // Multipart routes: the fuzzer's JSON bodies are refused in words (test/imports.test.ts covers real uploads).
  'POST /api/v1/imports/preview': (g) => ({ body: { file: draw(g, shortText) } }),
  'POST /api/v1/imports': (g) => ({ body: { file: draw(g, shortText) } }),
  'POST /api/v1/imports/:id/undo': (g) => ({ params: { id: draw(g, fc.integer({ min: 1, max: 1_000_000 })) } }),
  // The caller always has data, so a well-formed file is refused (409) and must change nothing.
  'POST /api/v1/account/import': (g) => ({
    body: {
      format: 'billfold-account',
      version: 1,
      exportedAt: '2026-11-22T12:00:00.000Z',
      lastInvoiceNumber: 1,
      entities: [
        {
          ref: 1,
          name: draw(g, fc.constantFrom('Imported', 'Water Co')),
          category: 'Utilities',
          internal: false,
          archived: false,
          createdAt: '2026-11-22T12:00:00.000Z',
          deletedAt: null,
        },
      ],
      invoices: [
        {
          ref: 1,
          entity: 1,
          number: 1,
          date: draw(g, validDate),
          flow: 'expense',
          amount: '12.50',
          description: draw(g, shortText),
          createdAt: '2026-11-22T12:00:00.000Z',
          deletedAt: null,
          deletedWithEntity: false,
        },
      ],
      payments: [],
    },
  }),
  'GET /api/v1/bills/:id/schedules': (g, w) => ({ params: { id: idFrom(g, w, allBills(w)) } }),
  // Change history (docs/decisions/0108-change-history.md): any item of the caller's, in the bin or not.
  'GET /api/v1/entries/:id/history': (g, w) => ({ params: { id: idFrom(g, w, allEntries(w)) } }),
  'GET /api/v1/bills/:id/history': (g, w) => ({ params: { id: idFrom(g, w, allBills(w)) } }),
  'GET /api/v1/payments/:id/history': (g, w) => ({ params: { id: idFrom(g, w, allPayments(w)) } }),
  'POST /api/v1/bills/:id/schedules': (g, w) => ({
    params: { id: idFrom(g, w, writableBills(g, w)) },
    body: scheduleBodyOf(g),
  }),
  'POST /api/v1/bills/:id/schedules/preview': (g, w) => ({
    params: { id: idFrom(g, w, writableBills(g, w)) },
    body: scheduleBodyOf(g),
  }),
  'POST /api/v1/schedules/:id/preview': (g, w) => ({
    params: { id: idFrom(g, w, w.pools.schedules.kept) },
    body: scheduleBodyOf(g),
  }),
  'GET /api/v1/schedules/:id': (g, w) => ({ params: { id: idFrom(g, w, w.pools.schedules.kept) } }),
  'PUT /api/v1/schedules/:id': (g, w) => ({
    params: { id: idFrom(g, w, w.pools.schedules.kept) },
    body: scheduleBodyOf(g),
  }),
  'POST /api/v1/schedules/:id/pause': (g, w) => ({ params: { id: idFrom(g, w, w.pools.schedules.kept) } }),
  'POST /api/v1/schedules/:id/resume': (g, w) => ({ params: { id: idFrom(g, w, w.pools.schedules.kept) } }),
  'DELETE /api/v1/schedules/:id': (g, w) => ({ params: { id: idFrom(g, w, w.pools.schedules.disposable) } }),
  'POST /api/v1/recycle/restore': (g, w) => ({ body: recycledItem(g, w) }),
  'DELETE /api/v1/recycle/:entityType/:entityId': (g, w) => ({ params: recycledItem(g, w) }),
};

/** Routes whose every well-formed call runs the password KDF: fewer cases, or the suite would take minutes. */
const SLOW = new Set([
  'POST /api/v1/auth/create',
  // A password check (Argon2) on every case.
  'DELETE /api/v1/ledgers/:id',
  'POST /api/v1/auth/login',
  'PUT /api/v1/user',
  'POST /api/v1/user/mfa/setup',
  // These also succeed only with a code from an authenticator (test/mfa.test.ts drives them to success).
  'POST /api/v1/user/mfa/recovery-codes',
  'POST /api/v1/user/mfa/enable',
  'POST /api/v1/auth/login/mfa',
  // Succeeds only with the token of a link that went by mail (test/email-verification.test.ts follows one).
  'POST /api/v1/account/email/verify',
  // The same for a password link (test/password-reset.test.ts follows one).
  'POST /api/v1/auth/password-reset/confirm',
  // Succeeds only for a delivery that failed or gave up (test/notifications.test.ts sends one again).
  'POST /api/v1/notification-deliveries/:id/send-again',
]);
/**
 * Routes the fuzzing caller can only be refused by: it has data (an account import needs an empty account), sends
 * JSON (CSV imports take multipart uploads), has made no CSV import to undo, and knows no calendar feed address
 * (one is shown only in the answer that made it; test/calendar-feed.test.ts reads feeds).
 */
const ALWAYS_REFUSED = new Set([
  'GET /api/v1/calendar/:file',
  'POST /api/v1/account/import',
  'POST /api/v1/imports/preview',
  'POST /api/v1/imports',
  'POST /api/v1/imports/:id/undo',
  // Uploads take multipart forms; the caller has no attachment to read or delete.
  'POST /api/v1/entries/:id/attachments',
  'POST /api/v1/payments/:id/attachments',
  'GET /api/v1/attachments/:id',
  'GET /api/v1/attachments/:id/thumbnail',
  'DELETE /api/v1/attachments/:id',
  'POST /api/v1/bill-readings',
  'GET /api/v1/bill-readings/:readingId',
  // No identity provider is configured for the fuzzing server, and it never holds a provider sign-in's ticket.
  'GET /api/v1/auth/oidc/start',
  'GET /api/v1/auth/oidc/callback',
  'POST /api/v1/auth/oidc/exchange',
  'POST /api/v1/account/oidc/link',
  'POST /api/v1/account/oidc/unlink',
  // The fuzzing server has no mail settings, so no password link can be asked for (test/password-reset.test.ts).
  'POST /api/v1/auth/password-reset',
]);
const weightOf = (route: string) =>
  route.startsWith('HEAD ') ||
  SLOW.has(route) ||
  ALWAYS_REFUSED.has(route) ||
  route.endsWith('/health') ||
  route.endsWith('openapi.json')
    ? 2
    : 10;

/**
 * Stored changes a refusal may make, by design: a failed login, and any sign-up or refresh attempt, is counted
 * (that is the throttle), and a refresh token presented twice revokes its family (reuse detection). Nothing else
 * may change on a 4xx.
 */
const CHANGES_ON_REFUSAL: Record<string, string[]> = {
  'POST /api/v1/auth/create': ['login_failures'],
  'POST /api/v1/auth/login': ['login_failures'],
  'POST /api/v1/auth/refresh': ['refresh_tokens', 'login_failures'],
  // A wrong authentication code is recorded too (the same throttle).
  'POST /api/v1/auth/login/mfa': ['login_failures'],
  'POST /api/v1/user/mfa/enable': ['login_failures'],
  'POST /api/v1/user/mfa/recovery-codes': ['login_failures'],
  // A wrong current password counts with failed sign-ins (ADR 1130).
  'POST /api/v1/user/mfa/setup': ['login_failures'],
  'PUT /api/v1/user': ['login_failures'],
  'PUT /api/v1/account/calendar-feed': ['login_failures'],
  'DELETE /api/v1/ledgers/:id': ['login_failures'],
  // An unusable invitation link counts against the caller and their address (docs/api/ledgers.md).
  'GET /api/v1/invitations/:token': ['login_failures'],
  'HEAD /api/v1/invitations/:token': ['login_failures'],
  'POST /api/v1/invitations/:token/accept': ['login_failures'],
};

// ---------- mutations ----------

interface Operation {
  query: Record<string, JsonSchema>;
  path: Record<string, JsonSchema>;
  body?: JsonSchema;
}

type OpenApiDoc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
};

function operationOf(doc: OpenApiDoc, route: string): Operation {
  const [method = '', path = ''] = route.split(' ');
  const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[(method === 'HEAD' ? 'GET' : method).toLowerCase()];
  const params = (where: string) =>
    Object.fromEntries((op?.parameters ?? []).filter((p) => p.in === where).map((p) => [p.name, p.schema]));
  const body = op?.requestBody?.content['application/json']?.schema;
  return { query: params('query'), path: params('path'), ...(body ? { body } : {}) };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key assigned as an own property, `__proto__` included, so JSON.stringify writes it. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function fieldValue(g: Gen, schema: JsonSchema | undefined): unknown {
  return draw(
    g,
    fc.oneof(
      { weight: 3, arbitrary: fromSchema(schema) },
      { weight: 4, arbitrary: nastyValue },
      {
        weight: 2,
        arbitrary: fc.oneof(
          validDate,
          validAmount,
          validFlow,
          validCategory,
          looseBool,
          fc.integer({ min: 1, max: 50 }),
        ),
      },
    ),
  );
}

const MUTATIONS = [
  'set-body-field',
  'drop-body-field',
  'extra-body-field',
  'replace-body',
  'malformed-json',
  'content-type',
  'no-body',
  'huge-body',
  'set-query',
  'drop-query',
  'duplicate-query',
  'junk-query',
  'path-param',
  'method',
] as const;
type Mutation = (typeof MUTATIONS)[number];

function mutate(g: Gen, draft: Draft, op: Operation, kind: Mutation): void {
  const bodyKeys = () => [
    ...new Set([...Object.keys(op.body?.properties ?? {}), ...Object.keys(isObject(draft.body) ? draft.body : {})]),
  ];
  const queryKeys = () => [...new Set([...Object.keys(op.query), ...Object.keys(draft.query)])];
  switch (kind) {
    case 'set-body-field': {
      const keys = bodyKeys();
      if (keys.length === 0) return;
      const key = draw(g, fc.constantFrom(...keys));
      const body = isObject(draft.body) ? { ...draft.body } : {};
      setOwn(body, key, fieldValue(g, op.body?.properties?.[key]));
      draft.body = body;
      draft.mutations.push(`body.${key}=${short(body[key])}`);
      return;
    }
    case 'drop-body-field': {
      if (!isObject(draft.body)) return;
      const keys = Object.keys(draft.body);
      if (keys.length === 0) return;
      const key = draw(g, fc.constantFrom(...keys));
      const { [key]: _dropped, ...rest } = draft.body;
      draft.body = rest;
      draft.mutations.push(`drop body.${key}`);
      return;
    }
    case 'extra-body-field': {
      const key = draw(g, fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 12 })));
      const body = isObject(draft.body) ? { ...draft.body } : {};
      setOwn(body, key, draw(g, fc.oneof(nastyValue, fc.integer({ min: 1, max: 50 }), fc.constant({ admin: true }))));
      draft.body = body;
      draft.mutations.push(`extra body.${key}=${short(body[key])}`);
      return;
    }
    case 'replace-body': {
      const deep = draw(g, fc.integer({ min: 1, max: 200 }));
      const nested = JSON.parse(`${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`);
      draft.body = draw(g, fc.oneof(nastyValue, fc.constant([draft.body, draft.body]), fc.constant(nested)));
      draft.mutations.push(`body=${short(draft.body)}`);
      return;
    }
    case 'malformed-json': {
      const text = JSON.stringify(draft.body ?? {}) ?? '{}';
      const keys = isObject(draft.body) ? Object.keys(draft.body) : [];
      const variants: fc.Arbitrary<string>[] = [
        fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut)),
        fc.constantFrom('}', ',', 'x', ']', '\u0000', ' garbage').map((tail) => text + tail),
        fc.constant(text.replaceAll('"', "'")),
        fc.constantFrom('NaN', 'undefined', "{'a':1}", '{"a":}', '{"a" 1}', '[', '"unterminated', '{}{}', '\ufeff{}'),
        // Nesting far past any recursion limit.
        fc.constant(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      ];
      if (keys.length > 0) {
        const key = draw(g, fc.constantFrom(...keys));
        variants.push(
          fc
            .constantFrom(...RAW_NUMBER_TOKENS, 'NaN', 'Infinity', '-', '01', '.5')
            .map((token) =>
              text.replace(new RegExp(`("${escapeRegExp(key)}":)(?:"(?:[^"\\\\]|\\\\.)*"|[^,}]*)`), `$1${token}`),
            ),
          fc.constant(`${text.slice(0, -1)},"${key}":{"nested":[1,2]}}`),
        );
      }
      draft.rawBody = draw(g, fc.oneof(...variants));
      draft.mutations.push(`raw body ${short(draft.rawBody)}`);
      return;
    }
    case 'content-type': {
      draft.contentType = draw(g, fc.constantFrom(...WRONG_CONTENT_TYPES));
      draft.rawBody = draw(g, fc.constantFrom(JSON.stringify(draft.body ?? {}) ?? '{}', 'a=1&b=2', '<a/>', ''));
      draft.mutations.push(`content-type ${draft.contentType}`);
      return;
    }
    case 'no-body': {
      draft.body = undefined;
      draft.rawBody = draw(g, fc.constantFrom('', ' ', '\n'));
      draft.mutations.push('empty body');
      return;
    }
    case 'huge-body': {
      draft.rawBody = JSON.stringify({ ...(isObject(draft.body) ? draft.body : {}), pad: 'x'.repeat(300 * 1024) });
      draft.mutations.push('300 KiB body');
      return;
    }
    case 'set-query': {
      const key = draw(g, fc.oneof(fc.constantFrom(...queryKeys(), ...EXTRA_KEYS), fc.string({ maxLength: 8 })));
      draft.query = { ...draft.query, [key]: fieldValue(g, op.query[key]) };
      draft.mutations.push(`query.${key}=${short(draft.query[key])}`);
      return;
    }
    case 'drop-query': {
      const keys = Object.keys(draft.query).filter((k) => draft.query[k] !== undefined);
      if (keys.length === 0) return;
      const key = draw(g, fc.constantFrom(...keys));
      draft.query = { ...draft.query, [key]: undefined };
      draft.mutations.push(`drop query.${key}`);
      return;
    }
    case 'duplicate-query': {
      const keys = queryKeys();
      if (keys.length === 0) return;
      const key = draw(g, fc.constantFrom(...keys));
      draft.extraQuery.push([key, queryText(fieldValue(g, op.query[key]))]);
      draft.mutations.push(`duplicate query.${key}`);
      return;
    }
    case 'junk-query': {
      draft.rawQuery.push(draw(g, fc.constantFrom(...RAW_QUERY_JUNK)));
      draft.mutations.push(`junk query ${draft.rawQuery.at(-1)}`);
      return;
    }
    case 'path-param': {
      const names = Object.keys(draft.params);
      if (names.length === 0) return;
      const name = draw(g, fc.constantFrom(...names));
      draft.rawParams[name] = draw(
        g,
        fc.oneof(
          fc.constantFrom(...NASTY_PATH_PARAMS),
          nastyString.map((s) => encode(s.slice(0, 150))),
        ),
      );
      draft.mutations.push(`path ${name}=${short(draft.rawParams[name])}`);
      return;
    }
    case 'method': {
      draft.method = draw(g, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'));
      draft.mutations.push(`method ${draft.method}`);
      return;
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function short(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...(${text.length})` : text;
}

/** `encodeURIComponent`, with lone surrogates sent as U+FFFD (as any client would: they have no UTF-8 form). */
function encode(text: string): string {
  return encodeURIComponent(
    text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );
}

function queryText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The draft as `app.inject` options: arrays become repeated keys, objects JSON text, path parameters raw. */
function toInject(draft: Draft, w: World, remoteAddress: string): InjectOptions {
  const path = draft.route.replace(
    /:(\w+)/g,
    (_, name: string) => draft.rawParams[name] ?? encode(queryText(draft.params[name])),
  );
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(draft.query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      pairs.push(`${encode(key)}=${encode(queryText(item))}`);
    }
  }
  for (const [key, value] of draft.extraQuery) pairs.push(`${encode(key)}=${encode(value)}`);
  pairs.push(...draft.rawQuery);
  const headers: Record<string, string> = { authorization: `Bearer ${w.me.accessToken}` };
  let payload: string | undefined;
  if (draft.rawBody !== undefined) payload = draft.rawBody;
  else if (draft.body !== undefined) payload = JSON.stringify(draft.body);
  if (payload !== undefined) headers['content-type'] = draft.contentType ?? 'application/json';
  return {
    method: draft.method as InjectOptions['method'],
    url: pairs.length > 0 ? `${path}?${pairs.join('&')}` : path,
    headers,
    remoteAddress,
    ...(payload === undefined ? {} : { payload }),
  };
}

// ---------- the world ----------

const num = (row: Row, key: string) => Number(row[key]);

/** The user's personal ledger, in a snapshot: every request without the ledger header works in it. */
function personalLedgerIn(state: Snapshot, userId: number): number {
  const row = (state.ledgers ?? []).find((l) => num(l, 'personal_user_id') === userId);
  if (!row) throw new Error(`no personal ledger for user ${userId}`);
  return num(row, 'id');
}

/** The caller's rows by kind (their personal ledger's), read from the latest snapshot. */
function poolsOf(state: Snapshot, userId: number): Pools {
  const ledgerId = personalLedgerIn(state, userId);
  const mine = (table: string) => (state[table] ?? []).filter((row) => num(row, 'ledger_id') === ledgerId);
  const bills = mine('bills');
  const entries = mine('entries');
  const payments = mine('payments');
  const live = (row: Row) => row.recycled_at === null;
  const active = new Set(bills.filter((b) => live(b) && num(b, 'status') === 1).map((b) => num(b, 'id')));
  const usable = (disposable: boolean) =>
    mine('schedules')
      .filter((row) => active.has(num(row, 'bill_id')) && String(row.template).startsWith('Disposable') === disposable)
      .map((row) => num(row, 'id'));
  const recycledBills = new Set(bills.filter((b) => !live(b)).map((b) => num(b, 'id')));
  const recycledEntries = new Set(entries.filter((e) => !live(e)).map((e) => num(e, 'id')));
  return {
    bills: {
      live: bills.filter((b) => live(b) && num(b, 'status') === 1).map((b) => num(b, 'id')),
      archived: bills.filter((b) => live(b) && num(b, 'status') === 0).map((b) => num(b, 'id')),
      recycled: bills.filter((b) => !live(b)).map((b) => num(b, 'id')),
      names: bills.filter(live).map((b) => String(b.name)),
    },
    entries: {
      live: entries.filter(live).map((e) => num(e, 'id')),
      editable: entries.filter((e) => live(e) && num(e, 'archived') === 0).map((e) => num(e, 'id')),
      recycled: [...recycledEntries],
      binned: entries.filter((e) => !live(e) && !recycledBills.has(num(e, 'bill_id'))).map((e) => num(e, 'id')),
      numbers: entries.map((e) => num(e, 'invoice_number')),
    },
    payments: {
      live: payments.filter(live).map((p) => num(p, 'id')),
      recycled: payments.filter((p) => !live(p)).map((p) => num(p, 'id')),
      binned: payments.filter((p) => !live(p) && !recycledEntries.has(num(p, 'entry_id'))).map((p) => num(p, 'id')),
    },
    schedules: {
      kept: usable(false),
      disposable: usable(true),
    },
    categories: mine('categories').map((row) => num(row, 'id')),
    channels: (state.notification_channels ?? [])
      .filter((row) => num(row, 'user_id') === userId)
      .map((row) => num(row, 'id')),
    tokens: (state.api_tokens ?? []).filter((row) => num(row, 'user_id') === userId).map((row) => num(row, 'id')),
    ledgers: ledgerPools(state, userId),
  };
}

function ledgerPools(state: Snapshot, userId: number): Pools['ledgers'] {
  const memberships = (state.ledger_members ?? []).filter((row) => num(row, 'user_id') === userId);
  const owned = memberships.filter((row) => row.role === 'owner').map((row) => num(row, 'ledger_id'));
  const ownedSet = new Set(owned);
  return {
    all: memberships.map((row) => num(row, 'ledger_id')),
    owned,
    members: (state.ledger_members ?? [])
      .filter((row) => ownedSet.has(num(row, 'ledger_id')) && num(row, 'user_id') !== userId)
      .map((row) => ({ ledger: num(row, 'ledger_id'), id: num(row, 'user_id') })),
    invitations: (state.ledger_invitations ?? [])
      .filter((row) => ownedSet.has(num(row, 'ledger_id')) && row.accepted_at === null && row.revoked_at === null)
      .map((row) => ({ ledger: num(row, 'ledger_id'), id: num(row, 'id') })),
  };
}

/** The other user's rows, as text: they must never change. */
function victimRows(state: Snapshot, victimId: number): string {
  const ledgerId = personalLedgerIn(state, victimId);
  return JSON.stringify(
    ['bills', 'entries', 'payments', 'schedules', 'categories', 'users', 'ledger_members'].map((table) =>
      (state[table] ?? []).filter((row) =>
        table === 'users' || table === 'ledger_members'
          ? num(row, table === 'users' ? 'id' : 'user_id') === victimId
          : num(row, 'ledger_id') === ledgerId,
      ),
    ),
  );
}

async function userIdOf(t: TestApp, s: Session): Promise<number> {
  const row = await t.app.db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', s.username.toLowerCase())
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Live, archived and recycled rows of every kind, for a user. */
async function furnish(api: Api, label: string) {
  const bill = await createBill(api, { name: `${label} Main`, category: 'Utilities' });
  const internal = await createBill(api, { name: `${label} Savings`, internal: true });
  const archived = await createBill(api, { name: `${label} Old` });
  const recycled = await createBill(api, { name: `${label} Gone` });
  const entry = await createEntry(api, { billId: bill.id, amount: 100, services: `${label} services` });
  await createPayment(api, { entryId: entry.entryId, amount: 40, notes: `${label} notes` });
  const paidOff = await createEntry(api, { billId: internal.id, amount: 10, flow: 'expense' });
  await createPayment(api, { entryId: paidOff.entryId, amount: 12 });
  const dropped = await createPayment(api, { entryId: entry.entryId, amount: 5 });
  await updatePayment(api, { paymentId: dropped.paymentId, recycle: true });
  const binned = await createEntry(api, { billId: bill.id, amount: 7 });
  await createPayment(api, { entryId: binned.entryId, amount: 3 });
  await editEntry(api, { entryId: binned.entryId, recycle: true });
  const onArchived = await createEntry(api, { billId: archived.id, amount: 9 });
  await updateBill(api, { id: archived.id, status: 0 });
  await createEntry(api, { billId: recycled.id, amount: 11 });
  const schedule = await createSchedule(api, bill.id, { description: `${label} {month}`, autopay: 'bank|ach' });
  await createSchedule(api, internal.id, { cadence: 'weekly', firstDate: '2026-12-07' });
  for (const owner of [bill, internal, bill, internal]) {
    await createSchedule(api, owner.id, { description: 'Disposable {n}', cadence: 'yearly' });
  }
  await updateBill(api, { id: recycled.id, recycle: true });
  return { bill, entry, dropped, binned, onArchived, recycled, schedule };
}

/**
 * Routes that use up the caller's items of a kind (restore and delete forever empty the bin, a schedule delete has
 * no undo) get fresh ones, made through the API before the route is fuzzed, when other routes have used them all:
 * otherwise whether such a route ever succeeds would depend on the order and the seed. Returns whether it made any.
 */
let restocks = 0;
async function restock(api: Api, route: string, pools: Pools): Promise<boolean> {
  restocks += 1;
  const bin = route === 'DELETE /api/v1/recycle/:entityType/:entityId' || route === 'POST /api/v1/recycle/restore';
  if (bin && pools.bills.recycled.length + pools.entries.binned.length + pools.payments.binned.length < 3) {
    const gone = await createBill(api, { name: `Restock ${restocks}` });
    const entry = await createEntry(api, { billId: gone.id, amount: 4 });
    const payment = await createPayment(api, { entryId: entry.entryId, amount: 1 });
    await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
    await editEntry(api, { entryId: (await createEntry(api, { billId: gone.id, amount: 6 })).entryId, recycle: true });
    const spare = await createBill(api, { name: `Restock spare ${restocks}` });
    await updateBill(api, { id: spare.id, recycle: true });
    return true;
  }
  if (/\/(ledgers|invitations)\//.test(route)) {
    const { owned, members, invitations } = pools.ledgers;
    const tokenRoute = route.includes('/invitations/:token');
    if (owned.length >= 3 && members.length >= 2 && invitations.length >= 2 && !tokenRoute) return false;
    // Two shared ledgers of the caller's, each with a member and a pending invitation, and for the link routes
    // a link into one of them (the caller is a member already) and one into another user's ledger (to join).
    for (let i = 0; i < 2; i++) {
      const ledger = await createLedger(api, `Restock ledger ${restocks}-${i}`);
      await join(api, ledger.id, { app: api.app, session: await signUp(api.app) }, 'editor');
      invitationTokens.push((await invite(api, ledger.id)).token);
    }
    const host = { app: api.app, session: await signUp(api.app) };
    invitationTokens.push((await invite(host, (await createLedger(host, `Host ledger ${restocks}`)).id)).token);
    return true;
  }
  if (/^(PATCH|POST|DELETE) \/api\/v1\/notification-channels\/:id/.test(route) && pools.channels.length === 0) {
    const channel = await api.app.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      headers: api.session.headers,
      payload: { kind: 'email', name: `Restock ${restocks}`, events: ['overdue'] },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    return true;
  }
  if (route === 'DELETE /api/v1/tokens/:id' && pools.tokens.length === 0) {
    const token = await api.app.inject({
      method: 'POST',
      url: '/api/v1/tokens',
      headers: api.session.headers,
      payload: { name: `Restock ${restocks}`, scope: 'read' },
    });
    expect(token.statusCode, token.body).toBe(201);
    return true;
  }
  if (route === 'DELETE /api/v1/schedules/:id' && pools.schedules.disposable.length === 0) {
    const owner = await createBill(api, { name: `Restock schedules ${restocks}` });
    for (let i = 0; i < 2; i++)
      await createSchedule(api, owner.id, { description: 'Disposable {n}', cadence: 'yearly' });
    return true;
  }
  return false;
}

// ---------- the suite ----------

describe.each(dialects)('fuzzing every route on %s', (dialect) => {
  let t: TestApp;
  let w: World;
  let tables: string[];
  let routes: string[];
  let doc: OpenApiDoc;
  let originalUser: Row;
  let state: Snapshot;

  let smtp: Smtp;

  beforeAll(async () => {
    invitationTokens.length = 0;
    // A real mail server, so the routes that send mail (address verification) are fuzzed past "cannot send".
    smtp = await startSmtp();
    t = await createTestApp(dialect, {
      mail: { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' },
      // The invitation throttles would turn the ledger routes' later cases into 429s (test/invitations.test.ts
      // covers them); here the routes behind them are fuzzed.
      limits: { invitations: 1_000_000, invitationAttempts: 1_000_000 },
    });
    const victimSession = await signUp(t.app);
    const victim = await furnish({ app: t.app, session: victimSession }, `Victim Secret ${dialect}`);
    const meSession = await signUp(t.app);
    await furnish({ app: t.app, session: meSession }, 'Fuzzer');
    // A notification channel each: the victim's is id 1 (never the caller's to change), the caller's id 2.
    for (const session of [victimSession, meSession]) {
      const channel = await t.app.inject({
        method: 'POST',
        url: '/api/v1/notification-channels',
        headers: session.headers,
        payload: { kind: 'email', name: 'Mail', events: ['overdue'] },
      });
      expect(channel.statusCode, channel.body).toBe(201);
    }
    const victimId = await userIdOf(t, victimSession);
    const victimLedger = Number(
      (
        await t.app.db
          .selectFrom('ledgers')
          .select('id')
          .where('personal_user_id', '=', victimId)
          .executeTakeFirstOrThrow()
      ).id,
    );
    tables = await tableNames(t.app.db);
    state = await snapshot(t.app.db, tables);
    const meId = await userIdOf(t, meSession);
    w = {
      dialect,
      me: { ...meSession, id: meId },
      victim: {
        id: victimId,
        ids: [
          victim.bill.id,
          victim.entry.entryId,
          victim.dropped.paymentId,
          victim.binned.entryId,
          victim.recycled.id,
          victim.schedule.id,
          victimLedger,
        ],
        secrets: [
          victimSession.username,
          victimSession.email,
          `Victim Secret ${dialect}`,
          `Victim Secret ${dialect} services`,
          `Victim Secret ${dialect} notes`,
        ],
        rows: victimRows(state, victimId),
      },
      pools: poolsOf(state, meId),
      counter: 0,
    };
    originalUser = (state.users ?? []).find((row) => num(row, 'id') === meId) as Row;
    routes = apiRoutes(t.app);
    doc = t.app.swagger() as unknown as OpenApiDoc;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('has a valid example for every registered /api/v1 route and method, and none for a route that does not exist', () => {
    const gets = new Set(routes.filter((r) => r.startsWith('GET ')));
    for (const route of routes) {
      const key = route.startsWith('HEAD ') ? route.replace('HEAD', 'GET') : route;
      expect(EXAMPLES, `${route} has no fuzz example`).toHaveProperty([key]);
      if (route.startsWith('HEAD ')) expect(gets.has(key)).toBe(true);
    }
    expect(Object.keys(EXAMPLES).filter((key) => !routes.includes(key))).toEqual([]);
    expect(routes.length).toBeGreaterThan(30);
  });

  /** A 2xx on a route that may write: the world moves on; an account change is undone so the fuzzer stays signed in. */
  async function accept(route: string, res: LightMyRequestResponse): Promise<void> {
    if (route === 'PUT /api/v1/user') {
      await t.app.db
        .updateTable('users')
        .set({
          password_hash: String(originalUser.password_hash),
          email: String(originalUser.email),
          email_key: String(originalUser.email_key),
          deactivated_at: null,
        })
        .where('id', '=', w.me.id)
        .execute();
      try {
        const again = await signIn(t.app, w.me);
        Object.assign(w.me, {
          accessToken: again.accessToken,
          refreshToken: again.refreshToken,
          headers: again.headers,
        });
      } catch {
        // throttled by the fuzzer's own failed logins: the access token still works, the refresh token is revoked
      }
    }
    if ((route === 'POST /api/v1/auth/login' || route === 'POST /api/v1/auth/refresh') && res.statusCode === 200) {
      const tokens = res.json<{ username: string; refreshToken: string }>();
      if (tokens.username === w.me.username) w.me.refreshToken = tokens.refreshToken;
    }
    state = await snapshot(t.app.db, tables);
    w.pools = poolsOf(state, w.me.id);
  }

  function verdict(route: string, draft: Draft, options: InjectOptions, res: LightMyRequestResponse): void {
    const label = `[seed ${MASTER_SEED}] ${route} ${draft.mutations.join(' | ') || '(valid example)'}\n  ${options.method} ${short(options.url)} ${short(options.payload)}\n  → ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(res.statusCode, label).toBeGreaterThanOrEqual(200);
    expect(res.statusCode, label).toBeLessThan(500);
    const url = String(options.url);
    if (url.startsWith('/api/')) {
      expect(res.headers['cache-control'], label).toBe('no-store');
      expect(res.headers['x-content-type-options'], label).toBe('nosniff');
      expect(String(res.headers['content-security-policy']), label).toContain("frame-ancestors 'none'");
    }
    if (options.method === 'HEAD') return;
    const type = String(res.headers['content-type']);
    const csv = route.endsWith('/entries/export') && res.statusCode === 200;
    expect(type, label).toMatch(csv ? /^text\/csv/ : /^application\/json/);
    if (!csv) {
      const body = JSON.parse(res.body) as unknown;
      if (res.statusCode >= 400) {
        expect(body, label).toEqual({
          statusCode: res.statusCode,
          error: expect.any(String),
          code: expect.any(String),
          message: expect.any(String),
        });
        expect(isErrorCode((body as { code: unknown }).code), label).toBe(true);
      }
    }
    for (const secret of ['$argon2', ...w.victim.secrets]) {
      expect(res.body.includes(secret), `${label}\n  leaks ${secret}`).toBe(false);
    }
    // The column as a field of an answer. A refusal may quote a key the request itself sent ("Unrecognized key:
    // \"password_hash\"" from a route that takes no other keys): that tells the client nothing it did not send.
    expect(res.body.includes('"password_hash":'), `${label}\n  leaks a password_hash field`).toBe(false);
    expect(res.body, label).not.toMatch(/\bat [^\n]+:\d+:\d+\)?\n|node_modules|\.ts:\d+/);
  }

  it(
    `answers ${RUNS_PER_DIALECT}+ generated requests without a 5xx, a leak, or a stored change on refusal`,
    async () => {
      const totalWeight = routes.reduce((sum, route) => sum + weightOf(route), 0);
      const tally: Record<string, Record<string, number>> = {};
      let cases = 0;
      for (const [index, route] of routes.entries()) {
        const [method = '', path = ''] = route.split(' ');
        const example = EXAMPLES[method === 'HEAD' ? `GET ${path}` : route];
        if (!example) throw new Error(`no example for ${route}`);
        const op = operationOf(doc, route);
        const numRuns = Math.max(5, Math.ceil((RUNS_PER_DIALECT * weightOf(route)) / totalWeight));
        tally[route] = {};
        let run = 0;
        if (await restock({ app: t.app, session: w.me }, route, w.pools)) {
          state = await snapshot(t.app.db, tables);
          w.pools = poolsOf(state, w.me.id);
        }
        await fc.assert(
          fc.asyncProperty(fc.gen(), async (g) => {
            const base = example(g, w);
            const draft: Draft = {
              method,
              route: path,
              params: base.params ?? {},
              rawParams: {},
              query: base.query ?? {},
              extraQuery: [],
              rawQuery: [],
              body: base.body,
              mutations: [],
            };
            // The first three cases of a route, every case until its example has once succeeded, and a third of the
            // rest go unmutated: writes are accepted, deeper states are reached, and an example that is valid only
            // some of the time (a date drawn before another) still succeeds within a route's cases whatever the seed.
            run += 1;
            const succeeded = Object.keys(tally[route] ?? {}).some((code) => code.startsWith('2'));
            const count =
              run <= 3 || !succeeded
                ? 0
                : draw(
                    g,
                    fc.oneof(
                      { weight: 1, arbitrary: fc.constant(0) },
                      { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) },
                    ),
                  );
            for (let i = 0; i < count; i++) mutate(g, draft, op, draw(g, fc.constantFrom(...MUTATIONS)));
            const options = toInject(draft, w, draw(g, fc.ipV4()));
            const res = await t.app.inject(options);
            cases += 1;
            const bucket = `${res.statusCode}`;
            const counts = tally[route] as Record<string, number>;
            counts[bucket] = (counts[bucket] ?? 0) + 1;
            verdict(route, draft, options, res);

            const after = await snapshot(t.app.db, tables);
            const changed = changedTables(state, after);
            const label = `[seed ${MASTER_SEED}] ${route} ${draft.mutations.join(' | ')} → ${res.statusCode} ${res.body.slice(0, 200)}`;
            const read = draft.method === 'GET' || draft.method === 'HEAD';
            if (res.statusCode >= 400) {
              const allowed = CHANGES_ON_REFUSAL[route] ?? [];
              const unexpected = changed.filter((table) => !allowed.includes(table));
              expect(unexpected, `refusal changed tables: ${label}\n${describeChanges(state, after)}`).toEqual([]);
            } else if (read) {
              expect(changed, `a read changed tables: ${label}\n${describeChanges(state, after)}`).toEqual([]);
            }
            expect(victimRows(after, w.victim.id), `the other user's rows changed: ${label}`).toBe(w.victim.rows);
            if (res.statusCode < 300 && !read) await accept(route, res);
            else state = after;
          }),
          { numRuns, seed: MASTER_SEED + index, endOnFailure: true },
        );
      }

      expect(cases).toBeGreaterThanOrEqual(RUNS_PER_DIALECT);
      // Every write the fuzzer got accepted kept every invoice's totals exact.
      expect(await totalsMismatches(t.app.db)).toEqual([]);
      // The examples stay valid: every route that is fuzzed often got at least one success.
      for (const route of routes) {
        if (weightOf(route) < 10) continue;
        const successes = Object.entries(tally[route] ?? {})
          .filter(([code]) => code.startsWith('2'))
          .reduce((sum, [, n]) => sum + n, 0);
        expect(successes, `${route} never succeeded: ${JSON.stringify(tally[route])}`).toBeGreaterThan(0);
      }
      const summary = Object.entries(tally).map(([route, counts]) => `${route} ${JSON.stringify(counts)}`);
      console.info(`fuzz on ${dialect}: ${cases} cases, seed ${MASTER_SEED}\n  ${summary.join('\n  ')}`);
    },
    SOAK ? 4 * 3_600_000 : 300_000,
  );
});

// ---------- files: CSV uploads, multipart forms and account files ----------

/** Hostile CSV text: wide headers, many rows, long and quoted fields, odd delimiters, broken quotes, binary. */
const hostileCsv: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc
    .integer({ min: 1, max: 60_000 })
    .map((columns) => `${Array.from({ length: columns }, (_, i) => `c${i}`).join(',')}\n1,2\n`),
  fc
    .tuple(fc.integer({ min: 0, max: 3_000 }), fc.constantFrom(',', ';', '\t'))
    .map(([rows, d]) =>
      [
        `Date${d}Entity${d}Amount`,
        ...Array.from({ length: rows }, (_, i) => `2026-01-0${(i % 9) + 1}${d}P ${i}${d}-1.00`),
      ].join('\n'),
    ),
  fc
    .tuple(fc.integer({ min: 0, max: 400_000 }), fc.boolean())
    .map(
      ([length, quoted]) =>
        `Date,Entity,Amount\n2026-01-05,${quoted ? `"${'x'.repeat(length)}"` : 'x'.repeat(length)},-1\n`,
    ),
  fc.string({ unit: 'binary', maxLength: 2_000 }).map((text) => `Date,Entity,Amount\n${text}`),
  fc.uint8Array({ maxLength: 4_000 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom('"', '"a\n', 'Date,"Entity\n2026,"x', '\uFEFF', '\u0000,\u0000', 'a,b\r\r\r\n\n,,,'),
);

/** A multipart body around `content`, or a malformed one: cut off, wrong boundary, extra files and fields. */
function hostileForm(g: Gen, content: string | Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'fuzzboundary';
  const part = (name: string, body: string | Buffer, file = true) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="f.csv"' : ''}\r\n\r\n`,
      ),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from('\r\n'),
    ]);
  const shape = draw(
    g,
    fc.constantFrom('ok', 'cut', 'two-files', 'fields', 'no-end', 'bad-boundary', 'no-file', 'huge-header'),
  );
  const parts: Buffer[] = [];
  if (shape === 'huge-header') {
    const size = draw(g, fc.integer({ min: 8 * 1024, max: 256 * 1024 }));
    parts.push(Buffer.from(`--${boundary}\r\nX-Padding: ${'h'.repeat(size)}\r\n`));
  }
  if (shape === 'fields' || shape === 'no-file')
    parts.push(
      part(draw(g, fc.constantFrom('mapping', 'keep', '__proto__', 'x')), draw(g, nastyString), false),
      part('mapping', '{"date":0,"amount":2,"entity":1}', false),
    );
  if (shape !== 'no-file') parts.push(part('file', content));
  if (shape === 'two-files') parts.push(part('file', content));
  if (shape !== 'no-end') parts.push(Buffer.from(`--${boundary}--\r\n`));
  let payload = Buffer.concat(parts);
  if (shape === 'cut') payload = payload.subarray(0, draw(g, fc.integer({ min: 0, max: payload.length })));
  const type =
    shape === 'bad-boundary' ? 'multipart/form-data; boundary=other' : `multipart/form-data; boundary=${boundary}`;
  return { payload, headers: { 'content-type': type } };
}

/** Hostile attachment files: random bytes, real magic numbers over junk, and images claiming enormous sizes. */
const hostileAttachment: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 4_000 }).map((bytes) => Buffer.from(bytes)),
  fc
    .tuple(
      fc.constantFrom(
        '%PDF-1.7\n',
        '\x89PNG\r\n\x1a\n',
        '\xff\xd8\xff\xe0',
        'RIFF\x00\x00\x00\x00WEBPVP8 ',
        '\x00\x00\x00\x18ftypheic',
        'GIF89a',
        '<svg xmlns="http://www.w3.org/2000/svg">',
      ),
      fc.uint8Array({ maxLength: 2_000 }),
    )
    .map(([magic, rest]) => Buffer.concat([Buffer.from(magic, 'latin1'), Buffer.from(rest)])),
  // A PNG whose header claims 60000 × 60000 pixels over a few bytes of data: a decompression bomb for a decoder.
  fc.integer({ min: 1, max: 0x7fffffff }).map((side) => pngClaiming(Math.min(side, 60_000))),
  // Larger than the fuzzing server's file limit.
  fc
    .integer({ min: 65 * 1024, max: 200 * 1024 })
    .map((n) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(n)])),
);

/** A PNG signature and IHDR chunk for a `side` × `side` picture, then a tiny IDAT and IEND (CRCs not checked). */
function pngClaiming(side: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0xed, 0xc1, 0x01, 0x0d, 0x00, 0x00, 0x00])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Hostile account files: not JSON, huge arrays, deep nesting, dangling refs, prototype keys, wrong types. */
const hostileAccountFile: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 500 }),
  fc.integer({ min: 0, max: 200_000 }).map((n) => `[${'0,'.repeat(n)}0]`),
  fc.integer({ min: 1, max: 50_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.anything().map((value) => JSON.stringify({ format: 'billfold-account', version: 2, entities: value }) ?? 'null'),
  fc
    .record({
      version: fc.oneof(fc.constant(1), fc.constant(2), fc.integer()),
      invoices: fc.array(fc.record({ ref: fc.integer(), entity: fc.integer(), number: fc.integer() }), {
        maxLength: 50,
      }),
    })
    .map((file) =>
      JSON.stringify({ format: 'billfold-account', exportedAt: 'x', entities: [], payments: [], ...file }),
    ),
  fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{}}}', '\uFEFF{}', '{"a":1e400}'),
);

describe.each(dialects)('fuzzing the file routes on %s', (dialect) => {
  let t: TestApp;
  let me: Session;
  let invoice: number;
  let tables: string[];

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      // Small limits, so that files over them stay cheap to generate; the defaults are the same code.
      limits: {
        csvBytes: 256 * 1024,
        accountFileBytes: 256 * 1024,
        csvColumns: 50,
        csvFieldChars: 2_000,
        importRows: 2_000,
        attachmentBytes: 64 * 1024,
      },
    });
    me = await signUp(t.app);
    await createBill({ app: t.app, session: me }, { name: 'Power', category: 'Utilities' });
    invoice = (await createEntry({ app: t.app, session: me })).entryId;
    // Readings taken change in the background as they are read: their rows are counted instead.
    tables = (await tableNames(t.app.db)).filter((name) => name !== 'bill_readings');
  });
  afterAll(() => t.close());
  const readingRows = () => rowCount(t.app.db, 'bill_readings');

  it('answers hostile CSV uploads, attachments, multipart forms and account files with 2xx/4xx JSON, storing nothing on refusal', async () => {
    const runs = Math.max(30, Math.ceil(RUNS_PER_DIALECT / 20));
    const tally: Record<string, number> = {};
    const stored = () => filesUnder(dirname(t.app.files.tempDir));
    const readings: Array<{ id: string; label: string }> = [];
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const route = draw(
          g,
          fc.constantFrom('/imports/preview', '/imports', '/account/import', '/attachments', '/bill-readings'),
        );
        let res: LightMyRequestResponse;
        const files = stored();
        if (route === '/attachments' || route === '/bill-readings') {
          const form = hostileForm(g, draw(g, hostileAttachment));
          res = await t.app.inject({
            method: 'POST',
            url: route === '/attachments' ? `/api/v1/entries/${invoice}/attachments` : '/api/v1/bill-readings',
            headers: { ...me.headers, ...form.headers },
            payload: form.payload,
          });
        } else if (route === '/account/import') {
          const text = draw(g, hostileAccountFile);
          const chunked = draw(g, fc.boolean());
          res = await t.app.inject({
            method: 'POST',
            url: `/api/v1${route}`,
            headers: {
              ...me.headers,
              'content-type': 'application/json',
              ...(chunked ? { 'transfer-encoding': 'chunked' } : {}),
            },
            payload: text,
          });
        } else {
          const form = hostileForm(g, draw(g, hostileCsv));
          res = await t.app.inject({
            method: 'POST',
            url: `/api/v1${route}`,
            headers: { ...me.headers, ...form.headers },
            payload: form.payload,
          });
        }
        tally[`${route} ${res.statusCode}`] = (tally[`${route} ${res.statusCode}`] ?? 0) + 1;
        const label = `[seed ${MASTER_SEED}] ${route} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).toBeGreaterThanOrEqual(200);
        expect(res.statusCode, label).toBeLessThan(500);
        expect(res.headers['cache-control'], label).toBe('no-store');
        if (res.statusCode >= 400) {
          expect(res.json(), label).toMatchObject({
            statusCode: res.statusCode,
            code: expect.any(String),
            message: expect.any(String),
          });
        }
        // A commit that was accepted is undone through the API, so every case starts from the same state.
        if (res.statusCode === 200 && route === '/imports') {
          const last = JSON.parse(res.body.trim().split('\n').at(-1) ?? '{}') as { result?: { id: number } };
          if (last.result)
            await t.app.inject({ method: 'POST', url: `/api/v1/imports/${last.result.id}/undo`, headers: me.headers });
        }
        // An accepted file is removed through the API (its bytes stay in the store, as after any delete).
        // A reading taken is followed to its end after the cases (a ledger has at most a few unfinished; the rest are
        // refused with 429 BUSY, a 4xx like any refusal).
        if (res.statusCode === 202 && route === '/bill-readings') readings.push({ id: res.json().id, label });
        if (res.statusCode === 201 && route === '/attachments')
          await t.app.inject({ method: 'DELETE', url: `/api/v1/attachments/${res.json().id}`, headers: me.headers });
        if (res.statusCode >= 400) {
          const after = await snapshot(t.app.db, tables);
          expect(changedTables(before, after), label).toEqual([]);
          expect(await readingRows(), `${label}: a reading stored on a refusal`).toBe(readings.length);
          expect(stored(), `${label}: files stored on a refusal`).toEqual(files);
        }
        before = await snapshot(t.app.db, tables);
      }),
      { numRuns: runs, seed: MASTER_SEED, endOnFailure: true },
    );
    // Every reading taken ends, read or not, and answers JSON: a garbage PDF or an image bomb fails alone in its
    // worker, within its time and memory limits.
    for (const { id, label } of readings) {
      for (;;) {
        const reading = await t.app.inject({ url: `/api/v1/bill-readings/${id}`, headers: me.headers });
        expect(reading.statusCode, `${label}: ${reading.body}`).toBe(200);
        if (reading.json().state !== 'reading') {
          expect(['done', 'failed'], label).toContain(reading.json().state);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    console.info(
      `file fuzz on ${dialect}: seed ${MASTER_SEED}, ${JSON.stringify(tally)}, ${readings.length} bills read`,
    );
  }, 600_000);

  let before: Snapshot;
  beforeAll(async () => {
    before = await snapshot(t.app.db, tables);
  });
});
