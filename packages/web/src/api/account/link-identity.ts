import { attempt, type Outcome } from '../outcome.ts';

/**
 * `POST /account/oidc/link` with the current password: the provider's address to go to next. The answer also sets
 * the signed cookie the provider's callback checks, so the link can only finish in this browser.
 */
export function linkIdentity(password: string): Promise<Outcome<{ url: string }>> {
  return attempt<{ url: string }>('POST', '/account/oidc/link', { body: { password } });
}
