import { RESET_MESSAGES } from '@billfold/contract/password-reset';
import type { ApiToken } from '@billfold/contract/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApiTokens } from '../src/api/account/get-api-tokens.ts';
import { exchangeSignInTicket } from '../src/api/auth/exchange-sign-in-ticket.ts';
import { configureClient } from '../src/api/client.ts';
import { curlExample, tokenDetails, tokenNameProblem } from '../src/features/account/api-token-text.ts';
import { linkReturnNotice } from '../src/features/account/identity-link-text.ts';
import { setPasswordBlocker } from '../src/features/account/SetPasswordButton.tsx';
import {
  exchangeFailureCode,
  providerSignInMessage,
  readProviderReturn,
} from '../src/features/auth/provider-sign-in.ts';
import { type FakeServer, json, startFakeServer } from './fake-server.ts';

const token = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: 1,
  name: 'Home Assistant',
  scope: 'read',
  ledgerId: null,
  hint: 'bf_AbCd…',
  createdAt: '2026-11-20T08:00:00',
  expiresAt: null,
  lastUsedAt: null,
  ...overrides,
});

describe('API tokens on the Account page (docs/decisions/0721-api-tokens.md)', () => {
  it('says the scope, the last use or "Never used", and the expiry, past or to come', () => {
    expect(tokenDetails(token())).toBe('Read only · Never used');
    expect(tokenDetails(token({ ledgerId: 7 }), Date.now(), 'Household')).toBe(
      'Read only · Only in “Household” · Never used',
    );
    expect(tokenDetails(token({ ledgerId: 7 }))).toBe('Read only · Only in “a ledger you no longer have” · Never used');
    const used = tokenDetails(token({ scope: 'read-write', lastUsedAt: '2026-11-22T12:00:00' }));
    expect(used).toMatch(/^Read and write · Last used Nov 2\d, 2026, \d+:\d\d [AP]M$/);
    const now = Date.parse('2026-11-25T00:00:00Z');
    expect(tokenDetails(token({ expiresAt: '2026-12-01T00:00:00' }), now)).toMatch(/ · Expires (Nov 30|Dec 1), 2026/);
    expect(tokenDetails(token({ expiresAt: '2026-11-24T00:00:00' }), now)).toMatch(/ · Expired /);
  });

  it('needs a name of at most 100 characters', () => {
    expect(tokenNameProblem('  ')).toBe('Name is required');
    expect(tokenNameProblem('x'.repeat(101))).toBe('Name must be at most 100 characters');
    expect(tokenNameProblem(' Home Assistant ')).toBeNull();
  });

  it('shows a curl line that sends the token as a Bearer header', () => {
    expect(curlExample('bf_x', 'https://bills.example.com')).toBe(
      'curl -H "Authorization: Bearer bf_x" https://bills.example.com/api/v1/entries/due-summary',
    );
  });
});

describe('linking the identity provider (docs/decisions/0722-openid-connect-sign-in.md)', () => {
  it('tells how the link went from the address the provider sent the browser back to', () => {
    expect(linkReturnNotice('#oidc=linked', 'Authelia')).toEqual({
      message: 'Linked to Authelia.',
      severity: 'success',
    });
    expect(linkReturnNotice('#oidc=OIDC_ALREADY_LINKED', 'Authelia')?.message).toBe(
      'Failed to link. That Authelia account is linked to another Billfold account.',
    );
    expect(linkReturnNotice('#oidc=OIDC_FAILED', 'Authelia')).toEqual({
      message: 'Failed to link. Signing in with Authelia did not complete.',
      severity: 'error',
    });
    expect(linkReturnNotice('', 'Authelia')).toBeNull();
    expect(linkReturnNotice('#section', 'Authelia')).toBeNull();
  });

  it('reads the ticket or the error code of /login/oidc, and a bare visit as a failure', () => {
    expect(readProviderReturn('#ticket=abc_-1')).toEqual({ ticket: 'abc_-1' });
    expect(readProviderReturn('#error=OIDC_NOT_LINKED')).toEqual({ error: 'OIDC_NOT_LINKED' });
    expect(readProviderReturn('')).toEqual({ error: 'OIDC_FAILED' });
  });

  it('says why a provider sign-in did not end signed in, by code', () => {
    expect(providerSignInMessage('OIDC_NOT_LINKED', 'Authelia')).toBe(
      'No Billfold account is linked to this Authelia account. Sign in with your password, then link Authelia on the Account page.',
    );
    // A sign-up whose address has an account ends as any failed one: no words tell that the address is taken.
    expect(providerSignInMessage('OIDC_EMAIL_TAKEN', 'Authelia')).toBe(
      providerSignInMessage('OIDC_FAILED', 'Authelia'),
    );
    expect(providerSignInMessage('OIDC_EMAIL_INVALID', 'Authelia')).toMatch(
      /^Your Authelia account's email address cannot be used here/,
    );
    expect(providerSignInMessage('SIGN_IN_TICKET_INVALID', 'Authelia')).toBe(
      'This sign-in expired or was used already. Please sign in again.',
    );
    expect(providerSignInMessage(null, 'Authelia')).toBe(
      'Signing in with Authelia did not complete. Please try again.',
    );
  });
});

describe('the calls, against a real socket', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
    configureClient({ origin: server.origin });
  });
  afterAll(() => server.close());

  it('exchanges a ticket for tokens, for the MFA step, or reads the refusal’s code', async () => {
    server.handle((_req, res) => json(res, 200, { accessToken: 'a.b.c', refreshToken: 'r', username: 'alice' }));
    expect(await exchangeSignInTicket('t1')).toEqual({
      ok: true,
      auth: { accessToken: 'a.b.c', refreshToken: 'r', username: 'alice' },
    });
    const sent = server.requests.at(-1);
    expect([sent?.method, sent?.url, sent?.body]).toEqual(['POST', '/api/v1/auth/oidc/exchange', '{"ticket":"t1"}']);

    server.handle((_req, res) => json(res, 200, { mfaRequired: true, challenge: 'c', expiresIn: 300 }));
    expect(await exchangeSignInTicket('t2')).toEqual({
      ok: false,
      mfa: { mfaRequired: true, challenge: 'c', expiresIn: 300 },
    });

    server.handle((_req, res) =>
      json(res, 401, {
        statusCode: 401,
        error: 'Unauthorized',
        code: 'SIGN_IN_TICKET_INVALID',
        message: 'Unauthorized: this sign-in link expired or was used already',
      }),
    );
    const refused = await exchangeSignInTicket('t3');
    expect(refused.ok).toBe(false);
    if (!refused.ok && !refused.mfa) expect(exchangeFailureCode(refused.failure)).toBe('SIGN_IN_TICKET_INVALID');
  });

  it('lists the tokens from the answer’s list', async () => {
    server.handle((_req, res) => json(res, 200, { tokens: [token()] }));
    expect(await getApiTokens()).toEqual({ ok: true, data: [token()] });
  });
});

describe('setting a first password by a link', () => {
  it('says why the link cannot be sent, or nothing when it can', () => {
    expect(setPasswordBlocker(true, true)).toBeNull();
    expect(setPasswordBlocker(false, true)).toContain('Confirm your email address first');
    expect(setPasswordBlocker(true, false)).toBe(RESET_MESSAGES.unavailable);
    expect(setPasswordBlocker(false, false)).toBe(RESET_MESSAGES.unavailable);
  });
});
