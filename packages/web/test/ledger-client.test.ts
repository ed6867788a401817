import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, configureClient } from '../src/api/client.ts';
import { listEntities } from '../src/api/entities/list-entities.ts';
import { listLedgers } from '../src/api/ledgers/list-ledgers.ts';
import { chooseLedger, subscribeLedgerDoubt } from '../src/lib/ledger-choice.ts';
import { clearSession, saveSession } from '../src/lib/session.ts';
import { type FakeServer, json, startFakeServer } from './fake-server.ts';

describe('the Billfold-Ledger header (docs/decisions/0303-web-ledgers.md)', () => {
  let server: FakeServer;
  let doubts = 0;
  let unsubscribe: () => void;
  beforeAll(async () => {
    server = await startFakeServer();
    configureClient({ origin: server.origin });
    unsubscribe = subscribeLedgerDoubt(() => {
      doubts += 1;
    });
  });
  afterAll(async () => {
    unsubscribe();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    doubts = 0;
    saveSession({ accessToken: 'access-1', refreshToken: 'refresh-1', username: 'ann' });
    server.handle((req, res) => {
      if (req.url?.startsWith('/api/v1/gone'))
        return json(res, 404, { statusCode: 404, code: 'NOT_FOUND', message: 'Not found' });
      if (req.url?.startsWith('/api/v1/viewer'))
        return json(res, 403, {
          statusCode: 403,
          code: 'LEDGER_READ_ONLY',
          message: 'This ledger is read-only for you.',
        });
      if (req.url?.startsWith('/api/v1/conflict'))
        return json(res, 409, { statusCode: 409, code: 'CONFLICT', message: 'No' });
      if (req.url?.startsWith('/api/v1/ledgers')) return json(res, 200, { ledgers: [] });
      json(res, 200, { billDTOList: [] });
    });
  });
  afterEach(() => {
    chooseLedger(null);
    clearSession();
    vi.restoreAllMocks();
  });

  it('is left out in the personal ledger, exactly as the original client calls', async () => {
    await listEntities();
    expect(server.requests[0]?.ledger).toBeUndefined();
  });

  it('names the chosen ledger on every data call of the tab', async () => {
    chooseLedger({ id: 42, name: 'Household', role: 'editor' });
    await listEntities();
    await apiRequest('POST', '/entries/new', { body: { amount: 1 } });
    expect(server.requests.map((r) => r.ledger)).toEqual(['42', '42']);
  });

  it('is not sent on the calls about the user rather than one ledger (the ledger list)', async () => {
    chooseLedger({ id: 42, name: 'Household', role: 'editor' });
    await listLedgers();
    expect(server.requests[0]?.url).toBe('/api/v1/ledgers');
    expect(server.requests[0]?.ledger).toBeUndefined();
  });

  it('a 404 or a 403 of the roles in a chosen ledger puts the tab’s place in doubt; other refusals do not', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    chooseLedger({ id: 42, name: 'Household', role: 'editor' });
    await expect(apiRequest('GET', '/gone')).rejects.toMatchObject({ status: 404 });
    expect(doubts).toBe(1);
    await expect(apiRequest('PUT', '/viewer')).rejects.toMatchObject({ status: 403, code: 'LEDGER_READ_ONLY' });
    expect(doubts).toBe(2);
    await expect(apiRequest('PUT', '/conflict')).rejects.toMatchObject({ status: 409 });
    expect(doubts).toBe(2);
  });

  it('a 404 in the personal ledger is only a missing item', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(apiRequest('GET', '/gone')).rejects.toMatchObject({ status: 404 });
    expect(doubts).toBe(0);
  });
});
