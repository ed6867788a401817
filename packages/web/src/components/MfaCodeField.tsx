import TextField from '@mui/material/TextField';

/** The code from an authenticator app (or a recovery code), asked for at sign-in and for MFA changes. */
export function MfaCodeField({
  value,
  onChange,
  autoFocus = false,
  allowRecoveryCode = true,
}: {
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  /** Off while setting up, where only a code from the new authenticator entry proves it works. */
  allowRecoveryCode?: boolean;
}) {
  return (
    <TextField
      label="Authentication Code"
      name="code"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      autoComplete="one-time-code"
      helperText={
        allowRecoveryCode
          ? 'The 6-digit code from your authenticator app, or one of your recovery codes'
          : 'The 6-digit code your authenticator app shows for Billfold'
      }
      slotProps={{
        htmlInput: {
          inputMode: allowRecoveryCode ? 'text' : 'numeric',
          maxLength: allowRecoveryCode ? 64 : 7,
          spellCheck: false,
          autoCapitalize: 'none',
        },
      }}
      autoFocus={autoFocus}
      fullWidth
    />
  );
}
