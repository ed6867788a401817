import {
  LEDGER_HEADER,
  LEDGER_OWNER_ONLY_MESSAGE,
  LEDGER_READ_ONLY_MESSAGE,
  type LedgerRole,
} from '@billfold/contract/ledgers';
import type { HTTPMethods, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneInvoiceFile } from './helpers/account-file.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { pdfFile, upload } from './helpers/attachments.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  request,
  updatePayment,
} from './helpers/domain.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { apiRoutes, documentedRoutes } from './helpers/route-table.ts';
import { createSchedule, scheduleData } from './helpers/schedules.ts';
import { changedTables, describeChanges, type Snapshot, snapshot, tableNames } from './security/database-state.ts';

/**
 * The membership matrix (issue 27, docs/decisions/0107-ledgers.md): every `/api/v1` route of the app's route table ×
 * {owner, editor, viewer, removed member, stranger}, in a shared ledger named by the `Billfold-Ledger` header (or,
 * for the ledger's own routes, by its id in the path).
 * - owner and editor: the route's documented success status (as the owner of the data had before ledgers);
 * - viewer: reads (GET, HEAD) the same; every other method 403 `LEDGER_READ_ONLY`;
 * - editor and viewer on an owners' route (members, invitations, rename, delete): 403 `LEDGER_OWNER_ONLY`;
 * - removed member (joined, used the ledger, then removed: same open session) and stranger: 404 when naming the
 *   ledger, and 404 for the ledger's items when calling in their own personal ledger (no header);
 * - every refusal leaves every table of the database as it was (snapshot of all of them before and after).
 * Each case is made fresh for each caller (a new entity, invoice, schedule… of the ledger), so a write that
 * succeeds for one caller does not decide the next one's answer. The table is checked against the route table: a
 * route without a row fails the suite, so a new route is covered or named as per-user on purpose.
 * Members are added by writing `ledger_members` rows, as the invitation routes do in the end.
 */

const API = '/api/v1';
const HEADER = LEDGER_HEADER.toLowerCase();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** `reader`: the owner's API token of scope `read` (docs/decisions/0721-api-tokens.md): it reads, never writes. */
type Caller = 'owner' | 'editor' | 'viewer' | 'removed' | 'stranger' | 'reader';
const CALLERS: Caller[] = ['owner', 'editor', 'viewer', 'removed', 'stranger', 'reader'];
/** The callers that are people with a session of their own. */
const PEOPLE = CALLERS.filter((caller) => caller !== 'reader');

interface Probe {
  method: Method;
  url: string;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
  /** Names the ledger's own items (ids in the address or body): refused with 404 also without the header. */
  ids: boolean;
  /** Another ledger the probe works in (the same members, made fresh for it) instead of the shared one. */
  ledger?: number;
  /** Checks on a successful answer. */
  check?: (body: string) => void;
}

/** What a case may use: the owner's API in the shared ledger, long-lived items of it, a fresh empty ledger. */
interface Fixture {
  owner: Api;
  ledger: number;
  secret: string;
  bill: number;
  entry: number;
  payment: number;
  schedule: number;
  unique: () => string;
  emptyLedger: () => Promise<number>;
  userIds: Record<Caller, number>;
}

interface LedgerRow {
  /** `owner`: an editor's or viewer's call answers 403 `LEDGER_OWNER_ONLY`; else by method (GET reads). */
  access?: 'owner';
  make: (f: Fixture, caller: Caller) => Promise<Probe>;
}
type Row = { perUser: string } | LedgerRow;

/** A one-row bank statement, new each time (an import skips rows it already holds). */
const bank = (f: Fixture) =>
  multipart({ name: 'bank.csv', content: `Posted Date,Payee,Memo,Amount\n01/05/2026,${f.unique()},Bill,-12.34` });
const paymentBody = { date: '2026-11-05', amount: 1, type: 'cash', medium: 'person' };
const get = (url: string, ids: boolean, check?: Probe['check']): Probe => ({ method: 'GET', url, ids, check });

