/**
 * What the Account page says when the identity provider sends the browser back from linking (`/account#oidc=…`,
 * docs/decisions/0722-openid-connect-sign-in.md), or null when the address carries no such answer.
 */
export function linkReturnNotice(
  hash: string,
  provider: string,
): { message: string; severity: 'success' | 'error' } | null {
  const answer = new URLSearchParams(hash.replace(/^#/, '')).get('oidc');
  if (!answer) return null;
  if (answer === 'linked') return { message: `Linked to ${provider}.`, severity: 'success' };
  if (answer === 'OIDC_ALREADY_LINKED')
    return {
      message: `Failed to link. That ${provider} account is linked to another Billfold account.`,
      severity: 'error',
    };
  if (answer === 'ACCOUNT_DEACTIVATED')
    return { message: 'Failed to link. This account is deactivated.', severity: 'error' };
  return { message: `Failed to link. Signing in with ${provider} did not complete.`, severity: 'error' };
}
