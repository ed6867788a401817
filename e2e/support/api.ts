import type { AuthResponse, CreateUserBody } from '@billfold/contract/auth';
/**
 * Seeding through the real API with fetch, the way any client would: faster than clicking and independent of
 * the screens under test. Later specs add helpers here (entities, invoices, payments) on top of `ApiSession`.
 * Every call goes to the suite's server unless given the `origin` of a spec's own (support/server.ts).
 */
import { baseUrl } from './browser.ts';

let sequence = 0;

export const STRONG_PASSWORD = 'Str0ng!Passw0rd';

export type UserData = CreateUserBody;

/** Account data that passes every rule, unique per call; override what a test is about. */
export function newUser(overrides: Partial<UserData> = {}): UserData {
  sequence += 1;
  const username = overrides.username ?? `e2e${Date.now().toString(36)}${sequence}`;
  return { username, email: `${username}@example.com`, password: STRONG_PASSWORD, ...overrides };
}

export class ApiSession {
  constructor(
    readonly user: UserData,
    public accessToken: string,
    public refreshToken: string,
    readonly origin: string = baseUrl(),
    /** The ledger the calls work in (`Billfold-Ledger`); none: the personal ledger (docs/decisions/0107-ledgers.md). */
    readonly ledgerId: number | null = null,
  ) {}

  /** The same session working in ledger `ledgerId`: every call names it in `Billfold-Ledger`. */
  inLedger(ledgerId: number): ApiSession {
    return new ApiSession(this.user, this.accessToken, this.refreshToken, this.origin, ledgerId);
  }

  /** An authenticated call; throws on a non-2xx answer so seeding problems surface where they happen. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.origin}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.accessToken}`,
        ...(this.ledgerId === null ? {} : { 'Billfold-Ledger': String(this.ledgerId) }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

let address = 0;

/**
 * A client address of its own for each seeded sign-up, so the per-address sign-up limit (50 in 15 minutes) bounds
 * one test's accounts, not the whole suite's; the e2e server trusts its loopback proxy (support/global-setup.ts).
 */
function seededAddress(): string {
  address += 1;
  return `10.${process.pid % 250}.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`;
}

async function post(origin: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${origin}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export async function createUser(overrides: Partial<UserData> = {}, origin = baseUrl()): Promise<UserData> {
  const user = newUser(overrides);
  const res = await post(origin, '/auth/create', user, { 'x-forwarded-for': seededAddress() });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return user;
}

export async function apiLogin(user: UserData, origin = baseUrl()): Promise<ApiSession> {
  const res = await post(origin, '/auth/login', { username: user.username, password: user.password });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as AuthResponse;
  return new ApiSession(user, body.accessToken, body.refreshToken, origin);
}

/** A new account, signed in through the API (for seeding data before the browser signs in). */
export async function createSignedInUser(overrides: Partial<UserData> = {}, origin = baseUrl()): Promise<ApiSession> {
  return apiLogin(await createUser(overrides, origin), origin);
}
