import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * What a provider sign-in must remember between leaving for the provider and coming back: the state, the nonce and
 * the PKCE verifier, what the sign-in is for, and until when. Kept in the browser that started it, as a cookie
 * signed with a key derived from the JWT secret, so the callback accepts only the browser that began the flow
 * (no login CSRF) and no server keeps anything for abandoned sign-ins (docs/decisions/0722-openid-connect-sign-in.md).
 */
export interface OidcState {
  state: string;
  nonce: string;
  verifier: string;
  /** `login`, or linking the account of `userId` to the provider. */
  intent: 'login' | 'link';
  userId?: number;
  expiresAt: number;
}

export const OIDC_COOKIE = 'billfold_oidc';
/** The cookie goes only to the provider routes. */
export const OIDC_COOKIE_PATH = '/api/v1/auth/oidc';
/** Ten minutes to sign in at the provider. */
export const OIDC_STATE_TTL = 10 * 60 * 1000;

export class OidcStateSealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'billfold', 'oidc-state-cookie', 32));
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  seal(state: OidcState): string {
    const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The state when the value is one this server signed and it has not expired; null otherwise. */
  open(value: string | undefined, now: number): OidcState | null {
    if (!value) return null;
    const [payload, mac, ...rest] = value.split('.');
    if (!payload || !mac || rest.length > 0) return null;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OidcState;
      return typeof state.expiresAt === 'number' && state.expiresAt > now ? state : null;
    } catch {
      return null;
    }
  }

  /** The `Set-Cookie` value that stores `state` (or, with null, removes it). */
  cookie(state: OidcState | null, secure: boolean): string {
    const attributes = [`Path=${OIDC_COOKIE_PATH}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
    if (!state) return [`${OIDC_COOKIE}=`, 'Max-Age=0', ...attributes].join('; ');
    return [`${OIDC_COOKIE}=${this.seal(state)}`, `Max-Age=${OIDC_STATE_TTL / 1000}`, ...attributes].join('; ');
  }
}

/** One cookie's value from a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
