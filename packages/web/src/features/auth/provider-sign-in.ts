import type { LoginFailure } from '../../api/auth/login.ts';
import { errorCode } from '../../api/client.ts';

/** What the address of `/login/oidc` carries back from the identity provider (`#ticket=…` or `#error=…`). */
export function readProviderReturn(hash: string): { ticket: string } | { error: string } {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const ticket = fragment.get('ticket');
  if (ticket) return { ticket };
  return { error: fragment.get('error') ?? 'OIDC_FAILED' };
}

/**
 * Why a sign-in with the identity provider did not end signed in, from the code the server gave
 * (docs/decisions/0722-openid-connect-sign-in.md), in the words the login page shows.
 */
export function providerSignInMessage(code: string | null, provider: string): string {
  switch (code) {
    case 'OIDC_NOT_LINKED':
      return `No Billfold account is linked to this ${provider} account. Sign in with your password, then link ${provider} on the Account page.`;
    case 'OIDC_EMAIL_INVALID':
      return `Your ${provider} account's email address cannot be used here (it is not valid, too long, or holds hidden characters). Change it at ${provider}, then sign in again.`;
    case 'OIDC_ALREADY_LINKED':
      return `This ${provider} account is linked to another Billfold account.`;
    case 'ACCOUNT_DEACTIVATED':
      return 'This account is deactivated.';
    case 'SIGN_IN_TICKET_INVALID':
      return 'This sign-in expired or was used already. Please sign in again.';
    default:
      return `Signing in with ${provider} did not complete. Please try again.`;
  }
}

/** The code of a failed ticket exchange: the server's, or none when no usable answer came. */
export function exchangeFailureCode(failure: LoginFailure): string | null {
  const { observation } = failure;
  return observation.stage === 'response' ? errorCode(observation.text) : null;
}
