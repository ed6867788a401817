/**
 * Choosing a new password by a link sent to the account's confirmed address: `POST /auth/password-reset` (ask for
 * a link) and `POST /auth/password-reset/confirm` (follow one) (docs/decisions/0723-password-reset.md).
 */
import { z } from 'zod';
import { newPassword } from './auth.ts';
import { EMAIL_MAX_LENGTH } from './validation.ts';

/** A link works this long after it is sent, once; a newer link ends the older ones. */
export const RESET_LINK_MINUTES = 60;

/** The address as typed: any text of bounded size, so the answer never says whether it could be an account's. */
export const passwordResetRequestBody = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`),
});
export type PasswordResetRequestBody = z.input<typeof passwordResetRequestBody>;

/** The same answer for every address, whether an account has it or not. */
export const passwordResetRequested = z.object({ message: z.string() });
export type PasswordResetRequested = z.infer<typeof passwordResetRequested>;

/** The token from the link (the part after `#` in `/reset-password#<token>`) and the new password. */
export const passwordResetBody = z.object({ token: z.string().min(1).max(200), newPassword });
export type PasswordResetBody = z.input<typeof passwordResetBody>;

/** Whose password was set: the sign-in page fills in the name. */
export const passwordResetResult = z.object({ username: z.string() });
export type PasswordResetResult = z.infer<typeof passwordResetResult>;

export const RESET_MESSAGES = {
  requested: `If an account has this address and the address is confirmed, a link to choose a new password is on its way. It works once, within ${RESET_LINK_MINUTES} minutes.`,
  linkInvalid:
    'This link to choose a new password does not work: it has expired, was already used, or a newer one was sent. Ask for a new link.',
  unavailable:
    'This server cannot send password links: its administrator has not set up email (SMTP_URL, MAIL_FROM and PUBLIC_URL).',
  throttled: 'Too many password links asked for.',
  done: 'Your new password is set, and every other session of the account has ended. Sign in with it.',
} as const;
