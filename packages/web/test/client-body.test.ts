// @vitest-environment node
// Node's own Blob and fetch, as a browser has them: jsdom's Blob cannot be streamed by fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureClient, exchange } from '../src/api/client.ts';
import { type FakeServer, json, startFakeServer } from './fake-server.ts';

describe('a request body', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
    server.handle((_req, res) => json(res, 200, {}));
    configureClient({ origin: server.origin });
  });
  afterAll(() => server.close());

  it('is a Blob sent as its bytes with its own type (the ledger file), anything else JSON', async () => {
    await exchange('POST', '/account/import', { body: new Blob(['ustar bytes'], { type: 'application/x-tar' }) });
    await exchange('POST', '/account/import', { body: new Blob(['{}']) });
    await exchange('POST', '/thing', { body: { a: 1 } });
    expect(server.requests.map((r) => [r.contentType, r.body])).toEqual([
      ['application/x-tar', 'ustar bytes'],
      ['application/octet-stream', '{}'],
      ['application/json', '{"a":1}'],
    ]);
  });
});
