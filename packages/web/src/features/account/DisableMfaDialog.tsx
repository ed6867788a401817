import DialogContentText from '@mui/material/DialogContentText';
import { useDisableMfa } from '../../api/account/disable-mfa.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { mfaFailureMessage } from './mfa-failure.ts';
import { useAccountNotice } from './use-account-notice.ts';
import { usePasswordAndCode } from './use-password-and-code.tsx';

/** MFA off, with the password and a code (from the app, or a recovery code when the app is lost). */
export function DisableMfaDialog({
  open,
  username,
  onClose,
}: {
  open: boolean;
  username: string;
  onClose: () => void;
}) {
  const form = usePasswordAndCode();
  const disable = useDisableMfa(username);
  const notify = useAccountNotice();

  const close = () => {
    form.reset();
    onClose();
  };
  const submit = async () => {
    const missing = form.missing();
    if (missing) return form.setError(missing);
    const outcome = await disable.mutateAsync([form.password, form.code]);
    if (!outcome.ok) return form.setError(mfaFailureMessage('Failed to disable MFA.', outcome));
    notify('MFA disabled.', 'success');
    close();
  };

  return (
    <FormDialog
      open={open}
      title="Disable MFA"
      submitLabel="Disable MFA"
      destructive
      error={form.error}
      onDismissError={() => form.setError(null)}
      busy={disable.isPending}
      onSubmit={submit}
      onClose={close}
    >
      <DialogContentText>
        Signing in will ask for your password only. Your recovery codes stop working.
      </DialogContentText>
      {form.fields}
    </FormDialog>
  );
}
