import { MESSAGES } from '@billfold/contract/validation';
import { useState } from 'react';
import { MfaCodeField } from '../../components/MfaCodeField.tsx';
import { CurrentPasswordField } from '../../components/PasswordField.tsx';

/** The password and a code that confirm an MFA change (turning it off, new recovery codes): fields and state. */
export function usePasswordAndCode() {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    password,
    code: code.trim(),
    error,
    setError,
    /** The validation message when a field is empty, else null. */
    missing: () => (!password || !code.trim() ? MESSAGES.allFieldsRequiredShort : null),
    reset: () => {
      setPassword('');
      setCode('');
      setError(null);
    },
    fields: (
      <>
        <CurrentPasswordField value={password} onChange={setPassword} autoFocus />
        <MfaCodeField value={code} onChange={setCode} />
      </>
    ),
  };
}
