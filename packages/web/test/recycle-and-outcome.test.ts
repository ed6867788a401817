import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configureClient } from '../src/api/client.ts';
import { getInvoice } from '../src/api/invoices/get-invoice.ts';
import { attempt, failureMessage, itemOf } from '../src/api/outcome.ts';
import { listRecycle } from '../src/api/recycle/list-recycle.ts';
import {
  canRestoreUnderAnotherName,
  daysLeft,
  deleteForeverNotice,
  restoreNotice,
  suggestedName,
} from '../src/features/recycle/restore-message.ts';
import { type FakeServer, json, startFakeServer } from './fake-server.ts';

describe('recycle bin restore notice (docs/product.md, Messages)', () => {
  it('names the type on success, says Item not found on 404, Restore failed otherwise', () => {
    for (const type of ['Entity', 'Invoice', 'Payment'] as const) {
      expect(restoreNotice(type, { ok: true, data: { message: 'x' } })).toEqual({
        message: `${type} restored successfully.`,
        severity: 'success',
      });
    }
    expect(
      restoreNotice('Payment', {
        ok: false,
        reason: 'failed',
        status: 404,
        message: 'Item not found',
        code: 'NOT_FOUND',
      }),
    ).toEqual({
      message: 'Item not found',
      severity: 'error',
    });
    expect(
      restoreNotice('Payment', {
        ok: false,
        reason: 'failed',
        status: 409,
        message: 'This invoice is in the recycle bin. Restore it first.',
      }),
    ).toEqual({ message: 'Restore failed: This invoice is in the recycle bin. Restore it first.', severity: 'error' });
    for (const failure of [
      { ok: false, reason: 'failed', status: 500, message: 'Internal Server Error' },
      { ok: false, reason: 'error', status: null, message: null },
    ] as const) {
      expect(restoreNotice('Payment', failure)).toEqual({ message: 'Restore failed', severity: 'error' });
    }
  });

  it('offers a restore under another name when an entity is refused with 409 (its name is taken)', () => {
    const taken = {
      ok: false,
      reason: 'failed',
      status: 409,
      message: 'An entity named "Acme" already exists.',
      code: 'CONFLICT',
    } as const;
    expect(canRestoreUnderAnotherName('Entity', taken)).toBe(true);
    expect(canRestoreUnderAnotherName('Invoice', taken)).toBe(false);
    expect(canRestoreUnderAnotherName('Entity', { ...taken, status: 404, code: 'NOT_FOUND' })).toBe(false);
    // The code says what happened, not the status: a read-only refusal is no name taken.
    expect(canRestoreUnderAnotherName('Entity', { ...taken, code: 'ITEM_READ_ONLY' })).toBe(false);
    expect(suggestedName('Acme')).toBe('Acme (2)');
    expect(suggestedName('Acme (2)')).toBe('Acme (3)');
  });
});

describe('recycle bin days left and delete forever (docs/decisions/0106-recycle-bin-purge-date-and-delete-forever.md)', () => {
  const purge = '2026-12-15T08:00:00';
  const at = (iso: string) => Date.parse(`${iso}Z`);
  it('counts whole days left, rounded up, down to Today', () => {
    expect(daysLeft(purge, at('2026-12-01T08:00:00'))).toEqual({ days: 14, label: '14 days' });
    expect(daysLeft(purge, at('2026-12-01T08:00:01'))).toEqual({ days: 14, label: '14 days' });
    expect(daysLeft(purge, at('2026-12-13T08:00:00'))).toEqual({ days: 2, label: '2 days' });
    expect(daysLeft(purge, at('2026-12-14T09:00:00'))).toEqual({ days: 1, label: '1 day' });
    expect(daysLeft(purge, at('2026-12-15T08:00:00'))).toEqual({ days: 0, label: 'Today' });
    expect(daysLeft(purge, at('2026-12-15T08:30:00'))).toEqual({ days: 0, label: 'Today' });
  });
  it('says what Delete Forever did', () => {
    expect(deleteForeverNotice({ ok: true, data: { message: 'Invoice deleted permanently.' } })).toEqual({
      message: 'Invoice deleted permanently.',
      severity: 'success',
    });
  });
  it("says Item not found by the server's NOT_FOUND code, and Delete failed with its reason otherwise", () => {
    expect(
      deleteForeverNotice({ ok: false, reason: 'failed', status: 404, message: 'Not in the bin', code: 'NOT_FOUND' }),
    ).toEqual({ message: 'Item not found', severity: 'error' });
    // A 404 without our code is some other answer (a proxy's): not "Item not found".
    expect(deleteForeverNotice({ ok: false, reason: 'failed', status: 404, message: null })).toEqual({
      message: 'Delete failed',
      severity: 'error',
    });
    expect(
      deleteForeverNotice({ ok: false, reason: 'failed', status: 400, message: 'Bad id', code: 'VALIDATION_FAILED' }),
    ).toEqual({ message: 'Delete failed: Bad id.', severity: 'error' });
    expect(deleteForeverNotice({ ok: false, reason: 'error', status: null, message: null })).toEqual({
      message: 'Delete failed',
      severity: 'error',
    });
  });
});

