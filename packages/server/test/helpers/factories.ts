import type { FastifyInstance } from 'fastify';

let sequence = 0;

export const STRONG_PASSWORD = 'Str0ng!Passw0rd';

/** Account data that passes every rule; override what the test is about. */
export function userData(overrides: Partial<{ username: string; email: string; password: string }> = {}) {
  sequence += 1;
  const username = overrides.username ?? `user${sequence}_${process.pid}`;
  return { username, email: overrides.email ?? `${username}@example.com`, password: STRONG_PASSWORD, ...overrides };
}

export interface Session {
  username: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  headers: { authorization: string };
}

/** Creates an account through the API and signs in. */
export async function signUp(app: FastifyInstance, overrides: Parameters<typeof userData>[0] = {}): Promise<Session> {
  const data = userData(overrides);
  const created = await app.inject({ method: 'POST', url: '/api/v1/auth/create', payload: data });
  if (created.statusCode !== 201) throw new Error(`sign-up failed: ${created.body}`);
  return signIn(app, data);
}

export async function signIn(app: FastifyInstance, data: { username: string; email: string; password: string }) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: data.username, password: data.password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  const body = res.json<{ accessToken: string; refreshToken: string }>();
  return { ...data, ...body, headers: { authorization: `Bearer ${body.accessToken}` } };
}
