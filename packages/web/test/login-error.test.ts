import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeMfaLogin, login } from '../src/api/auth/login.ts';
import { configureClient, type Observation } from '../src/api/client.ts';
import { LOGIN_ERRORS, loginErrorMessage, THROTTLED_FALLBACK } from '../src/features/auth/login-error.ts';
import { type FakeServer, json, startFakeServer } from './fake-server.ts';

const response = (status: number, text: string): Observation => ({ stage: 'response', status, ok: status < 300, text });
const message = (observation: Observation, online = true) => loginErrorMessage({ observation, online });

describe('login error messages (docs/product.md, Messages), from observations', () => {
  it("goes by the server's code (API Rev 3) where it sent one, never by the wording", () => {
    const body = (status: number, code: string, text: string) =>
      response(status, JSON.stringify({ statusCode: status, error: 'x', code, message: text }));
    expect(message(body(401, 'INVALID_CREDENTIALS', 'Wrong.'))).toBe(LOGIN_ERRORS.unauthorized);
    const throttled = 'Too many failed sign-in attempts. Try again in 15 minutes.';
    expect(message(body(429, 'SIGN_IN_THROTTLED', throttled))).toBe(throttled);
    expect(message(body(429, 'TOO_MANY_REQUESTS', throttled))).toBe(throttled);
    expect(message(body(503, 'SERVICE_UNAVAILABLE', 'Starting up'))).toBe(LOGIN_ERRORS.unavailable);
    // A 401 with another code is no wrong password, whatever its text says.
    expect(message(body(401, 'ACCOUNT_DEACTIVATED', 'Unauthorized: account not active'))).toBe(LOGIN_ERRORS.unknown);
    expect(message(body(400, 'VALIDATION_FAILED', 'unauthorized 401'))).toBe(LOGIN_ERRORS.unknown);
  });

  it('names a refused connection from its marker, in an exception or a gateway body', () => {
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    expect(message({ stage: 'request', error })).toBe(LOGIN_ERRORS.unavailable);
    expect(message(response(500, 'Error: connect ECONNREFUSED 127.0.0.1:8080'))).toBe(LOGIN_ERRORS.unavailable);
  });

  it('treats a fetch that got no response at all (browser TypeError) as the server being unreachable', () => {
    expect(message({ stage: 'request', error: new TypeError('Failed to fetch') })).toBe(LOGIN_ERRORS.unavailable);
  });

  it('treats a gateway status (502/503/504) as the server being unreachable', () => {
    for (const status of [502, 503, 504]) expect(message(response(status, ''))).toBe(LOGIN_ERRORS.unavailable);
    expect(message(response(502, '<html><h1>502 Bad Gateway</h1></html>'))).toBe(LOGIN_ERRORS.unavailable);
  });

  it('names a reset connection from its marker or from a body that broke off', () => {
    const error = new TypeError('fetch failed', { cause: { code: 'ECONNRESET', message: 'read ECONNRESET' } });
    expect(message({ stage: 'request', error })).toBe(LOGIN_ERRORS.connectionReset);
    expect(message(response(500, 'socket hang up'))).toBe(LOGIN_ERRORS.connectionReset);
    expect(message({ stage: 'body', status: 200, error: new TypeError('network error') })).toBe(
      LOGIN_ERRORS.connectionReset,
    );
  });

  it('says unauthorized for a 401 or an error text containing "unauthorized" or "401"', () => {
    expect(message(response(401, JSON.stringify({ message: 'Unauthorized: invalid username or password' })))).toBe(
      LOGIN_ERRORS.unauthorized,
    );
    expect(message(response(401, ''))).toBe(LOGIN_ERRORS.unauthorized);
    expect(message(response(400, JSON.stringify({ message: 'upstream said 401' })))).toBe(LOGIN_ERRORS.unauthorized);
    expect(message(response(403, 'UNAUTHORIZED'))).toBe(LOGIN_ERRORS.unauthorized);
  });

  it('reports an OK response that is not the expected JSON as an unexpected server response', () => {
    expect(message(response(200, '<!doctype html><html></html>'))).toBe(LOGIN_ERRORS.unexpectedResponse);
    expect(message(response(200, ''))).toBe(LOGIN_ERRORS.unexpectedResponse);
  });

  it('reports being offline or any non-network exception as an unexpected error', () => {
    expect(message({ stage: 'request', error: new TypeError('Failed to fetch') }, false)).toBe(
      LOGIN_ERRORS.unexpectedError,
    );
    expect(message({ stage: 'request', error: new DOMException('aborted', 'AbortError') })).toBe(
      LOGIN_ERRORS.unexpectedError,
    );
    expect(message({ stage: 'request', error: new Error('boom') })).toBe(LOGIN_ERRORS.unexpectedError);
  });

  it('falls back to the credentials message when a failure carries no error text', () => {
    expect(message(response(500, ''))).toBe(LOGIN_ERRORS.noErrorText);
    expect(message(response(400, '{}'))).toBe(LOGIN_ERRORS.noErrorText);
    expect(message(response(400, '  '))).toBe(LOGIN_ERRORS.noErrorText);
  });

  it('says unknown reason for any other error text', () => {
    expect(message(response(400, JSON.stringify({ message: 'body.username: is required' })))).toBe(
      LOGIN_ERRORS.unknown,
    );
  });

  it("shows a throttled login's own message, which says when to try again; a proxy's 429 page is not shown", () => {
    const server = 'Too many failed sign-in attempts. Try again in 15 minutes.';
    expect(
      message(response(429, JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: server }))),
    ).toBe(server);
    expect(message(response(429, '<html><body>429 Too Many Requests</body></html>'))).toBe(THROTTLED_FALLBACK);
    expect(message(response(429, ''))).toBe(THROTTLED_FALLBACK);
  });
});

