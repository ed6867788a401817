import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, configureClient, refreshSession, toQueryString } from '../src/api/client.ts';
import { listEntities } from '../src/api/entities/list-entities.ts';
import { updateEntity } from '../src/api/entities/update-entity.ts';
import { dataOf } from '../src/api/outcome.ts';
import { getStats } from '../src/api/stats/get-stats.ts';
import { ALL_SESSION_KEYS, clearSession, readSession, saveSession, subscribeSession } from '../src/lib/session.ts';
import { type FakeServer, json, startFakeServer } from './fake-server.ts';

describe('toQueryString', () => {
  it('repeats array values and skips null and undefined (docs/api/README.md, General)', () => {
    expect(toQueryString({ partyList: ['A & B', 'C'], min: 5, max: null, flow: undefined, paid: false })).toBe(
      '?partyList=A+%26+B&partyList=C&min=5&paid=false',
    );
    expect(toQueryString({ a: null, b: [null, undefined] })).toBe('');
    expect(toQueryString(undefined)).toBe('');
  });
});

/**
 * A server with rotating tokens like the real one: one valid access token and one valid refresh token at a
 * time; a refresh takes a moment, so calls can overlap it.
 */
function tokenServer(server: FakeServer) {
  const state = { access: 'access-1', refresh: 'refresh-1', refreshes: 0, generation: 1, alwaysUnauthorized: false };
  server.handle((req, res, body) => {
    if (req.url?.startsWith('/api/v1/auth/refresh')) {
      state.refreshes += 1;
      const presented = (JSON.parse(body || '{}') as { refreshToken?: string }).refreshToken;
      setTimeout(() => {
        if (presented !== state.refresh) return json(res, 401, { statusCode: 401, message: 'Unauthorized' });
        state.generation += 1;
        state.access = `access-${state.generation}`;
        state.refresh = `refresh-${state.generation}`;
        json(res, 200, { accessToken: state.access, refreshToken: state.refresh, username: 'ann' });
      }, 30);
      return;
    }
    if (state.alwaysUnauthorized || req.headers.authorization !== `Bearer ${state.access}`) {
      return json(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized: expired token' });
    }
    if (req.url?.startsWith('/api/v1/broken')) return json(res, 500, { statusCode: 500, message: 'Kaput' });
    if (req.url?.startsWith('/api/v1/bills')) return json(res, 200, { billDTOList: [{ id: 1 }] });
    json(res, 200, { path: req.url });
  });
  return state;
}

describe('apiRequest with a session', () => {
  let server: FakeServer;
  let state: ReturnType<typeof tokenServer>;
  beforeAll(async () => {
    server = await startFakeServer();
    configureClient({ origin: server.origin });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    state = tokenServer(server);
    saveSession({ accessToken: 'access-1', refreshToken: 'refresh-1', username: 'ann' });
  });
  afterEach(() => {
    clearSession();
    vi.restoreAllMocks();
  });

  it('sends the bearer token and parses the JSON answer', async () => {
    expect(await apiRequest('GET', '/thing', { query: { a: [1, 2] } })).toEqual({ path: '/api/v1/thing?a=1&a=2' });
    expect(server.requests[0]?.authorization).toBe('Bearer access-1');
  });

  it('on a 401 refreshes once with a JSON body, stores the new tokens, tells subscribers and retries', async () => {
    state.access = 'access-server-side';
    state.refresh = 'refresh-1';
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    const result = await apiRequest('GET', '/thing');
    unsubscribe();
    expect(result).toEqual({ path: '/api/v1/thing' });
    const refresh = server.requests.find((r) => r.url.startsWith('/api/v1/auth/refresh'));
    expect(refresh?.url).toBe('/api/v1/auth/refresh');
    expect(JSON.parse(refresh?.body ?? '')).toEqual({ refreshToken: 'refresh-1' });
    expect(readSession()).toEqual({
      accessToken: 'access-2',
      refreshToken: 'refresh-2',
      username: 'ann',
      sessionId: null,
    });
    expect(listener).toHaveBeenCalled();
    expect(server.requests.map((r) => r.authorization)).toEqual(['Bearer access-1', undefined, 'Bearer access-2']);
  });

  it('makes concurrent 401s share one refresh (a second use of a rotated token would end the session)', async () => {
    state.access = 'stale-for-everyone';
    const results = await Promise.all([
      apiRequest('GET', '/a'),
      apiRequest('GET', '/b'),
      apiRequest('GET', '/c'),
      refreshSession(readSession()),
    ]);
    expect(results.slice(0, 3)).toEqual([{ path: '/api/v1/a' }, { path: '/api/v1/b' }, { path: '/api/v1/c' }]);
    expect(state.refreshes).toBe(1);
    expect(readSession()?.accessToken).toBe('access-2');
  });

  it('does not refresh again when another call already renewed the token', async () => {
    state.access = 'stale';
    await apiRequest('GET', '/first');
    expect(state.refreshes).toBe(1);
    // A call that left with the old token and comes back with a 401 after the renewal just retries.
    saveSession({ accessToken: 'access-1', refreshToken: 'refresh-2' });
    server.requests.length = 0;
    const slow = apiRequest('GET', '/second');
    saveSession({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(await slow).toEqual({ path: '/api/v1/second' });
    expect(state.refreshes).toBe(1);
  });

  it('signs out (tokens and every saved view setting) when the refresh fails', async () => {
    for (const key of ALL_SESSION_KEYS) if (!sessionStorage.getItem(key)) sessionStorage.setItem(key, '"x"');
    state.access = 'stale';
    state.refresh = 'someone-else-rotated-it';
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(apiRequest('GET', '/thing')).rejects.toMatchObject({ status: 401 });
    expect(readSession()).toBeNull();
    for (const key of ALL_SESSION_KEYS) expect(sessionStorage.getItem(key)).toBeNull();
  });

  it('retries only once, and signs out when the renewed token is refused too', async () => {
    state.alwaysUnauthorized = true;
    await expect(apiRequest('GET', '/thing')).rejects.toBeInstanceOf(ApiError);
    expect(state.refreshes).toBe(1);
    expect(server.requests.filter((r) => r.url === '/api/v1/thing')).toHaveLength(2);
    expect(readSession()).toBeNull();
  });

  it('gives the server message of a failed call', async () => {
    await expect(apiRequest('GET', '/broken')).rejects.toMatchObject({ status: 500, serverMessage: 'Kaput' });
  });

  it('ends every call in a typed outcome: a failure is logged once and never passed off as data (docs/product.md, Calls and failures)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await listEntities()).toEqual({ ok: true, data: { billDTOList: [{ id: 1 }] } });
    server.handle((_req, res) => json(res, 500, { statusCode: 500, message: 'Kaput' }));
    const refused = { ok: false, reason: 'failed', status: 500, message: 'Kaput' };
    expect(await listEntities()).toEqual(refused);
    expect(await getStats({})).toEqual(refused);
    expect(await updateEntity({ id: 1, name: 'x' })).toEqual(refused);
    expect(log).toHaveBeenCalledTimes(3);
    // A query sees the failure as its error, and the screen decides what that shows.
    expect(() => dataOf(refused as never)).toThrow(ApiError);
    configureClient({ origin: 'http://127.0.0.1:1' });
    try {
      expect(await listEntities()).toEqual({ ok: false, reason: 'error', status: null, message: null });
    } finally {
      configureClient({ origin: server.origin });
    }
  });
});
