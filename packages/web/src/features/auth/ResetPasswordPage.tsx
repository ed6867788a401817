import { validateNewPassword } from '@billfold/contract/validation';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { type FormEvent, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useResetPassword } from '../../api/auth/reset-password.ts';
import { serverReason } from '../../api/outcome.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { PasswordField } from '../../components/PasswordField.tsx';
import { forgetLinkToken, linkToken } from '../../lib/link-token.ts';
import { loginState } from '../../lib/login-flags.ts';

const NO_TOKEN = 'This link is incomplete. Open it exactly as it appears in the email.';
const NOT_SET = 'The password could not be set. Please try again.';
const EMPTY = { newPassword: '', confirmPassword: '' };

/**
 * `/reset-password#<token>`, the link of a password email (docs/decisions/0723-password-reset.md): public, since it
 * may be opened in any browser. The new password ends every session of the account; the login page then says so.
 */
export default function ResetPasswordPage() {
  const [token] = useState(linkToken);
  useEffect(forgetLinkToken, []);
  const [form, setForm] = useState(EMPTY);
  const [problem, setProblem] = useState<string | null>(token ? null : NO_TOKEN);
  const [linkDead, setLinkDead] = useState(!token);
  const reset = useResetPassword();
  const navigate = useNavigate();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateNewPassword(form);
    setProblem(invalid);
    if (invalid) return;
    const outcome = await reset.mutateAsync({ token, newPassword: form.newPassword });
    if (outcome.ok) {
      navigate('/', { replace: true, state: loginState('passwordSet') });
      return;
    }
    setProblem(serverReason(outcome) ?? NOT_SET);
    if (outcome.code === 'RESET_LINK_INVALID') setLinkDead(true);
  };

  const field = (name: keyof typeof EMPTY, label: string) => (
    <PasswordField
      label={label}
      name={name}
      autoComplete="new-password"
      value={form[name]}
      onChange={(event) => {
        setForm((f) => ({ ...f, [name]: event.target.value }));
        if (!linkDead) setProblem(null);
      }}
      fullWidth
    />
  );

  return (
    <AuthCard title="Choose a New Password">
      {linkDead ? (
        <Stack spacing={2}>
          <Alert severity="error">{problem}</Alert>
          <Button component={RouterLink} to="/forgot-password" variant="contained">
            Ask for a New Link
          </Button>
        </Stack>
      ) : (
        <Stack component="form" spacing={2} onSubmit={submit} noValidate>
          {problem && <Alert severity="error">{problem}</Alert>}
          {field('newPassword', 'New Password')}
          {field('confirmPassword', 'Confirm New Password')}
          <Button type="submit" variant="contained" disabled={reset.isPending} fullWidth>
            Set Password
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