/** An attachment upload of a PDF new each time, to an invoice or a payment of the shared ledger. */
const attachProbe = (f: Fixture, owner: 'entries' | 'payments'): Probe => {
  const body = upload(pdfFile(f.unique()));
  const id = owner === 'entries' ? f.entry : f.payment;
  return {
    method: 'POST',
    url: `${API}/${owner}/${id}/attachments`,
    payload: body.payload,
    headers: body.headers,
    ids: true,
  };
};

/** A fresh attachment of the shared ledger's invoice, made by its owner; its id. */
async function ownerAttachment(f: Fixture, text: string): Promise<number> {
  const body = upload(pdfFile(text));
  const made = await f.owner.app.inject({
    method: 'POST',
    url: `${API}/entries/${f.entry}/attachments`,
    headers: { ...f.owner.session.headers, ...body.headers },
    payload: body.payload,
  });
  if (made.statusCode !== 201) throw new Error(`attach: ${made.statusCode} ${made.body}`);
  return made.json<{ id: number }>().id;
}

/**
 * A bill reading's upload, in a fresh ledger with the same members (a ledger may have only a few readings
 * unfinished at once, and every caller's probe starts one).
 */
async function readingProbe(f: Fixture): Promise<Probe> {
  const body = upload(pdfFile(`Amount due ${f.unique()}`));
  return { method: 'POST', url: `${API}/bill-readings`, ...body, ids: false, ledger: await f.emptyLedger() };
}

/**
 * A reading started by the owner in a fresh ledger with the same members: asking for it names the ledger's item.
 * One for all callers (asking changes nothing), so the matrix starts one reading, not one a caller.
 */
const readings = new WeakMap<Fixture, Promise<Probe>>();
function ownerReading(f: Fixture): Promise<Probe> {
  const made = readings.get(f) ?? startOwnerReading(f);
  readings.set(f, made);
  return made;
}

async function startOwnerReading(f: Fixture): Promise<Probe> {
  const ledger = await f.emptyLedger();
  const body = upload(pdfFile(`Amount due ${f.unique()}`));
  const made = await f.owner.app.inject({
    method: 'POST',
    url: `${API}/bill-readings`,
    headers: { ...f.owner.session.headers, [HEADER]: String(ledger), ...body.headers },
    payload: body.payload,
  });
  if (made.statusCode !== 202) throw new Error(`bill reading: ${made.statusCode} ${made.body}`);
  const probe = get(`${API}/bill-readings/${made.json<{ id: string }>().id}`, true, (b) =>
    expect(b).toContain('"state"'),
  );
  return { ...probe, ledger };
}

const thumbnailed = new WeakMap<Fixture, Promise<number>>();
function thumbnailAttachment(f: Fixture): Promise<number> {
  const made = thumbnailed.get(f) ?? ownerAttachment(f, f.unique());
  thumbnailed.set(f, made);
  return made;
}

