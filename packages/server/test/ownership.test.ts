import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { attach, pdfFile } from './helpers/attachments.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { documentedRoutes, registeredRoutes } from './helpers/route-table.ts';
import { createSchedule, scheduleData } from './helpers/schedules.ts';
import { ledgerOf } from './helpers/seed.ts';

/**
 * The ownership matrix: every registered `/api/v1` route × method, called by an intruder with the owner's ids.
 * The table is checked against the app's real route table, so a new route without a row here fails the suite.
 */

const API = '/api/v1';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Probe {
  method: Method;
  url: string;
  payload?: object;
  /** 404 for the owner's ids; list-like routes answer 200 with none of the owner's rows (`check`). */
  status: 200 | 201 | 404;
  check?: (body: string) => void;
}

/** The owner's rows (live and in the bin) and the intruder's own, made before the matrix runs. */
interface World {
  ownerName: string;
  bill: number;
  recycledBill: number;
  cascadedEntry: number;
  entry: number;
  entryInvoiceNumber: number;
  recycledEntry: number;
  payment: number;
  recycledPayment: number;
  ownerEntryIds: number[];
  intruderEntry: number;
  schedule: number;
  /** A schedule of the owner's entity in the recycle bin. */
  recycledSchedule: number;
  /** A category of the owner's own, and its name. */
  category: number;
  categoryName: string;
  /** The owner's personal ledger, a ledger they share with a member, that member's id, and a pending invitation. */
  personalLedger: number;
  sharedLedger: number;
  ledgerMember: number;
  invitation: number;
  /** A file of the owner's, on their invoice. */
  attachment: number;
}

type Row = { skip: string } | { probes: (w: World) => Probe[] };

const notFound = (method: Method, url: string, payload?: object): Probe => ({ method, url, payload, status: 404 });
const noOwnerRows =
  (w: World, pick: (body: string) => unknown[]) =>
  (body: string): void => {
    expect(body).not.toContain(w.ownerName);
    for (const id of pick(body)) expect(w.ownerEntryIds).not.toContain(id);
  };
const entryIdsOf = (body: string) =>
  (JSON.parse(body) as { entries: { entryId: number }[] }).entries.map((e) => e.entryId);
const paymentBody = { date: '2026-11-05', amount: 1, type: 'cash', medium: 'person' };

