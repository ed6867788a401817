import { RESET_MESSAGES } from '@billfold/contract/password-reset';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import { useSignInMethods } from '../../api/auth/get-sign-in-methods.ts';
import { useRequestPasswordReset } from '../../api/auth/request-password-reset.ts';
import { failureMessage } from '../../api/outcome.ts';
import { useAccountNotice } from './use-account-notice.ts';

/** Why the button cannot send a link, or null when it can. */
export function setPasswordBlocker(emailVerified: boolean, linksAvailable: boolean): string | null {
  if (!linksAvailable) return RESET_MESSAGES.unavailable;
  if (!emailVerified) return 'Confirm your email address first: the link goes only to a confirmed address.';
  return null;
}

/**
 * For an account made through the identity provider, which has no password of its own
 * (docs/decisions/0723-password-reset.md): a password link mailed to its confirmed address sets one, so the
 * changes that ask for the current password (email, MFA, calendar feed, deleting a ledger) become possible.
 */
export function SetPasswordButton({ email, emailVerified }: { email: string; emailVerified: boolean }) {
  const { data: methods } = useSignInMethods();
  const request = useRequestPasswordReset();
  const notify = useAccountNotice();
  const blocker = setPasswordBlocker(emailVerified, methods?.passwordReset ?? false);
  const send = async () => {
    const outcome = await request.mutateAsync(email);
    if (outcome.ok) notify('We emailed you a link to set your password. It works once, within 60 minutes.', 'success');
    else
      notify(
        failureMessage(outcome, { failed: 'Failed to send the link.', error: 'Failed to send the link.' }),
        'error',
      );
  };
  return (
    <Tooltip title={blocker ?? ''}>
      <span>
        <Button variant="contained" onClick={send} disabled={blocker !== null || request.isPending}>
          Email Me a Link to Set a Password
        </Button>
      </span>
    </Tooltip>
  );
}
