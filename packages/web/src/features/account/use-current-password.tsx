import { MESSAGES } from '@billfold/contract/validation';
import { useState } from 'react';
import { CurrentPasswordField } from '../../components/PasswordField.tsx';

/**
 * The current password that confirms an account change (deactivating, turning on the calendar feed): its field,
 * the dialog's error and a reset for closing. `usePasswordAndCode` is the same with an MFA code.
 */
export function useCurrentPassword() {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    password,
    error,
    setError,
    /** The validation message when the field is empty, else null. */
    missing: () => (password ? null : MESSAGES.passwordRequired),
    reset: () => {
      setPassword('');
      setError(null);
    },
    field: <CurrentPasswordField value={password} onChange={setPassword} autoFocus />,
  };
}
