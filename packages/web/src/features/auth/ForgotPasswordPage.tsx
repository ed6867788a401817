import { isValidEmail, MESSAGES } from '@billfold/contract/validation';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useRequestPasswordReset } from '../../api/auth/request-password-reset.ts';
import { serverReason } from '../../api/outcome.ts';
import { AuthCard } from '../../components/AuthCard.tsx';

const NOT_SENT = 'The link could not be asked for. Please try again.';

/**
 * `/forgot-password` (docs/decisions/0723-password-reset.md): asks for a link to choose a new password. The answer
 * is the same for any address, so the page never says whether an account has it.
 */
export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const request = useRequestPasswordReset();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isValidEmail(email.trim())) {
      setProblem(MESSAGES.invalidEmail);
      return;
    }
    setProblem(null);
    const outcome = await request.mutateAsync(email.trim());
    if (outcome.ok) setSent(outcome.data.message);
    else setProblem(serverReason(outcome) ?? NOT_SENT);
  };

  return (
    <AuthCard title="Forgot Password">
      {sent ? (
        <Stack spacing={2}>
          <Alert severity="success">{sent}</Alert>
          <Typography color="text.secondary">
            No email? Check the spam folder, and that the address is the one confirmed on your Account page.
          </Typography>
          <Button component={RouterLink} to="/" variant="contained">
            Back to Login
          </Button>
        </Stack>
      ) : (
        <Stack component="form" spacing={2} onSubmit={submit} noValidate>
          <Typography color="text.secondary">
            Enter your account’s email address. If it is confirmed, we send it a link to choose a new password.
          </Typography>
          {problem && <Alert severity="error">{problem}</Alert>}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setProblem(null);
            }}
            autoFocus
            fullWidth
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Button type="submit" variant="contained" disabled={email.trim() === '' || request.isPending} fullWidth>
              Send Link
            </Button>
            <Button component={RouterLink} to="/" variant="outlined" fullWidth>
              Back to Login
            </Button>
          </Stack>
        </Stack>
      )}
    </AuthCard>
  );
}
