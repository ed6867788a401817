import type { LoginFailure } from '../../api/auth/login.ts';
import { errorCode, serverMessage } from '../../api/client.ts';
import { loginErrorMessage } from './login-error.ts';

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
    // The server's code says which (API Rev 3), never its wording.
    switch (errorCode(observation.text)) {
      case 'MFA_CHALLENGE_EXPIRED':
        return { message: MFA_ERRORS.expired, restart: true };
      case 'INVALID_MFA_CODE':
        return { message: MFA_ERRORS.invalidCode, restart: false };
      case 'SIGN_IN_THROTTLED':
      case 'TOO_MANY_REQUESTS': {
        const text = serverMessage(observation.text);
        if (text) return { message: text, restart: false };
        break;
      }
    }
  }
  return { message: loginErrorMessage(failure), restart: false };
}