describe('write outcomes and single reads', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
    configureClient({ origin: server.origin });
  });
  afterAll(() => server.close());
  afterEach(() => vi.restoreAllMocks());

  it('tells a refusal by the server (Failed …) from no answer at all (Error …)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.handle((_req, res) =>
      json(res, 409, { statusCode: 409, error: 'Conflict', code: 'ITEM_READ_ONLY', message: 'archived' }),
    );
    const refused = await attempt('PUT', '/entries/edit', { body: { entryId: 1 } });
    // The server's code travels with the failure (API Rev 3), for the screen to branch on.
    expect(refused).toEqual({ ok: false, reason: 'failed', status: 409, message: 'archived', code: 'ITEM_READ_ONLY' });
    const messages = { failed: 'Failed to update invoice.', error: 'Error updating invoice.' };
    if (refused.ok) throw new Error('expected a failure');
    expect(failureMessage(refused, messages)).toBe('Failed to update invoice. archived.');
    const wrongPassword = {
      ok: false,
      reason: 'failed',
      status: 403,
      message: 'Current password is incorrect',
    } as const;
    const password = { failed: 'Failed to change password.', error: 'Failed to change password.' };
    expect(failureMessage(wrongPassword, password)).toBe('Failed to change password. Current password is incorrect.');
    expect(failureMessage({ ...wrongPassword, status: 500 }, password)).toBe('Failed to change password.');

    server.handle((req) => req.socket.destroy());
    const dropped = await attempt('PUT', '/entries/edit', { body: { entryId: 1 } });
    expect(dropped).toMatchObject({ ok: false, reason: 'error', status: null });
    if (dropped.ok) throw new Error('expected a failure');
    expect(failureMessage(dropped, messages)).toBe('Error updating invoice.');
    expect(console.error).toHaveBeenCalled();

    server.handle((_req, res) => json(res, 201, { entryId: 3 }));
    await expect(attempt('POST', '/entries/new', { body: {} })).resolves.toEqual({ ok: true, data: { entryId: 3 } });
  });

  it('reads one item as the item, null when it does not exist, and throws when it could not be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.handle((_req, res) => json(res, 200, { entryId: 3 }));
    expect(itemOf(await getInvoice(3))).toEqual({ entryId: 3 });
    server.handle((_req, res) =>
      json(res, 404, { statusCode: 404, error: 'Not Found', message: 'Invoice not found.' }),
    );
    expect(itemOf(await getInvoice(3))).toBeNull();
    server.handle((_req, res) => json(res, 500, { statusCode: 500, error: 'Internal Server Error', message: 'x' }));
    const failed = await getInvoice(3);
    expect(() => itemOf(failed)).toThrow();
  });

  it('reads a list as the server sends it, and reports a failure rather than passing it off as empty', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.handle((_req, res) => json(res, 200, { recycleItems: [] }));
    await expect(listRecycle()).resolves.toEqual({ ok: true, data: { recycleItems: [] } });
    server.handle((_req, res) => json(res, 503, { statusCode: 503, error: 'Service Unavailable', message: 'db' }));
    await expect(listRecycle()).resolves.toEqual({ ok: false, reason: 'failed', status: 503, message: 'db' });
  });
});
