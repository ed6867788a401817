import type { LoginFailure } from '../../api/auth/login.ts';
import { loginErrorMessage, responseErrorText } from './login-error.ts';

export const MFA_ERRORS = {
  invalidCode: 'Invalid authentication code.',
  expired: 'Sign-in expired. Please log in again.',
  codeRequired: 'Enter the code from your authenticator app.',
} as const;

/**
 * The message for a failed code step, and whether the sign-in must start again from the password (its
 * challenge expired or was used). Throttling says when to try again, in the server's words; a connection
 * failure is named as on the password step.
 */
export function mfaErrorMessage(failure: LoginFailure): { message: string; restart: boolean } {
  const { observation } = failure;
  if (observation.stage === 'response' && !observation.ok) {
    const text = responseErrorText(observation.text);
    if (observation.status === 401) {
      return /expired|invalid, log in/i.test(text)
        ? { message: MFA_ERRORS.expired, restart: true }
        : { message: MFA_ERRORS.invalidCode, restart: false };
    }
    if (observation.status === 429 && text) return { message: text, restart: false };
  }
  return { message: loginErrorMessage(failure), restart: false };
}
