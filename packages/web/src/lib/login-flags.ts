/** Router state carried to `/` so the login page can show the matching notice (docs/product.md, Sign-in page (/)) and return the user. */
export type LoginFlag = 'loggedOut' | 'accountCreated' | 'sessionEnded' | 'passwordSet';

export interface LoginLocationState {
  flag?: LoginFlag;
  /** The page to go back to after signing in (a same-origin path; see `safeReturnPath`). */
  from?: string;
}

export function loginState(flag: LoginFlag | null, from?: string | null): LoginLocationState {
  return { ...(flag ? { flag } : {}), ...(from ? { from } : {}) };
}

const FLAGS: readonly LoginFlag[] = ['loggedOut', 'accountCreated', 'sessionEnded', 'passwordSet'];

export function readLoginFlag(state: unknown): LoginFlag | null {
  if (state && typeof state === 'object' && 'flag' in state) {
    const { flag } = state as { flag: unknown };
    if (FLAGS.includes(flag as LoginFlag)) return flag as LoginFlag;
  }
  return null;
}

/** Pages that are no place to return to after signing in. */
const NO_RETURN = new Set(['/', '/user', '/logout', '/home', '/forgot-password', '/reset-password']);

/**
 * `value` as a path of this app (path, query and hash) when it is one, else null: never another origin, a
 * protocol-relative `//host` or `/\host`, a scheme, or control characters, so no link can turn the return after
 * sign-in into a redirect elsewhere.
 */
export function safeReturnPath(
  value: unknown,
  origin = globalThis.location?.origin ?? 'http://localhost',
): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\') return null;
  }
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || NO_RETURN.has(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function readReturnPath(state: unknown): string | null {
  if (state && typeof state === 'object' && 'from' in state) return safeReturnPath((state as { from: unknown }).from);
  return null;
}
