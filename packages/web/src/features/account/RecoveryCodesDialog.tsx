import DialogContentText from '@mui/material/DialogContentText';
import { useState } from 'react';
import { useRegenerateRecoveryCodes } from '../../api/account/regenerate-recovery-codes.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { mfaFailureMessage } from './mfa-failure.ts';
import { RecoveryCodeList } from './RecoveryCodeList.tsx';
import { usePasswordAndCode } from './use-password-and-code.tsx';

/** Ten new recovery codes (the old ones stop working), with the password and a code. */
export function RecoveryCodesDialog({
  open,
  username,
  onClose,
}: {
  open: boolean;
  username: string;
  onClose: () => void;
}) {
  const form = usePasswordAndCode();
  const [codes, setCodes] = useState<string[] | null>(null);
  const regenerate = useRegenerateRecoveryCodes(username);

  const close = () => {
    form.reset();
    setCodes(null);
    onClose();
  };
  const submit = async () => {
    if (codes) return close();
    const missing = form.missing();
    if (missing) return form.setError(missing);
    const outcome = await regenerate.mutateAsync([form.password, form.code]);
    if (!outcome.ok) return form.setError(mfaFailureMessage('Failed to create new recovery codes.', outcome));
    form.reset();
    setCodes(outcome.data.recoveryCodes);
  };

  return (
    <FormDialog
      open={open}
      title={codes ? 'Save Your Recovery Codes' : 'New Recovery Codes'}
      submitLabel={codes ? 'Done' : 'Create New Codes'}
      error={form.error}
      onDismissError={() => form.setError(null)}
      busy={regenerate.isPending}
      hideCancel={codes !== null}
      onSubmit={submit}
      onClose={close}
    >
      {codes ? (
        <RecoveryCodeList codes={codes} username={username} />
      ) : (
        <>
          <DialogContentText>
            Ten new recovery codes replace the ones you have; the old codes stop working.
          </DialogContentText>
          {form.fields}
        </>
      )}
    </FormDialog>
  );
}
