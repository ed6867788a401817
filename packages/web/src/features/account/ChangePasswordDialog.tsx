import { MESSAGES, validatePasswordChange } from '@billfold/contract/validation';
import { useState } from 'react';
import { useUpdateUser } from '../../api/account/update-user.ts';
import { completeMfaLogin, login } from '../../api/auth/login.ts';
import { failureMessage, serverReason } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { MfaCodeField } from '../../components/MfaCodeField.tsx';
import { PasswordField } from '../../components/PasswordField.tsx';
import { saveSession } from '../../lib/session.ts';
import { useAccountNotice } from './use-account-notice.ts';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

interface Props {
  open: boolean;
  username: string;
  /** With MFA on, a code is asked for too: signing in again after the change needs one. */
  mfaEnabled: boolean;
  onClose: () => void;
}

/** Signs in again with the new password (and the code, with MFA), so the session outlives the change. */
async function renewSession(username: string, password: string, code: string): Promise<void> {
  const renewed = await login({ username, password });
  if (renewed.ok) return saveSession(renewed.auth);
  if (!renewed.mfa) return;
  const completed = await completeMfaLogin({ challenge: renewed.mfa.challenge, code: code.trim() });
  if (completed.ok) saveSession(completed.auth);
}

export function ChangePasswordDialog({ open, username, mfaEnabled, onClose }: Props) {
  const [form, setForm] = useState(EMPTY);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateUser();
  const notify = useAccountNotice();

  const close = () => {
    setForm(EMPTY);
    setCode('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    const problem =
      validatePasswordChange(form) ?? (mfaEnabled && !code.trim() ? MESSAGES.allFieldsRequiredShort : null);
    setError(problem);
    if (problem) return;
    const outcome = await update.mutateAsync({ password: form.currentPassword, newPassword: form.newPassword });
    if (!outcome.ok) {
      notify(
        failureMessage(outcome, { failed: 'Failed to change password.', error: 'Failed to change password.' }),
        'error',
      );
      // The dialog stays open with the server's reason (a wrong current password) where the user is looking.
      setError(serverReason(outcome));
      return;
    }
    // The server revokes every refresh token on a password change; sign in again so the session outlives
    // the current access token (decision 0302).
    await renewSession(username, form.newPassword, code);
    notify('Password changed successfully.', 'success');
    close();
  };

  const field = (name: keyof typeof EMPTY, label: string, autoComplete: string) => (
    <PasswordField
      label={label}
      name={name}
      autoComplete={autoComplete}
      value={form[name]}
      onChange={(event) => setForm((f) => ({ ...f, [name]: event.target.value }))}
      fullWidth
    />
  );

  return (
    <FormDialog
      open={open}
      title="Change Password"
      submitLabel="Change Password"
      error={error}
      onDismissError={() => setError(null)}
      busy={update.isPending}
      onSubmit={submit}
      onClose={close}
    >
      {field('currentPassword', 'Current Password', 'current-password')}
      {field('newPassword', 'New Password', 'new-password')}
      {field('confirmPassword', 'Confirm New Password', 'new-password')}
      {mfaEnabled && <MfaCodeField value={code} onChange={setCode} />}
    </FormDialog>
  );
}