const TABLE: Record<string, Row> = {
  // Per user, not per ledger (docs/decisions/0107-ledgers.md): the account, its sign-in, MFA, address, reminder
  // settings and the calendar feed's token. They take no ledger; their own suites cover them.
  'GET /api/v1/health': { perUser: 'public liveness probe' },
  'GET /api/v1/openapi.json': { perUser: 'public API description' },
  'POST /api/v1/auth/create': { perUser: 'sign-up' },
  'POST /api/v1/auth/login': { perUser: 'sign-in' },
  'POST /api/v1/auth/refresh': { perUser: 'token exchange' },
  'POST /api/v1/auth/login/mfa': { perUser: "sign-in's code step" },
  'GET /api/v1/user': { perUser: 'own account' },
  'PUT /api/v1/user': { perUser: 'own account' },
  'GET /api/v1/user/mfa': { perUser: 'own account' },
  'POST /api/v1/user/mfa/setup': { perUser: 'own account' },
  'POST /api/v1/user/mfa/enable': { perUser: 'own account' },
  'POST /api/v1/user/mfa/recovery-codes': { perUser: 'own account' },
  'GET /api/v1/account/email': { perUser: 'own address' },
  'POST /api/v1/account/email/verification': { perUser: 'own address' },
  'POST /api/v1/account/email/verify': { perUser: 'the token is the key' },
  'POST /api/v1/auth/password-reset': { perUser: 'public: answers the same for any address' },
  'POST /api/v1/auth/password-reset/confirm': { perUser: 'the token is the key' },
  'GET /api/v1/account/reminders': { perUser: 'own reminder settings' },
  'PUT /api/v1/account/reminders': { perUser: 'own reminder settings' },
  'GET /api/v1/account/calendar-feed': { perUser: "own feed's token" },
  'PUT /api/v1/account/calendar-feed': { perUser: "own feed's token" },
  'GET /api/v1/calendar/:file': { perUser: 'the token in the address is the key' },
  'GET /api/v1/auth/methods': { perUser: 'public: how one may sign in' },
  'GET /api/v1/auth/oidc/start': { perUser: "public: the provider's sign-in" },
  'GET /api/v1/auth/oidc/callback': { perUser: "public: the provider's sign-in" },
  'POST /api/v1/auth/oidc/exchange': { perUser: "public: the provider's sign-in" },
  'GET /api/v1/account/oidc': { perUser: 'own provider link' },
  'POST /api/v1/account/oidc/link': { perUser: 'own provider link' },
  'POST /api/v1/account/oidc/unlink': { perUser: 'own provider link' },
  'GET /api/v1/tokens': { perUser: 'own API tokens (a ledger-bound token: test/api-tokens.test.ts)' },
  'POST /api/v1/tokens': { perUser: 'own API tokens' },
  'DELETE /api/v1/tokens/:id': { perUser: 'own API tokens' },
  // Notification channels and their log (docs/api/notifications.md): the user's own, 404 for another's
  // (test/notifications.test.ts).
  'GET /api/v1/notification-channels': { perUser: 'own notification channels' },
  'POST /api/v1/notification-channels': { perUser: 'own notification channels' },
  'PATCH /api/v1/notification-channels/:id': { perUser: 'own notification channels' },
  'DELETE /api/v1/notification-channels/:id': { perUser: 'own notification channels' },
  'POST /api/v1/notification-channels/:id/test': { perUser: 'own notification channels' },
  'GET /api/v1/notification-deliveries': { perUser: 'own delivery log' },
  'POST /api/v1/notification-deliveries/:id/send-again': { perUser: 'own delivery log' },
  // The ledger, its members and invitations: the ledger is named in the path, not the header, and each role's
  // answer (a stranger's or removed member's 404, an editor's or viewer's 403 LEDGER_OWNER_ONLY, nothing stored)
  // is the subject of test/ledgers.test.ts and test/invitations.test.ts.
  'GET /api/v1/ledgers': { perUser: "the caller's own ledgers" },
  'POST /api/v1/ledgers': { perUser: 'a new ledger of the caller' },
  'PATCH /api/v1/ledgers/:id': { perUser: 'ledgers.test.ts: owners only' },
  'DELETE /api/v1/ledgers/:id': { perUser: 'ledgers.test.ts: owners only, with the password' },
  'GET /api/v1/ledgers/:id/members': { perUser: 'ledgers.test.ts: every member' },
  'PATCH /api/v1/ledgers/:id/members/:userId': { perUser: 'ledgers.test.ts: owners only' },
  'DELETE /api/v1/ledgers/:id/members/:userId': { perUser: 'ledgers.test.ts: owners, or oneself' },
  'POST /api/v1/ledgers/:id/invitations': { perUser: 'invitations.test.ts: owners only' },
  'GET /api/v1/ledgers/:id/invitations': { perUser: 'invitations.test.ts: owners only' },
  'DELETE /api/v1/ledgers/:id/invitations/:invitationId': { perUser: 'invitations.test.ts: owners only' },
  'GET /api/v1/invitations/:token': { perUser: 'the token is the key' },
  'POST /api/v1/invitations/:token/accept': { perUser: 'the token is the key' },

  // Change history (docs/decisions/0108-change-history.md): every member reads it.
  'GET /api/v1/entries/:id/history': { make: async (f) => get(`${API}/entries/${f.entry}/history`, true) },
  'GET /api/v1/bills/:id/history': { make: async (f) => get(`${API}/bills/${f.bill}/history`, true) },
  'GET /api/v1/payments/:id/history': { make: async (f) => get(`${API}/payments/${f.payment}/history`, true) },

  'GET /api/v1/bills': {
    make: async (f) => get(`${API}/bills?status=all`, false, (b) => expect(b).toContain(f.secret)),
  },
  'GET /api/v1/bills/overview': {
    make: async (f) => get(`${API}/bills/overview?status=all`, false, (b) => expect(b).toContain(f.secret)),
  },
  'GET /api/v1/bills/:id': { make: async (f) => get(`${API}/bills/${f.bill}`, true) },
  'GET /api/v1/bills/:id/price-history': {
    make: async (f) => get(`${API}/bills/${f.bill}/price-history`, true, (b) => expect(b).toContain('"points"')),
  },
  'POST /api/v1/bills': {
    make: async (f) => ({ method: 'POST', url: `${API}/bills`, payload: { name: f.unique(), status: 1 }, ids: false }),
  },
  'PUT /api/v1/bills': {
    make: async (f) => ({
      method: 'PUT',
      url: `${API}/bills`,
      payload: { id: (await createBill(f.owner)).id, name: f.unique() },
      ids: true,
    }),
  },
  'GET /api/v1/categories': {
    make: async () => get(`${API}/categories`, false),
  },
  'POST /api/v1/categories': {
    make: async (f) => ({
      method: 'POST',
      url: `${API}/categories`,
      payload: { name: f.unique(), flow: 'income' },
      ids: false,
    }),
  },
  'PATCH /api/v1/categories/:id': {
    make: async (f) => {
      const made = await request(f.owner, 'POST', '/categories', { name: f.unique(), flow: 'income' });
      if (made.statusCode !== 201) throw new Error(made.body);
      return {
        method: 'PATCH',
        url: `${API}/categories/${made.json<{ id: number }>().id}`,
        payload: { name: f.unique() },
        ids: true,
      };
    },
  },
  'GET /api/v1/entries': {
    make: async (f) => get(`${API}/entries`, false, (b) => expect(b).toContain(f.secret)),
  },
  'GET /api/v1/entries/stats': { make: async () => get(`${API}/entries/stats`, false) },
  'GET /api/v1/entries/trends': {
    make: async () => get(`${API}/entries/trends?interval=year`, false, (b) => expect(b).toContain('"period"')),
  },
  'GET /api/v1/entries/due-summary': { make: async () => get(`${API}/entries/due-summary`, false) },
  'GET /api/v1/forecast': {
    make: async () => get(`${API}/forecast?months=1`, false, (b) => expect(b).toContain('"lowest"')),
  },
  'GET /api/v1/forecast/balance': { make: async () => get(`${API}/forecast/balance`, false) },
  'PUT /api/v1/forecast/balance': {
    make: async () => ({ method: 'PUT', url: `${API}/forecast/balance`, payload: { balance: -12.5 }, ids: false }),
  },
  'GET /api/v1/entries/export': {
    make: async (f) => get(`${API}/entries/export`, false, (b) => expect(b).toContain(f.secret)),
  },
  'GET /api/v1/entries/:id': { make: async (f) => get(`${API}/entries/${f.entry}`, true) },
  'POST /api/v1/entries/new': {
    make: async (f) => ({
      method: 'POST',
      url: `${API}/entries/new`,
      payload: { billId: f.bill, date: '2026-11-01', flow: 'income', amount: 1 },
      ids: true,
    }),
  },
  'PUT /api/v1/entries/edit': {
    make: async (f) => ({
      method: 'PUT',
      url: `${API}/entries/edit`,
      payload: { entryId: (await createEntry(f.owner, { billId: f.bill })).entryId, amount: 7 },
      ids: true,
    }),
  },
  'GET /api/v1/payments': { make: async (f) => get(`${API}/payments?entryId=${f.entry}`, true) },
  'GET /api/v1/payments/:id': { make: async (f) => get(`${API}/payments/${f.payment}`, true) },
  'POST /api/v1/payments': {
    make: async (f) => ({
      method: 'POST',
      url: `${API}/payments`,
      payload: { ...paymentBody, entryId: f.entry },
      ids: true,
    }),
  },
  'PUT /api/v1/payments': {
    make: async (f) => ({
      method: 'PUT',
      url: `${API}/payments`,
      payload: { paymentId: (await createPayment(f.owner, { entryId: f.entry, amount: 1 })).paymentId, amount: 2 },
      ids: true,
    }),
  },
  'GET /api/v1/bills/:id/schedules': { make: async (f) => get(`${API}/bills/${f.bill}/schedules`, true) },
  'POST /api/v1/bills/:id/schedules': {
    make: async (f) => ({
      method: 'POST',
      url: `${API}/bills/${(await createBill(f.owner)).id}/schedules`,
      payload: scheduleData(),
      ids: true,
    }),
  },
  'POST /api/v1/bills/:id/schedules/preview': {
    make: async (f) => ({
      method: 'POST',
      url: `${API}/bills/${f.bill}/schedules/preview`,
      payload: scheduleData({ firstDate: '2026-01-01' }),
      ids: true,
    }),
  },
  'POST /api/v1/schedules/:id/preview': {
    make: async (f) => ({
      method: 'POST',
      url: `${API}/schedules/${f.schedule}/preview`,
      payload: scheduleData({ firstDate: '2026-01-01' }),
      ids: true,
    }),
  },
  'GET /api/v1/schedules/:id': { make: async (f) => get(`${API}/schedules/${f.schedule}`, true) },
  'PUT /api/v1/schedules/:id': {
    make: async (f) => ({
      method: 'PUT',
      url: `${API}/schedules/${(await createSchedule(f.owner, (await createBill(f.owner)).id)).id}`,
      payload: scheduleData({ amount: 99 }),
      ids: true,
    }),
  },
  'POST /api/v1/schedules/:id/pause': {
    make: async (f) => ({
      method: 'POST',
      url: `${API}/schedules/${(await createSchedule(f.owner, (await createBill(f.owner)).id)).id}/pause`,
      ids: true,
    }),
  },
  'POST /api/v1/schedules/:id/resume': {
    make: async (f) => {
      const schedule = await createSchedule(f.owner, (await createBill(f.owner)).id);
      const paused = await request(f.owner, 'POST', `/schedules/${schedule.id}/pause`);
      if (paused.statusCode !== 200) throw new Error(paused.body);
      return { method: 'POST', url: `${API}/schedules/${schedule.id}/resume`, ids: true };
    },
  },
  'DELETE /api/v1/schedules/:id': {
    make: async (f) => ({
      method: 'DELETE',
      url: `${API}/schedules/${(await createSchedule(f.owner, (await createBill(f.owner)).id)).id}`,
      ids: true,
    }),
  },
  'GET /api/v1/recycle': { make: async () => get(`${API}/recycle`, false) },
  'POST /api/v1/recycle/restore': {
    make: async (f) => {
      const entry = await createEntry(f.owner, { billId: f.bill });
      await editEntry(f.owner, { entryId: entry.entryId, recycle: true });
      return {
        method: 'POST',
        url: `${API}/recycle/restore`,
        payload: { entityType: 'Invoice', entityId: entry.entryId },
        ids: true,
      };
    },
  },
  'DELETE /api/v1/recycle/:entityType/:entityId': {
    make: async (f) => {
      const payment = await createPayment(f.owner, { entryId: f.entry, amount: 1 });
      await updatePayment(f.owner, { paymentId: payment.paymentId, recycle: true });
      return { method: 'DELETE', url: `${API}/recycle/Payment/${payment.paymentId}`, ids: true };
    },
  },
  'GET /api/v1/account/export': {
    make: async (f) => get(`${API}/account/export`, false, (b) => expect(b).toContain(f.secret)),
  },
  'POST /api/v1/account/import': {
    // A whole ledger file, into an empty ledger only (a fresh one with the same members), by its owners.
    access: 'owner',
    make: async (f) => ({
      method: 'POST',
      url: `${API}/account/import`,
      payload: oneInvoiceFile() as unknown as InjectOptions['payload'],
      ids: false,
      ledger: await f.emptyLedger(),
    }),
  },
  'POST /api/v1/entries/:id/attachments': { make: async (f) => attachProbe(f, 'entries') },
  'POST /api/v1/payments/:id/attachments': { make: async (f) => attachProbe(f, 'payments') },
  'GET /api/v1/entries/:id/attachments': { make: async (f) => get(`${API}/entries/${f.entry}/attachments`, true) },
  'GET /api/v1/payments/:id/attachments': { make: async (f) => get(`${API}/payments/${f.payment}/attachments`, true) },
  'GET /api/v1/attachments/:id': {
    make: async (f) => {
      const text = `${f.secret} ${f.unique()}`;
      return get(`${API}/attachments/${await ownerAttachment(f, text)}`, true, (b) => expect(b).toContain(text));
    },
  },
  'GET /api/v1/attachments/:id/thumbnail': {
    // One PDF for all callers: its first page is drawn once (in a worker thread) and kept.
    make: async (f) =>
      get(`${API}/attachments/${await thumbnailAttachment(f)}/thumbnail`, true, (b) => expect(b).toContain('PNG')),
  },
  'DELETE /api/v1/attachments/:id': {
    make: async (f) => ({
      method: 'DELETE',
      url: `${API}/attachments/${await ownerAttachment(f, f.unique())}`,
      ids: true,
    }),
  },
  'POST /api/v1/bill-readings': { make: async (f) => readingProbe(f) },
  'GET /api/v1/bill-readings/:readingId': { make: async (f) => ownerReading(f) },
  'GET /api/v1/imports': { make: async () => get(`${API}/imports`, false) },
  'POST /api/v1/imports/preview': {
    make: async (f) => {
      const body = bank(f);
      return {
        method: 'POST',
        url: `${API}/imports/preview`,
        payload: body.payload,
        headers: body.headers,
        ids: false,
      };
    },
  },
  'POST /api/v1/imports': {
    make: async (f) => {
      const body = bank(f);
      return { method: 'POST', url: `${API}/imports`, payload: body.payload, headers: body.headers, ids: false };
    },
  },
  'POST /api/v1/imports/:id/undo': {
    make: async (f) => {
      const body = bank(f);
      const made = await f.owner.app.inject({
        method: 'POST',
        url: `${API}/imports`,
        headers: { ...f.owner.session.headers, ...body.headers },
        payload: body.payload,
      });
      const last = made.body.trim().split('\n').at(-1) ?? '{}';
      const importId = (JSON.parse(last) as { result?: { id?: number } }).result?.id;
      if (made.statusCode !== 200 || !importId) throw new Error(`import: ${made.statusCode} ${made.body}`);
      return { method: 'POST', url: `${API}/imports/${importId}/undo`, ids: true };
    },
  },
};

