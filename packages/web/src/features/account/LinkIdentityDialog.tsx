import DialogContentText from '@mui/material/DialogContentText';
import { useState } from 'react';
import { linkIdentity } from '../../api/account/link-identity.ts';
import { useUnlinkIdentity } from '../../api/account/unlink-identity.ts';
import { failureMessage } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { useAccountNotice } from './use-account-notice.ts';
import { useCurrentPassword } from './use-current-password.tsx';

interface Props {
  open: boolean;
  /** `link` goes to the provider to sign in there; `unlink` removes the link. */
  mode: 'link' | 'unlink';
  provider: string;
  onClose: () => void;
}

/**
 * Linking the account to the identity provider, or unlinking it, with the current password
 * (docs/decisions/0722-openid-connect-sign-in.md): a session alone must not add or remove a way to sign in.
 */
export function LinkIdentityDialog({ open, mode, provider, onClose }: Props) {
  const { password, error, setError, missing, reset, field } = useCurrentPassword();
  const [leaving, setLeaving] = useState(false);
  const unlink = useUnlinkIdentity();
  const notify = useAccountNotice();
  const failed = mode === 'link' ? `Failed to link ${provider}.` : `Failed to unlink ${provider}.`;

  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    const problem = missing();
    setError(problem);
    if (problem) return;
    if (mode === 'unlink') {
      const outcome = await unlink.mutateAsync(password);
      if (!outcome.ok) return setError(failureMessage(outcome, { failed, error: failed }));
      notify(`Unlinked from ${provider}.`, 'success');
      return close();
    }
    setLeaving(true);
    const outcome = await linkIdentity(password);
    if (!outcome.ok) {
      setLeaving(false);
      return setError(failureMessage(outcome, { failed, error: failed }));
    }
    // To the provider; it sends the browser back to /account#oidc=linked.
    window.location.assign(outcome.data.url);
  };

  return (
    <FormDialog
      open={open}
      title={mode === 'link' ? `Link ${provider}` : `Unlink ${provider}`}
      submitLabel={mode === 'link' ? 'Continue' : 'Unlink'}
      destructive={mode === 'unlink'}
      error={error}
      onDismissError={() => setError(null)}
      busy={leaving || unlink.isPending}
      onSubmit={submit}
      onClose={close}
    >
      <DialogContentText>
        {mode === 'link'
          ? `Enter your password, then sign in at ${provider}. After that you can sign in here with ${provider}.`
          : `You will sign in with your password only. Enter your password to unlink ${provider}.`}
      </DialogContentText>
      {field}
    </FormDialog>
  );
}
