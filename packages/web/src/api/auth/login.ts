import type { AuthResponse, LoginBody, MfaChallenge, MfaLoginBody } from '@billfold/contract/auth';
import { exchange, type Observation } from '../client.ts';

/** How a login attempt failed: the exchange as observed, and whether the browser believed it was online. */
export interface LoginFailure {
  observation: Observation;
  online: boolean;
}

export type LoginResult =
  | { ok: true; auth: AuthResponse }
  /** The password was right and the account has MFA: the code step comes next. */
  | { ok: false; mfa: MfaChallenge }
  | { ok: false; mfa?: undefined; failure: LoginFailure };

function readChallenge(text: string): MfaChallenge | null {
  try {
    const body = JSON.parse(text) as Partial<MfaChallenge> | null;
    if (body?.mfaRequired === true && typeof body.challenge === 'string') {
      return { mfaRequired: true, challenge: body.challenge, expiresIn: Number(body.expiresIn) || 0 };
    }
  } catch {
    // not JSON: reported as a failure by the caller
  }
  return null;
}

function readAuth(text: string): AuthResponse | null {
  try {
    const body = JSON.parse(text) as Partial<AuthResponse> | null;
    if (body && typeof body.accessToken === 'string' && typeof body.refreshToken === 'string') {
      return { accessToken: body.accessToken, refreshToken: body.refreshToken, username: body.username ?? '' };
    }
  } catch {
    // an OK response that is not JSON is reported as a failure below
  }
  return null;
}

const isOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** A sign-in's answer: tokens, the MFA code step, or the failure as observed. */
export function readLoginAnswer(observation: Observation, username = ''): LoginResult {
  if (observation.stage === 'response' && observation.ok) {
    const auth = readAuth(observation.text);
    if (auth) return { ok: true, auth: { ...auth, username: auth.username || username } };
    const mfa = readChallenge(observation.text);
    if (mfa) return { ok: false, mfa };
  }
  return { ok: false, failure: { observation, online: isOnline() } };
}

/** `POST /auth/login`; reports the failure as observed so the page can name it (docs/product.md, Messages). */
export async function login(credentials: LoginBody): Promise<LoginResult> {
  return readLoginAnswer(await exchange('POST', '/auth/login', { body: credentials }), credentials.username);
}

/** `POST /auth/login/mfa`: the challenge of the password step and a code, for the tokens. */
export async function completeMfaLogin(body: MfaLoginBody): Promise<LoginResult> {
  const observation = await exchange('POST', '/auth/login/mfa', { body });
  if (observation.stage === 'response' && observation.ok) {
    const auth = readAuth(observation.text);
    if (auth) return { ok: true, auth };
  }
  return { ok: false, failure: { observation, online: isOnline() } };
}
