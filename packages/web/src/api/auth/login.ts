import type { AuthResponse, LoginBody } from '@billfold/contract/schemas';
import { exchange, type Observation } from '../client.ts';

/** How a login attempt failed: the exchange as observed, and whether the browser believed it was online. */
export interface LoginFailure {
  observation: Observation;
  online: boolean;
}

export type LoginResult = { ok: true; auth: AuthResponse } | { ok: false; failure: LoginFailure };

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

/** `POST /auth/login`; reports the failure as observed so the page can name it (spec §8). */
export async function login(credentials: LoginBody): Promise<LoginResult> {
  const observation = await exchange('POST', '/auth/login', { body: credentials });
  if (observation.stage === 'response' && observation.ok) {
    const auth = readAuth(observation.text);
    if (auth) return { ok: true, auth: { ...auth, username: auth.username || credentials.username } };
  }
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  return { ok: false, failure: { observation, online } };
}