const TABLE: Record<string, Row> = {
  'GET /api/v1/health': { skip: 'public liveness probe; reads no user data' },
  'POST /api/v1/auth/create': { skip: 'public sign-up; takes no ids' },
  'POST /api/v1/auth/login': { skip: 'public sign-in; takes no ids' },
  'POST /api/v1/auth/refresh': { skip: 'token exchange; a token is bound to its own user (auth tests cover theft)' },
  'GET /api/v1/user': {
    skip: "own account only; another user's name is 403 by docs/api/README.md, User (/user) (users tests)",
  },
  'PUT /api/v1/user': { skip: 'own account only, behind its current password; takes no ids' },
  'POST /api/v1/auth/login/mfa': { skip: "sign-in's code step; a challenge is bound to its own account (mfa tests)" },
  'GET /api/v1/user/mfa': { skip: 'own account only; takes no ids' },
  'POST /api/v1/user/mfa/setup': { skip: 'own account only, behind its current password; takes no ids' },
  'POST /api/v1/user/mfa/enable': { skip: 'own account only, behind a code of its own pending secret; takes no ids' },
  'POST /api/v1/user/mfa/recovery-codes': { skip: 'own account only, behind its password and a code; takes no ids' },
  'GET /api/v1/openapi.json': { skip: 'public API description; no user data' },
  // Sign-in with an identity provider and API tokens (docs/decisions/0721-api-tokens.md, 0722-openid-connect-sign-in.md).
  'GET /api/v1/auth/methods': { skip: 'public: which ways of signing in the server offers; no user data' },
  'GET /api/v1/auth/oidc/start': { skip: 'public: a redirect to the identity provider; takes no ids' },
  'GET /api/v1/auth/oidc/callback': { skip: 'no session: the signed state cookie is the key (test/oidc.test.ts)' },
  'POST /api/v1/auth/oidc/exchange': {
    skip: 'no session: a one-time ticket bound to its own account (test/oidc.test.ts)',
  },
  'GET /api/v1/account/oidc': { skip: "takes no ids: the caller's own link (test/oidc.test.ts)" },
  'POST /api/v1/account/oidc/link': { skip: "takes no ids: links the caller's own account, behind its password" },
  'POST /api/v1/account/oidc/unlink': { skip: "takes no ids: unlinks the caller's own account, behind its password" },
  'GET /api/v1/tokens': { skip: "lists only the caller's tokens (test/api-tokens.test.ts)" },
  'POST /api/v1/tokens': {
    skip: "takes a ledger id: another user's ledger is 404 (test/api-tokens.test.ts, binds a token only to a ledger…)",
  },
  'DELETE /api/v1/tokens/:id': {
    skip: "another user's token id is 404 (test/api-tokens.test.ts, revoking stops a token at once…)",
  },

  'GET /api/v1/bills': {
    probes: (w) =>
      ['?status=all', '?status=inactive', `?name=${encodeURIComponent(w.ownerName)}`].map((query) => ({
        method: 'GET',
        url: `${API}/bills${query}`,
        status: 200,
        check: (body) => {
          expect(body).not.toContain(w.ownerName);
          const ids = (JSON.parse(body) as { billDTOList: { id: number }[] }).billDTOList.map((b) => b.id);
          expect(ids).not.toContain(w.bill);
          expect(ids).not.toContain(w.recycledBill);
        },
      })),
  },
  'GET /api/v1/bills/overview': {
    probes: (w) =>
      ['?status=all', '?status=inactive', `?name=${encodeURIComponent(w.ownerName)}&sortField=balance`].map(
        (query) => ({
          method: 'GET',
          url: `${API}/bills/overview${query}`,
          status: 200,
          check: (body) => {
            expect(body).not.toContain(w.ownerName);
            const ids = (JSON.parse(body) as { bills: { id: number }[] }).bills.map((b) => b.id);
            expect(ids).not.toContain(w.bill);
            expect(ids).not.toContain(w.recycledBill);
          },
        }),
      ),
  },
  'GET /api/v1/bills/:id': {
    probes: (w) => [
      notFound('GET', `${API}/bills/${w.bill}`),
      notFound('GET', `${API}/bills/${w.bill}?bypass=1`),
      notFound('GET', `${API}/bills/${w.recycledBill}?bypass=true`),
    ],
  },
  'POST /api/v1/bills': {
    // No foreign id to send: names are per user, so the owner's name is free (a 409 would reveal it).
    probes: (w) => [{ method: 'POST', url: `${API}/bills`, payload: { name: w.ownerName, status: 1 }, status: 201 }],
  },
  'GET /api/v1/categories': {
    probes: (w) => [
      {
        method: 'GET',
        url: `${API}/categories`,
        status: 200,
        check: (body) => {
          expect(body).not.toContain(w.categoryName);
          const ids = (JSON.parse(body) as { categories: { id: number | null }[] }).categories.map((c) => c.id);
          expect(ids).not.toContain(w.category);
        },
      },
    ],
  },
  'POST /api/v1/categories': {
    // Names are per user: the owner's name is free for the intruder (a 409 would reveal it).
    probes: (w) => [{ method: 'POST', url: `${API}/categories`, payload: { name: w.categoryName }, status: 201 }],
  },
  'PATCH /api/v1/categories/:id': {
    probes: (w) => [
      notFound('PATCH', `${API}/categories/${w.category}`, { name: 'Hijacked' }),
      notFound('PATCH', `${API}/categories/${w.category}`, { retired: true }),
      notFound('PATCH', `${API}/categories/${w.category}`, { flow: 'income' }),
    ],
  },
  'PUT /api/v1/bills': {
    probes: (w) => [
      notFound('PUT', `${API}/bills`, { id: w.bill, name: 'Hijacked' }),
      notFound('PUT', `${API}/bills`, { id: w.bill, status: 0 }),
      notFound('PUT', `${API}/bills`, { id: w.bill, recycle: true }),
      notFound('PUT', `${API}/bills`, { id: w.recycledBill, recycle: false }),
    ],
  },
  'GET /api/v1/entries/:id': {
    probes: (w) => [
      notFound('GET', `${API}/entries/${w.entry}`),
      notFound('GET', `${API}/entries/${w.recycledEntry}?filter=bypass`),
      notFound('GET', `${API}/entries/${w.cascadedEntry}?filter=bypass`),
    ],
  },
  'POST /api/v1/entries/new': {
    probes: (w) => [
      notFound('POST', `${API}/entries/new`, { billId: w.bill, date: '2026-11-01', flow: 'income', amount: 1 }),
    ],
  },
  'PUT /api/v1/entries/edit': {
    probes: (w) => [
      notFound('PUT', `${API}/entries/edit`, { entryId: w.entry, amount: 1 }),
      notFound('PUT', `${API}/entries/edit`, { entryId: w.entry, recycle: true }),
      notFound('PUT', `${API}/entries/edit?filter=bypass`, { entryId: w.recycledEntry, recycle: false }),
      // The intruder's own invoice moved into the owner's entity.
      notFound('PUT', `${API}/entries/edit`, { entryId: w.intruderEntry, billId: w.bill }),
    ],
  },
  'GET /api/v1/payments': {
    probes: (w) => [
      notFound('GET', `${API}/payments?entryId=${w.entry}`),
      notFound('GET', `${API}/payments?entryId=${w.recycledEntry}`),
    ],
  },
  'GET /api/v1/payments/:id': {
    probes: (w) => [
      notFound('GET', `${API}/payments/${w.payment}`),
      notFound('GET', `${API}/payments/${w.recycledPayment}`),
    ],
  },
  // Change history (docs/decisions/0108-change-history.md): another user's item, live or in the bin, is not found.
  'GET /api/v1/entries/:id/history': {
    probes: (w) => [
      notFound('GET', `${API}/entries/${w.entry}/history`),
      notFound('GET', `${API}/entries/${w.recycledEntry}/history`),
      notFound('GET', `${API}/entries/${w.cascadedEntry}/history`),
    ],
  },
  'GET /api/v1/bills/:id/price-history': {
    probes: (w) => [
      notFound('GET', `${API}/bills/${w.bill}/price-history`),
      notFound('GET', `${API}/bills/${w.recycledBill}/price-history`),
    ],
  },
  'GET /api/v1/bills/:id/history': {
    probes: (w) => [
      notFound('GET', `${API}/bills/${w.bill}/history`),
      notFound('GET', `${API}/bills/${w.recycledBill}/history`),
    ],
  },
  'GET /api/v1/payments/:id/history': {
    probes: (w) => [
      notFound('GET', `${API}/payments/${w.payment}/history`),
      notFound('GET', `${API}/payments/${w.recycledPayment}/history`),
    ],
  },
  'POST /api/v1/payments': {
    probes: (w) => [notFound('POST', `${API}/payments`, { ...paymentBody, entryId: w.entry })],
  },
  'PUT /api/v1/payments': {
    probes: (w) => [
      notFound('PUT', `${API}/payments`, { paymentId: w.payment, amount: 999 }),
      notFound('PUT', `${API}/payments`, { id: w.payment, notes: 'hijacked' }),
      notFound('PUT', `${API}/payments`, { paymentId: w.payment, recycle: true }),
      notFound('PUT', `${API}/payments?filter=bypass`, { paymentId: w.recycledPayment, recycle: false }),
    ],
  },
  'GET /api/v1/bills/:id/schedules': {
    probes: (w) => [
      notFound('GET', `${API}/bills/${w.bill}/schedules`),
      notFound('GET', `${API}/bills/${w.recycledBill}/schedules`),
    ],
  },
  'POST /api/v1/bills/:id/schedules': {
    probes: (w) => [notFound('POST', `${API}/bills/${w.bill}/schedules`, scheduleData({ firstDate: '2026-01-01' }))],
  },
  'POST /api/v1/bills/:id/schedules/preview': {
    probes: (w) => [
      notFound('POST', `${API}/bills/${w.bill}/schedules/preview`, scheduleData({ firstDate: '2026-01-01' })),
    ],
  },
  'POST /api/v1/schedules/:id/preview': {
    probes: (w) => [
      notFound('POST', `${API}/schedules/${w.schedule}/preview`, scheduleData({ firstDate: '2026-01-01' })),
      notFound('POST', `${API}/schedules/${w.recycledSchedule}/preview`, scheduleData({ firstDate: '2026-01-01' })),
    ],
  },
  'GET /api/v1/schedules/:id': {
    probes: (w) => [
      notFound('GET', `${API}/schedules/${w.schedule}`),
      notFound('GET', `${API}/schedules/${w.recycledSchedule}`),
    ],
  },
  'PUT /api/v1/schedules/:id': {
    probes: (w) => [notFound('PUT', `${API}/schedules/${w.schedule}`, scheduleData({ firstDate: '2026-01-01' }))],
  },
  'POST /api/v1/schedules/:id/pause': {
    probes: (w) => [notFound('POST', `${API}/schedules/${w.schedule}/pause`)],
  },
  'POST /api/v1/schedules/:id/resume': {
    probes: (w) => [notFound('POST', `${API}/schedules/${w.schedule}/resume`)],
  },
  'DELETE /api/v1/schedules/:id': {
    probes: (w) => [
      notFound('DELETE', `${API}/schedules/${w.schedule}`),
      notFound('DELETE', `${API}/schedules/${w.recycledSchedule}`),
    ],
  },
  'GET /api/v1/recycle': {
    probes: (w) => [
      {
        method: 'GET',
        url: `${API}/recycle`,
        status: 200,
        check: (body) => {
          expect(body).not.toContain(w.ownerName);
          const items = (JSON.parse(body) as { recycleItems: { entityId: number }[] }).recycleItems;
          const ownerIds = [w.recycledBill, w.recycledEntry, w.recycledPayment];
          for (const item of items) expect(ownerIds).not.toContain(item.entityId);
        },
      },
    ],
  },
  'GET /api/v1/account/export': {
    probes: () => [
      {
        method: 'GET',
        url: `${API}/account/export`,
        status: 200,
        // The intruder owns one live invoice and nothing in the bin; the owner's bin items must not appear.
        check: (body) => {
          const file = JSON.parse(body) as { invoices: { deletedAt: string | null }[]; payments: unknown[] };
          expect(file.invoices.map((i) => i.deletedAt)).toEqual([null]);
          expect(body).not.toMatch(/"deletedAt":"/);
        },
      },
    ],
  },
  'POST /api/v1/account/import': {
    skip: "takes no ids: writes only into the caller's own account (test/account-data.test.ts)",
  },
  'GET /api/v1/account/calendar-feed': { skip: "takes no ids: the caller's own feed (test/calendar-feed.test.ts)" },
  'PUT /api/v1/account/calendar-feed': { skip: "takes no ids: the caller's own feed (test/calendar-feed.test.ts)" },
  'GET /api/v1/calendar/:file': {
    skip: 'no session: the token in the address is the key, and it reads its own owner’s feed only (test/calendar-feed.test.ts)',
  },
  'GET /api/v1/account/reminders': { skip: "takes no ids: the caller's own choice (test/reminders.test.ts)" },
  'GET /api/v1/account/email': { skip: "takes no ids: the caller's own address (test/email-verification.test.ts)" },
  'POST /api/v1/account/email/verification': {
    skip: "takes no ids: mails the caller's own address (test/email-verification.test.ts)",
  },
  'POST /api/v1/account/email/verify': {
    skip: 'no session: the token is the key, and it verifies only the address it was sent to (test/email-verification.test.ts)',
  },
  'POST /api/v1/auth/password-reset': {
    skip: 'no session and no ids: answers the same for any address (test/password-reset.test.ts)',
  },
  'POST /api/v1/auth/password-reset/confirm': {
    skip: 'no session: the token is the key, and it sets only its own account’s password (test/password-reset.test.ts)',
  },
  'PUT /api/v1/account/reminders': { skip: "takes no ids: the caller's own choice (test/reminders.test.ts)" },
  'GET /api/v1/imports': { skip: "lists only the caller's imports (test/imports.test.ts checks another user's list)" },
  'POST /api/v1/imports/preview': { skip: "takes no ids: reads an uploaded file against the caller's own data" },
  'POST /api/v1/imports': { skip: "takes no ids: writes only into the caller's own account (test/imports.test.ts)" },
  'POST /api/v1/imports/:id/undo': {
    skip: "the owner's import ids are covered in test/imports.test.ts (another user's undo answers 404)",
  },
  'POST /api/v1/recycle/restore': {
    probes: (w) => [
      notFound('POST', `${API}/recycle/restore`, { entityType: 'Entity', entityId: w.recycledBill }),
      notFound('POST', `${API}/recycle/restore`, { entityType: 'Invoice', entityId: w.recycledEntry }),
      notFound('POST', `${API}/recycle/restore`, { entityType: 'Payment', entityId: w.recycledPayment }),
    ],
  },
  'DELETE /api/v1/recycle/:entityType/:entityId': {
    probes: (w) => [
      notFound('DELETE', `${API}/recycle/Entity/${w.recycledBill}`),
      notFound('DELETE', `${API}/recycle/Invoice/${w.recycledEntry}`),
      notFound('DELETE', `${API}/recycle/Payment/${w.recycledPayment}`),
    ],
  },
  'GET /api/v1/entries': {
    probes: (w) =>
      [
        '',
        `?partyList=${encodeURIComponent(w.ownerName)}`,
        `?invoiceNum=${w.entryInvoiceNumber}`,
        '?archives=true',
      ].map((query) => ({
        method: 'GET',
        url: `${API}/entries${query}`,
        status: 200,
        check: noOwnerRows(w, entryIdsOf),
      })),
  },
  'GET /api/v1/entries/stats': {
    probes: (w) => [
      {
        method: 'GET',
        url: `${API}/entries/stats`,
        status: 200,
        check: (body) => expect(body).not.toContain(w.ownerName),
      },
      {
        method: 'GET',
        url: `${API}/entries/stats?partyList=${encodeURIComponent(w.ownerName)}`,
        status: 200,
        check: (body) => {
          for (const value of Object.values(JSON.parse(body) as Record<string, unknown>)) {
            expect(typeof value === 'number' ? value : Object.keys(value as object).length).toBe(0);
          }
        },
      },
    ],
  },
  'GET /api/v1/entries/trends': {
    probes: (w) =>
      ['?interval=month', `?interval=year&partyList=${encodeURIComponent(w.ownerName)}`].map((query) => ({
        method: 'GET',
        url: `${API}/entries/trends${query}`,
        status: 200,
        check: (body) => {
          expect(body).not.toContain(w.ownerName);
          expect(body).not.toContain(w.categoryName);
          if (query.includes('partyList')) expect((JSON.parse(body) as { periods: unknown[] }).periods).toEqual([]);
        },
      })),
  },
  'GET /api/v1/forecast': {
    probes: (w) => [
      {
        method: 'GET',
        url: `${API}/forecast?months=12&today=2026-01-01`,
        status: 200,
        check: (body) => {
          expect(body).not.toContain(w.ownerName);
          for (const id of w.ownerEntryIds) expect(body).not.toContain(`"entryId":${id},`);
        },
      },
    ],
  },
  'GET /api/v1/forecast/balance': {
    skip: "takes no ids: the request's ledger's starting balance (test/forecast.test.ts; another ledger: membership.test.ts)",
  },
  'PUT /api/v1/forecast/balance': {
    skip: "takes no ids: sets the request's ledger's starting balance (test/forecast.test.ts; another ledger: membership.test.ts)",
  },
  'POST /api/v1/entries/:id/attachments': {
    probes: (w) => [
      notFound('POST', `${API}/entries/${w.entry}/attachments`),
      notFound('POST', `${API}/entries/${w.recycledEntry}/attachments`),
    ],
  },
  'GET /api/v1/entries/:id/attachments': {
    probes: (w) => [notFound('GET', `${API}/entries/${w.entry}/attachments`)],
  },
  'POST /api/v1/payments/:id/attachments': {
    probes: (w) => [notFound('POST', `${API}/payments/${w.payment}/attachments`)],
  },
  'GET /api/v1/payments/:id/attachments': {
    probes: (w) => [notFound('GET', `${API}/payments/${w.payment}/attachments`)],
  },
  'GET /api/v1/attachments/:id': { probes: (w) => [notFound('GET', `${API}/attachments/${w.attachment}`)] },
  'GET /api/v1/attachments/:id/thumbnail': {
    probes: (w) => [notFound('GET', `${API}/attachments/${w.attachment}/thumbnail`)],
  },
  'DELETE /api/v1/attachments/:id': { probes: (w) => [notFound('DELETE', `${API}/attachments/${w.attachment}`)] },
  'POST /api/v1/bill-readings': { skip: "takes no ids: reads an uploaded file against the caller's own entities" },
  'GET /api/v1/bill-readings/:readingId': {
    skip: "another ledger's reading is 404 (test/bill-readings.test.ts, keeps each reading to its ledger…; membership.test.ts)",
  },
  'GET /api/v1/notification-channels': { skip: "lists only the caller's channels (test/notifications.test.ts)" },
  'POST /api/v1/notification-channels': { skip: "takes no ids: adds a channel of the caller's own" },
  'PATCH /api/v1/notification-channels/:id': {
    skip: "another user's channel id is 404 (test/notifications.test.ts, keeps channels per user…)",
  },
  'DELETE /api/v1/notification-channels/:id': {
    skip: "another user's channel id is 404 (test/notifications.test.ts, keeps channels per user…)",
  },
  'POST /api/v1/notification-channels/:id/test': {
    skip: "another user's channel id is 404 (test/notifications.test.ts, keeps channels per user…)",
  },
  'GET /api/v1/notification-deliveries': { skip: "lists only the caller's deliveries (test/notifications.test.ts)" },
  'POST /api/v1/notification-deliveries/:id/send-again': {
    skip: "a message is looked up among the caller's own (NotificationsService.sendAgain: 404 for another user's id)",
  },
  'GET /api/v1/entries/due-summary': {
    probes: (w) => [
      {
        method: 'GET',
        url: `${API}/entries/due-summary`,
        status: 200,
        check: (body) => {
          expect(body).not.toContain(w.ownerName);
          const summary = JSON.parse(body) as Record<string, { entries: { entryId: number }[] }>;
          for (const group of ['overdue', 'next7', 'next30']) {
            for (const e of summary[group]?.entries ?? []) expect(w.ownerEntryIds).not.toContain(e.entryId);
          }
        },
      },
    ],
  },
  'GET /api/v1/entries/export': {
    probes: (w) => [
      {
        method: 'GET',
        url: `${API}/entries/export`,
        status: 200,
        check: (body) => expect(body).not.toContain(w.ownerName),
      },
      {
        method: 'GET',
        url: `${API}/entries/export?partyList=${encodeURIComponent(w.ownerName)}`,
        status: 200,
        check: (body) => expect(body.trim().split(/\r?\n/)).toHaveLength(1),
      },
    ],
  },

  // Ledgers, members and invitations (docs/api/ledgers.md): a ledger the caller is not a member of is 404.
  'GET /api/v1/ledgers': {
    probes: (w) => [
      {
        method: 'GET',
        url: `${API}/ledgers`,
        status: 200,
        check: (body) => {
          expect(body).not.toContain(w.ownerName);
          const ids = (JSON.parse(body) as { ledgers: { id: number }[] }).ledgers.map((l) => l.id);
          expect(ids).not.toContain(w.personalLedger);
          expect(ids).not.toContain(w.sharedLedger);
        },
      },
    ],
  },
  'POST /api/v1/ledgers': {
    // Names are free: the owner's ledger name is no secret to collide with.
    probes: (w) => [{ method: 'POST', url: `${API}/ledgers`, payload: { name: w.ownerName }, status: 201 }],
  },
  'PATCH /api/v1/ledgers/:id': {
    probes: (w) =>
      [w.personalLedger, w.sharedLedger].map((id) => notFound('PATCH', `${API}/ledgers/${id}`, { name: 'Mine' })),
  },
  'DELETE /api/v1/ledgers/:id': {
    probes: (w) => [notFound('DELETE', `${API}/ledgers/${w.sharedLedger}`, { password: 'Str0ng!Passw0rd' })],
  },
  'GET /api/v1/ledgers/:id/members': {
    probes: (w) => [w.personalLedger, w.sharedLedger].map((id) => notFound('GET', `${API}/ledgers/${id}/members`)),
  },
  'PATCH /api/v1/ledgers/:id/members/:userId': {
    probes: (w) => [notFound('PATCH', `${API}/ledgers/${w.sharedLedger}/members/${w.ledgerMember}`, { role: 'owner' })],
  },
  'DELETE /api/v1/ledgers/:id/members/:userId': {
    probes: (w) => [notFound('DELETE', `${API}/ledgers/${w.sharedLedger}/members/${w.ledgerMember}`)],
  },
  'POST /api/v1/ledgers/:id/invitations': {
    probes: (w) => [notFound('POST', `${API}/ledgers/${w.sharedLedger}/invitations`, { role: 'editor' })],
  },
  'GET /api/v1/ledgers/:id/invitations': {
    probes: (w) => [notFound('GET', `${API}/ledgers/${w.sharedLedger}/invitations`)],
  },
  'DELETE /api/v1/ledgers/:id/invitations/:invitationId': {
    probes: (w) => [notFound('DELETE', `${API}/ledgers/${w.sharedLedger}/invitations/${w.invitation}`)],
  },
  // A link's token is its only authority (test/invitations.test.ts): one nobody was given is 404.
  'GET /api/v1/invitations/:token': {
    probes: () => [notFound('GET', `${API}/invitations/${'x'.repeat(43)}`)],
  },
  'POST /api/v1/invitations/:token/accept': {
    probes: () => [notFound('POST', `${API}/invitations/${'x'.repeat(43)}/accept`)],
  },
};

describe.each(dialects)('ownership on %s', (dialect) => {
  let t: TestApp;
  let owner: Api;
  let intruder: Api;
  let world: World;
  let ownerLedger: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = { app: t.app, session: await signUp(t.app) };
    intruder = { app: t.app, session: await signUp(t.app) };
    const ownerName = `Owner Secret ${dialect}`;
    const categoryName = `Secret category ${dialect}`;
    const category = await owner.app.inject({
      method: 'POST',
      url: `${API}/categories`,
      headers: owner.session.headers,
      payload: { name: categoryName, flow: 'income' },
    });
    const bill = await createBill(owner, { name: ownerName, category: categoryName });
    // Due long ago and not paid in full: overdue, so the owner's own summary lists it.
    const entry = await createEntry(owner, { billId: bill.id, amount: 100, date: '2026-01-01', dueDate: '2026-01-31' });
    const payment = await createPayment(owner, { entryId: entry.entryId, amount: 30 });
    const recycledPayment = await createPayment(owner, { entryId: entry.entryId, amount: 5 });
    await updatePayment(owner, { paymentId: recycledPayment.paymentId, recycle: true });
    const recycledEntry = await createEntry(owner, { billId: bill.id });
    await editEntry(owner, { entryId: recycledEntry.entryId, recycle: true });
    const schedule = await createSchedule(owner, bill.id, { description: `${ownerName} {month}` });
    await owner.app.inject({
      method: 'POST',
      url: `${API}/schedules/${schedule.id}/pause`,
      headers: owner.session.headers,
    });
    const recycledBill = await createBill(owner, { name: `${ownerName} (gone)` });
    const recycledSchedule = await createSchedule(owner, recycledBill.id);
    const cascadedEntry = await createEntry(owner, { billId: recycledBill.id });
    await createPayment(owner, { entryId: cascadedEntry.entryId });
    await updateBill(owner, { id: recycledBill.id, recycle: true });
    const ledgerCall = (method: 'GET' | 'POST', url: string, payload?: object, as: Api = owner) =>
      t.app.inject({ method, url: `${API}${url}`, headers: as.session.headers, payload });
    const personalLedger = (await ledgerCall('GET', '/ledgers')).json<{ ledgers: { id: number }[] }>().ledgers[0]?.id;
    const sharedLedger = (await ledgerCall('POST', '/ledgers', { name: `${ownerName} ledger` })).json<{ id: number }>()
      .id;
    const member = { app: t.app, session: await signUp(t.app) };
    const link = (await ledgerCall('POST', `/ledgers/${sharedLedger}/invitations`, {})).json<{ link: string }>().link;
    await ledgerCall('POST', `/invitations/${link.split('#')[1]}/accept`, undefined, member);
    const invitation = (await ledgerCall('POST', `/ledgers/${sharedLedger}/invitations`, {})).json<{ id: number }>().id;
    const members = (await ledgerCall('GET', `/ledgers/${sharedLedger}/members`)).json<{
      members: { userId: number; you: boolean }[];
    }>().members;
    const ledgerMember = members.find((m) => !m.you)?.userId;
    if (personalLedger === undefined || ledgerMember === undefined) throw new Error('ledger set-up failed');
    const attached = await attach(owner, 'entries', entry.entryId, pdfFile(ownerName));
    const intruderEntry = await createEntry(intruder, { amount: 10 });
    await createPayment(intruder, { entryId: intruderEntry.entryId, amount: 4 });
    world = {
      ownerName,
      bill: bill.id,
      recycledBill: recycledBill.id,
      cascadedEntry: cascadedEntry.entryId,
      entry: entry.entryId,
      entryInvoiceNumber: entry.invoiceId,
      recycledEntry: recycledEntry.entryId,
      payment: payment.paymentId,
      recycledPayment: recycledPayment.paymentId,
      ownerEntryIds: [entry.entryId, recycledEntry.entryId, cascadedEntry.entryId],
      intruderEntry: intruderEntry.entryId,
      schedule: schedule.id,
      recycledSchedule: recycledSchedule.id,
      category: category.json<{ id: number }>().id,
      categoryName,
      personalLedger,
      sharedLedger,
      ledgerMember,
      invitation,
      attachment: attached.json<{ id: number }>().id,
    };
    const row = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('username_key', '=', owner.session.username.toLowerCase())
      .executeTakeFirstOrThrow();
    ownerLedger = await ledgerOf(t.app.db, row.id);
  });
  afterAll(() => t.close());

  /** Every row the owner has, and the intruder's invoice that a probe tries to move. */
  async function ownerData() {
    const db = t.app.db;
    return {
      ledger: await db.selectFrom('ledgers').select('last_invoice_number').where('id', '=', ownerLedger).execute(),
      bills: await db.selectFrom('bills').selectAll().where('ledger_id', '=', ownerLedger).orderBy('id').execute(),
      entries: await db.selectFrom('entries').selectAll().where('ledger_id', '=', ownerLedger).orderBy('id').execute(),
      payments: await db
        .selectFrom('payments')
        .selectAll()
        .where('ledger_id', '=', ownerLedger)
        .orderBy('id')
        .execute(),
      intruderEntry: await db.selectFrom('entries').selectAll().where('id', '=', world.intruderEntry).execute(),
      schedules: await db
        .selectFrom('schedules')
        .selectAll()
        .where('ledger_id', '=', ownerLedger)
        .orderBy('id')
        .execute(),
      categories: await db
        .selectFrom('categories')
        .selectAll()
        .where('ledger_id', '=', ownerLedger)
        .orderBy('id')
        .execute(),
      ledgers: await db
        .selectFrom('ledgers')
        .selectAll()
        .where('id', 'in', [world.personalLedger, world.sharedLedger])
        .orderBy('id')
        .execute(),
      ledgerMembers: await db
        .selectFrom('ledger_members')
        .selectAll()
        .where('ledger_id', 'in', [world.personalLedger, world.sharedLedger])
        .orderBy('ledger_id')
        .orderBy('user_id')
        .execute(),
      invitations: await db
        .selectFrom('ledger_invitations')
        .selectAll()
        .where('ledger_id', '=', world.sharedLedger)
        .orderBy('id')
        .execute(),
    };
  }

  it('has a row for every registered /api/v1 route and method, and no row for a route that does not exist', () => {
    const routes = registeredRoutes(t.app);
    // The parser must see what the OpenAPI document lists, or a parsing slip could hide a route.
    for (const route of documentedRoutes(t.app)) expect(routes).toContain(route);
    const api = routes.filter((r) => r.split(' ')[1]?.startsWith(`${API}/`));
    for (const route of api) {
      const [method, url] = route.split(' ') as [HTTPMethods, string];
      expect(t.app.hasRoute({ method, url }), route).toBe(true);
    }
    const heads = api.filter((r) => r.startsWith('HEAD '));
    const missing = api.filter((r) => !r.startsWith('HEAD ') && !(r in TABLE));
    expect(missing, 'routes without a row in the ownership table').toEqual([]);
    for (const head of heads) expect(TABLE, `${head} mirrors a GET`).toHaveProperty([head.replace('HEAD', 'GET')]);
    expect(Object.keys(TABLE).filter((key) => !api.includes(key))).toEqual([]);
  });

  it("answers 404 (never 403) to another user's ids on every route, and changes none of their data", async () => {
    const before = await ownerData();
    const rows = Object.entries(TABLE).filter(
      (entry): entry is [string, { probes: (w: World) => Probe[] }] => 'probes' in entry[1],
    );
    let count = 0;
    for (const [route, row] of rows) {
      for (const probe of row.probes(world)) {
        const methods = probe.method === 'GET' ? (['GET', 'HEAD'] as const) : [probe.method];
        for (const method of methods) {
          const res = await t.app.inject({
            method,
            url: probe.url,
            headers: intruder.session.headers,
            payload: probe.payload,
          });
          const label = `${route}: ${method} ${probe.url} ${JSON.stringify(probe.payload ?? '')}`;
          expect({ label, status: res.statusCode }).toEqual({ label, status: probe.status });
          if (method !== 'HEAD') {
            if (probe.status === 404) expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
            probe.check?.(res.body);
            for (const secret of ['$argon2', 'password_hash', owner.session.username, owner.session.email]) {
              expect(res.body, `${label} leaks ${secret}`).not.toContain(secret);
            }
          }
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThan(40);
    expect(await ownerData()).toEqual(before);
  });

  it('documents every route it probes in OpenAPI: bearer security, a success schema (or a 204) and the 401', () => {
    type Operation = { security?: unknown[]; responses: Record<string, { content?: object }> };
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
    for (const [route, row] of Object.entries(TABLE)) {
      if (!('probes' in row)) continue;
      const [method = '', path = ''] = route.split(' ');
      const operation = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(operation, route).toBeDefined();
      expect(operation?.security, route).toEqual([{ bearer: [] }]);
      // A 204 (nothing to answer) has no body to describe; any other success documents its body.
      if (operation?.responses['204']) expect(Object.keys(operation.responses), route).not.toContain('200');
      else expect((operation?.responses['200'] ?? operation?.responses['201'])?.content, route).toBeDefined();
      expect(operation?.responses, route).toHaveProperty(['401']);
    }
  });

  it('needs a token on every row it probes', async () => {
    for (const [route, row] of Object.entries(TABLE)) {
      if (!('probes' in row)) continue;
      const [probe] = row.probes(world);
      if (!probe) continue;
      const res = await t.app.inject({ method: probe.method, url: probe.url, payload: probe.payload });
      expect({ route, status: res.statusCode }).toEqual({ route, status: 401 });
    }
  });
});
