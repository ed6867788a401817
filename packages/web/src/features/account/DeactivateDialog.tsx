import DialogContentText from '@mui/material/DialogContentText';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useUpdateUser } from '../../api/account/update-user.ts';
import { failureMessage, serverReason } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { DEACTIVATION_LOGOUT_MS } from '../../lib/timing.ts';
import { useAccountNotice } from './use-account-notice.ts';
import { useCurrentPassword } from './use-current-password.tsx';

interface Props {
  open: boolean;
  onClose: () => void;
}

export function DeactivateDialog({ open, onClose }: Props) {
  const { password, error, setError, missing, reset, field } = useCurrentPassword();
  const [done, setDone] = useState(false);
  const update = useUpdateUser();
  const notify = useAccountNotice();
  const navigate = useNavigate();

  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    const problem = missing();
    setError(problem);
    if (problem) return;
    const outcome = await update.mutateAsync({ password, recycle: true });
    if (!outcome.ok) {
      notify(
        failureMessage(outcome, { failed: 'Failed to deactivate account.', error: 'Failed to deactivate account.' }),
        'error',
      );
      // The dialog stays open with the server's reason (a wrong current password) where the user is looking.
      setError(serverReason(outcome));
      return;
    }
    setDone(true);
    notify('Account deactivated. You will be logged out.', 'success');
    // Not cancelled when the page goes away: the server has already ended this account's sessions.
    setTimeout(() => navigate('/logout', { replace: true }), DEACTIVATION_LOGOUT_MS);
  };

  return (
    <FormDialog
      open={open}
      title="Deactivate Account"
      submitLabel="Deactivate"
      destructive
      error={error}
      onDismissError={() => setError(null)}
      busy={update.isPending || done}
      onSubmit={submit}
      onClose={close}
    >
      <DialogContentText>
        You will be logged out. Your account and all its data are deleted if you do not log in again within 30 days;
        logging in before then reactivates it.
      </DialogContentText>
      {field}
    </FormDialog>
  );
}