/** What the caller must get: the route's success status, 403 with a code, or 404. */
type Expected = { status: number; code?: string };

function expected(caller: Caller, method: Method, ok: number, access: LedgerRow['access']): Expected {
  if (caller === 'removed' || caller === 'stranger') return { status: 404 };
  if (caller === 'reader') return method === 'GET' ? { status: ok } : { status: 403, code: 'TOKEN_READ_ONLY' };
  if (caller === 'owner') return { status: ok };
  if (access === 'owner') return { status: 403, code: 'LEDGER_OWNER_ONLY' };
  if (caller === 'editor' || method === 'GET') return { status: ok };
  return { status: 403, code: 'LEDGER_READ_ONLY' };
}

/** The route's documented success status (its one 2xx response in the OpenAPI document; 200 when it streams). */
function successStatus(app: TestApp['app'], route: string): number {
  const [method = '', path = ''] = route.split(' ');
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, { responses: object }>> };
  const responses = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]?.responses ?? {};
  const ok = Object.keys(responses).filter((s) => /^2\d\d$/.test(s));
  return ok.length === 1 ? Number(ok[0]) : 200;
}

describe.each(dialects)('membership matrix on %s', (dialect) => {
  let t: TestApp;
  let tables: string[];
  let ledger: number;
  const sessions = {} as Record<Caller, Session>;
  const userIds = {} as Record<Caller, number>;
  let fixture: Fixture;
  let sequence = 0;

  const withLedger = (session: Session, id: number): Session => ({
    ...session,
    headers: { ...session.headers, [HEADER]: String(id) } as Session['headers'],
  });

  async function userIdOf(session: Session): Promise<number> {
    const row = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('username_key', '=', session.username.toLowerCase())
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function join(ledgerId: number, caller: Caller, role: LedgerRole): Promise<void> {
    await t.app.db
      .insertInto('ledger_members')
      .values({ ledger_id: ledgerId, user_id: userIds[caller], role, joined_at: t.clock.now() })
      .execute();
  }

  async function leave(ledgerId: number, caller: Caller): Promise<void> {
    await t.app.db
      .deleteFrom('ledger_members')
      .where('ledger_id', '=', ledgerId)
      .where('user_id', '=', userIds[caller])
      .execute();
  }

  /** A shared (not personal) ledger with the matrix's members: the removed member joins it and is removed. */
  async function sharedLedger(name: string, useIt: boolean): Promise<number> {
    const row = await t.app.db
      .insertInto('ledgers')
      .values({ name, personal_user_id: null, created_at: t.clock.now(), last_invoice_number: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await join(id, 'owner', 'owner');
    await join(id, 'editor', 'editor');
    await join(id, 'viewer', 'viewer');
    await join(id, 'removed', 'editor');
    if (useIt) {
      // The removed member's session works in the ledger while they belong to it…
      const res = await t.app.inject({
        method: 'GET',
        url: `${API}/entries`,
        headers: withLedger(sessions.removed, id).headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // …and the same session is refused once they are removed.
    await leave(id, 'removed');
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    for (const caller of PEOPLE) {
      sessions[caller] = await signUp(t.app);
      userIds[caller] = await userIdOf(sessions[caller]);
    }
    const token = await t.app.inject({
      method: 'POST',
      url: `${API}/tokens`,
      headers: sessions.owner.headers,
      payload: { name: 'matrix reader', scope: 'read' },
    });
    expect(token.statusCode, token.body).toBe(201);
    sessions.reader = { ...sessions.owner, headers: { authorization: `Bearer ${token.json().token}` } };
    userIds.reader = userIds.owner;
    ledger = await sharedLedger(`Household ${dialect}`, true);
    const owner: Api = { app: t.app, session: withLedger(sessions.owner, ledger) };
    const secret = `Ledger Secret ${dialect}`;
    const bill = await createBill(owner, { name: secret });
    const entry = await createEntry(owner, { billId: bill.id, amount: 100, date: '2026-01-01', dueDate: '2026-01-31' });
    const payment = await createPayment(owner, { entryId: entry.entryId, amount: 30 });
    const schedule = await createSchedule(owner, bill.id, { description: `${secret} {month}` });
    // Each caller has data of their own in their personal ledger, as people do.
    for (const caller of PEOPLE) await createEntry({ app: t.app, session: sessions[caller] }, { amount: 5 });
    fixture = {
      owner,
      ledger,
      secret,
      bill: bill.id,
      entry: entry.entryId,
      payment: payment.paymentId,
      schedule: schedule.id,
      unique: () => {
        sequence += 1;
        return `Name ${sequence} ${dialect}`;
      },
      emptyLedger: () => sharedLedger(`Empty ${sequence++}`, false),
      userIds,
    };
    tables = await tableNames(t.app.db);
  });
  afterAll(() => t.close());

  it('has a row for every registered /api/v1 route and method, and none for a route that does not exist', () => {
    const routes = apiRoutes(t.app);
    for (const route of documentedRoutes(t.app)) expect(routes).toContain(route);
    const missing = routes.filter((r) => !r.startsWith('HEAD ') && !(r in TABLE));
    expect(missing, 'routes without a row in the membership table').toEqual([]);
    for (const head of routes.filter((r) => r.startsWith('HEAD '))) {
      expect(TABLE, `${head} mirrors a GET`).toHaveProperty([head.replace('HEAD', 'GET')]);
    }
    expect(Object.keys(TABLE).filter((key) => !routes.includes(key))).toEqual([]);
  });

  // Every route × six callers, each refusal checked against a snapshot: minutes on a busy machine, not seconds.
  it('answers each member by role and each outsider 404 on every ledger route, storing nothing on a refusal', async () => {
    let state: Snapshot | null = null;
    const current = async () => {
      state ??= await snapshot(t.app.db, tables);
      return state;
    };
    const failures: string[] = [];
    let refusals = 0;
    let successes = 0;

    /** One call; a refusal is checked against a snapshot of every table before and after. */
    const attempt = async (label: string, options: InjectOptions, want: Expected, check?: Probe['check']) => {
      const refused = want.status >= 400;
      const before = refused ? await current() : null;
      const res = await t.app.inject(options);
      if (res.statusCode !== want.status) {
        failures.push(`${label} → ${res.statusCode} (want ${want.status}): ${res.body.slice(0, 200)}`);
        state = null;
        return;
      }
      if (options.method === 'HEAD') return;
      if (!refused) {
        successes += 1;
        // What a success started in the background (a bill's reading) ends before the next refusal's snapshot.
        await t.app.billReadings.idle();
        state = null;
        try {
          check?.(res.body);
        } catch (error) {
          failures.push(`${label}: ${(error as Error).message.slice(0, 200)}`);
        }
        return;
      }
      refusals += 1;
      const body = res.json<{ statusCode: number; error?: string; code?: string; message: string }>();
      if (want.status === 404 && body.error !== 'Not Found') failures.push(`${label}: not the 404 shape: ${res.body}`);
      if (want.code && body.code !== want.code) failures.push(`${label}: code ${body.code} (want ${want.code})`);
      const message = { LEDGER_READ_ONLY: LEDGER_READ_ONLY_MESSAGE, LEDGER_OWNER_ONLY: LEDGER_OWNER_ONLY_MESSAGE };
      if (want.code && want.code in message && body.message !== message[want.code as keyof typeof message]) {
        failures.push(`${label}: message ${body.message}`);
      }
      const after = await snapshot(t.app.db, tables);
      if (before && changedTables(before, after).length > 0) {
        failures.push(`${label} stored on a refusal:\n${describeChanges(before, after)}`);
        state = after;
      }
    };

    for (const [route, row] of Object.entries(TABLE)) {
      if (!('make' in row)) continue;
      const ok = successStatus(t.app, route);
      for (const caller of CALLERS) {
        const probe = await row.make(fixture, caller);
        state = null;
        const want = expected(caller, probe.method, ok, row.access);
        const named = withLedger(sessions[caller], probe.ledger ?? ledger).headers;
        const methods: HTTPMethods[] = probe.method === 'GET' ? ['GET', 'HEAD'] : [probe.method];
        for (const method of methods) {
          await attempt(
            `${caller} ${route}: ${method} ${probe.url} [${HEADER}]`,
            { method, url: probe.url, headers: { ...named, ...probe.headers }, payload: probe.payload },
            want,
            probe.check,
          );
        }
        // An outsider calling in their own ledger with the shared ledger's ids: 404 as well.
        if ((caller === 'removed' || caller === 'stranger') && probe.ids) {
          await attempt(
            `${caller} ${route}: ${probe.method} ${probe.url} [own ledger]`,
            {
              method: probe.method,
              url: probe.url,
              headers: { ...sessions[caller].headers, ...probe.headers },
              payload: probe.payload,
            },
            { status: 404 },
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(refusals).toBeGreaterThan(120);
    expect(successes).toBeGreaterThan(60);
  }, 600_000);

  it('applies a role change at once: a viewer made owner writes, made viewer again is refused', async () => {
    // The roles, not the people: promoted to owner, the viewer writes like the owner.
    await t.app.db
      .updateTable('ledger_members')
      .set({ role: 'owner' })
      .where('ledger_id', '=', ledger)
      .where('user_id', '=', userIds.viewer)
      .execute();
    const viewer: Api = { app: t.app, session: withLedger(sessions.viewer, ledger) };
    const made = await createEntry(viewer, { billId: fixture.bill, amount: 3 });
    expect(made.entryId).toBeGreaterThan(0);
    await t.app.db
      .updateTable('ledger_members')
      .set({ role: 'viewer' })
      .where('ledger_id', '=', ledger)
      .where('user_id', '=', userIds.viewer)
      .execute();
    const refused = await request(viewer, 'PUT', '/entries/edit', { entryId: made.entryId, amount: 4 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'LEDGER_READ_ONLY', message: LEDGER_READ_ONLY_MESSAGE });
  });

  it('answers a header that is not a positive whole number with 400, and an unknown ledger with 404', async () => {
    for (const value of ['0', '-1', '1.5', 'abc', ' ', '1e3']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${API}/entries`,
        headers: { ...sessions.owner.headers, [HEADER]: value },
      });
      expect({ value, status: res.statusCode }).toEqual({ value, status: 400 });
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${API}/entries`,
      headers: { ...sessions.owner.headers, [HEADER]: String(ledger + 10_000) },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