describe('login against real sockets', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
    configureClient({ origin: server.origin });
  });
  afterAll(() => server.close());

  const attempt = async () => {
    const result = await login({ username: 'ann', password: 'secret' });
    if (result.ok || result.mfa) throw new Error('login should have failed');
    return loginErrorMessage(result.failure);
  };

  it('signs in with the tokens of a JSON answer', async () => {
    server.handle((_req, res) => json(res, 200, { accessToken: 'a', refreshToken: 'r', username: 'Ann' }));
    expect(await login({ username: 'ann', password: 'secret' })).toEqual({
      ok: true,
      auth: { accessToken: 'a', refreshToken: 'r', username: 'Ann' },
    });
    expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({ username: 'ann', password: 'secret' });
  });

  it('reports the code step of an account with MFA, and completes it with the challenge and a code', async () => {
    server.handle((_req, res) => json(res, 200, { mfaRequired: true, challenge: 'c-1', expiresIn: 300 }));
    expect(await login({ username: 'ann', password: 'secret' })).toEqual({
      ok: false,
      mfa: { mfaRequired: true, challenge: 'c-1', expiresIn: 300 },
    });
    server.handle((_req, res) => json(res, 200, { accessToken: 'a', refreshToken: 'r', username: 'Ann' }));
    expect(await completeMfaLogin({ challenge: 'c-1', code: '123456' })).toEqual({
      ok: true,
      auth: { accessToken: 'a', refreshToken: 'r', username: 'Ann' },
    });
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/v1/auth/login/mfa' });
    expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({ challenge: 'c-1', code: '123456' });
  });

  it('server unreachable: nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    configureClient({ origin: `http://127.0.0.1:${port}` });
    try {
      expect(await attempt()).toBe(LOGIN_ERRORS.unavailable);
    } finally {
      configureClient({ origin: server.origin });
    }
  });

  it('connection reset: the server resets the socket before answering', async () => {
    server.handle((req) => req.socket.resetAndDestroy());
    expect(await attempt()).toBe(LOGIN_ERRORS.connectionReset);
  });

  it('connection reset: the answer breaks off in the middle of its body', async () => {
    server.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"accessToken":"a', () => setTimeout(() => req.socket.resetAndDestroy(), 20));
    });
    expect(await attempt()).toBe(LOGIN_ERRORS.connectionReset);
  });

  it('401 from the server', async () => {
    server.handle((_req, res) =>
      json(res, 401, { statusCode: 401, message: 'Unauthorized: invalid username or password' }),
    );
    expect(await attempt()).toBe(LOGIN_ERRORS.unauthorized);
  });

  it('an OK answer that is not JSON', async () => {
    server.handle((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy login</html>'));
    expect(await attempt()).toBe(LOGIN_ERRORS.unexpectedResponse);
  });

  it('an error answer with no text', async () => {
    server.handle((_req, res) => res.writeHead(500).end());
    expect(await attempt()).toBe(LOGIN_ERRORS.noErrorText);
  });
});
