import { exchange } from '../client.ts';
import { type LoginResult, readLoginAnswer } from './login.ts';

/**
 * `POST /auth/oidc/exchange`: the one-time ticket the identity provider's sign-in ended with, for the usual tokens
 * or, for an account with MFA on, the code step (docs/decisions/0722-openid-connect-sign-in.md).
 */
export async function exchangeSignInTicket(ticket: string): Promise<LoginResult> {
  return readLoginAnswer(await exchange('POST', '/auth/oidc/exchange', { body: { ticket } }));
}
