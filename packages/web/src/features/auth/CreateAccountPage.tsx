import { MESSAGES, USERNAME_PATTERN, validateNewAccount } from '@billfold/contract/validation';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { createAccount } from '../../api/auth/create-account.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { PasswordField } from '../../components/PasswordField.tsx';
import { loginState, readReturnPath } from '../../lib/login-flags.ts';

const EMPTY = { username: '', email: '', password: '', confirmPassword: '' };

/** The checks of docs/product.md, Sign-in and account, in their order, then the username rule the server would apply anyway. */
function validate(form: typeof EMPTY): string | null {
  const input = { ...form, username: form.username.trim(), email: form.email.trim() };
  return validateNewAccount(input) ?? (USERNAME_PATTERN.test(input.username) ? null : MESSAGES.invalidUsername);
}

export default function CreateAccountPage() {
  const navigate = useNavigate();
  // A visitor sent to sign in from a page (an invitation link) goes back there after signing in with the new account.
  const location = useLocation();
  const [returnTo] = useState(() => readReturnPath(location.state));
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const field = (name: keyof typeof EMPTY) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: event.target.value })),
    fullWidth: true,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = validate(form);
    setError(problem);
    if (problem) return;
    setBusy(true);
    const result = await createAccount({
      username: form.username.trim(),
      email: form.email.trim(),
      password: form.password,
    });
    setBusy(false);
    if (result.ok) {
      navigate('/', { replace: true, state: loginState('accountCreated', returnTo) });
      return;
    }
    setError(result.message ?? MESSAGES.accountCreationFailed);
  };

  return (
    <AuthCard title="Create Account">
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        {error && (
          <Alert severity="error" onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        <TextField label="Username" autoComplete="username" autoFocus {...field('username')} />
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <PasswordField label="Password" autoComplete="new-password" {...field('password')} />
        <PasswordField label="Confirm Password" autoComplete="new-password" {...field('confirmPassword')} />
        <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
          Create Account
        </Button>
        <Button onClick={() => navigate('/', { state: loginState(null, returnTo) })} fullWidth>
          Back to Login
        </Button>
      </Stack>
    </AuthCard>
  );
}
