import { validateEmailChange } from '@billfold/contract/validation';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useUpdateUser } from '../../api/account/update-user.ts';
import { failureMessage, serverReason } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { CurrentPasswordField } from '../../components/PasswordField.tsx';
import { useAccountNotice } from './use-account-notice.ts';

interface Props {
  open: boolean;
  currentEmail: string;
  onClose: () => void;
}

export function ChangeEmailDialog({ open, currentEmail, onClose }: Props) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateUser();
  const notify = useAccountNotice();

  const reset = () => {
    setNewEmail('');
    setPassword('');
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    const problem = validateEmailChange({ newEmail, password });
    setError(problem);
    if (problem) return;
    const outcome = await update.mutateAsync({ password, newEmail: newEmail.trim() });
    if (!outcome.ok) {
      notify(failureMessage(outcome, { failed: 'Failed to update email.', error: 'Failed to update email.' }), 'error');
      // The dialog stays open with the server's reason (a wrong current password) where the user is looking.
      setError(serverReason(outcome));
      return;
    }
    notify('Email updated.', 'success');
    close();
  };

  return (
    <FormDialog
      open={open}
      title="Change Email"
      submitLabel="Save"
      error={error}
      onDismissError={() => setError(null)}
      busy={update.isPending}
      onSubmit={submit}
      onClose={close}
    >
      <TextField label="Current Email" value={currentEmail} disabled fullWidth />
      <TextField
        label="New Email"
        type="email"
        name="newEmail"
        autoComplete="email"
        value={newEmail}
        onChange={(event) => setNewEmail(event.target.value)}
        autoFocus
        fullWidth
      />
      <CurrentPasswordField value={password} onChange={setPassword} />
    </FormDialog>
  );
}
