import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, configureClient } from '../src/api/client.ts';
import { getForecast } from '../src/api/forecast/get-forecast.ts';
import { dataOf } from '../src/api/outcome.ts';
import { busyRetryDelay, queryClient, retryBusy } from '../src/app/query-client.ts';
import { clearSession, saveSession } from '../src/lib/session.ts';
import { type FakeServer, json, startFakeServer } from './fake-server.ts';

/**
 * Heavy reads refused with 429 BUSY (docs/decisions/0706-limits-and-fairness.md) are asked again by the app's
 * queries; every other failure is final (docs/decisions/1111-web-one-failure-path.md).
 */
describe('a read refused as BUSY', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
    configureClient({ origin: server.origin });
  });
  afterAll(() => server.close());
  afterEach(() => {
    clearSession();
    queryClient.clear();
    server.requests.length = 0;
  });

  it('is asked again up to three times, 1, 2 and 4 seconds later; no other failure is', () => {
    const busy = new ApiError(429, 'busy', 'busy', 'BUSY');
    expect([0, 1, 2, 3].map((count) => retryBusy(count, busy))).toEqual([true, true, true, false]);
    expect([0, 1, 2].map(busyRetryDelay)).toEqual([1000, 2000, 4000]);
    for (const other of [
      new ApiError(429, 'too many', 'too many', 'RATE_LIMITED'),
      new ApiError(500, 'kaput'),
      new ApiError(404, 'gone', 'gone', 'NOT_FOUND'),
      new Error('network'),
    ])
      expect(retryBusy(0, other)).toBe(false);
  });

  it('loads once a slot is free: the forecast query answers with the data after one BUSY', async () => {
    saveSession({ accessToken: 'access-1', refreshToken: 'refresh-1', username: 'ann' });
    let calls = 0;
    server.handle((_req, res) => {
      calls += 1;
      if (calls === 1)
        return json(res, 429, { statusCode: 429, error: 'Too Many Requests', code: 'BUSY', message: 'busy' });
      json(res, 200, { today: '2026-12-01', days: [] });
    });
    const data = await queryClient.fetchQuery({
      queryKey: ['forecast', 'busy-test'],
      queryFn: async () => dataOf(await getForecast(3)),
    });
    expect(data).toEqual({ today: '2026-12-01', days: [] });
    expect(server.requests.map((r) => r.url.split('?')[0])).toEqual(['/api/v1/forecast', '/api/v1/forecast']);
  });
});
