import type { FastifyInstance } from 'fastify';
import { totpCode } from '../../src/lib/totp.ts';
import type { Session } from './factories.ts';

export interface Enrolment {
  secret: string;
  recoveryCodes: string[];
}

/** Sets up and confirms MFA for a signed-in account through the API, with a code computed at `at`. */
export async function enrolMfa(app: FastifyInstance, s: Session, at: number): Promise<Enrolment> {
  const setup = await app.inject({
    method: 'POST',
    url: '/api/v1/user/mfa/setup',
    headers: s.headers,
    payload: { password: s.password },
  });
  if (setup.statusCode !== 200) throw new Error(`MFA set-up failed: ${setup.body}`);
  const { secret } = setup.json<{ secret: string }>();
  const enable = await app.inject({
    method: 'POST',
    url: '/api/v1/user/mfa/enable',
    headers: s.headers,
    payload: { code: totpCode(secret, at) },
  });
  if (enable.statusCode !== 200) throw new Error(`MFA enable failed: ${enable.body}`);
  return { secret, recoveryCodes: enable.json<{ recoveryCodes: string[] }>().recoveryCodes };
}
