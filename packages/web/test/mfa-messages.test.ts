import { describe, expect, it } from 'vitest';
import type { Observation } from '../src/api/client.ts';
import { mfaFailureMessage } from '../src/features/account/mfa-failure.ts';
import { LOGIN_ERRORS } from '../src/features/auth/login-error.ts';
import { MFA_ERRORS, mfaErrorMessage } from '../src/features/auth/mfa-error.ts';

const response = (status: number, message: string, code?: string): Observation => ({
  stage: 'response',
  status,
  ok: false,
  text: JSON.stringify({ statusCode: status, error: 'x', message, ...(code ? { code } : {}) }),
});
const step = (observation: Observation) => mfaErrorMessage({ observation, online: true });

describe('the code step of sign-in: messages', () => {
  it('a wrong code stays on the code step; an expired or used challenge starts again from the password', () => {
    expect(step(response(401, 'Unauthorized: invalid authentication code', 'INVALID_MFA_CODE'))).toEqual({
      message: MFA_ERRORS.invalidCode,
      restart: false,
    });
    expect(
      step(response(401, 'Unauthorized: sign-in expired or invalid, log in again', 'MFA_CHALLENGE_EXPIRED')),
    ).toEqual({ message: MFA_ERRORS.expired, restart: true });
  });

  it("goes by the server's code (API Rev 3), never by the wording of its message", () => {
    expect(step(response(401, 'Your step timed out', 'MFA_CHALLENGE_EXPIRED'))).toEqual({
      message: MFA_ERRORS.expired,
      restart: true,
    });
    expect(step(response(401, 'sign-in expired? no: the code is wrong', 'INVALID_MFA_CODE'))).toEqual({
      message: MFA_ERRORS.invalidCode,
      restart: false,
    });
  });

  it("passes on the throttle's own words, and names a connection failure as the password step does", () => {
    const throttled = 'Too many failed attempts. Try again in 14 minutes.';
    expect(step(response(429, throttled, 'TOO_MANY_REQUESTS'))).toEqual({ message: throttled, restart: false });
    expect(step(response(429, throttled, 'SIGN_IN_THROTTLED'))).toEqual({ message: throttled, restart: false });
    expect(step({ stage: 'request', error: new TypeError('Failed to fetch') })).toEqual({
      message: LOGIN_ERRORS.unavailable,
      restart: false,
    });
  });
});

describe('account MFA failures', () => {
  it("add the server's reason to the message, and keep it alone when there is none", () => {
    const failed = { ok: false, reason: 'failed', status: 403, message: 'Invalid authentication code' } as const;
    expect(mfaFailureMessage('Failed to disable MFA.', failed)).toBe(
      'Failed to disable MFA. Invalid authentication code.',
    );
    expect(mfaFailureMessage('Failed to enable MFA.', { ...failed, message: 'Current password is incorrect.' })).toBe(
      'Failed to enable MFA. Current password is incorrect.',
    );
    const network = { ok: false, reason: 'error', status: null, message: null } as const;
    expect(mfaFailureMessage('Failed to enable MFA.', network)).toBe('Failed to enable MFA.');
  });
});
