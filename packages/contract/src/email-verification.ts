/**
 * Verified addresses: `GET /account/email`, `POST /account/email/verification` (send a link again) and
 * `POST /account/email/verify` (follow one) (docs/decisions/1131-verified-addresses.md).
 */
import { z } from 'zod';
import { timestamp } from './primitives.ts';

/** A link works this long after it is sent, once. */
export const VERIFICATION_LINK_HOURS = 24;

export const emailStatus = z.object({
  /** The account's address. */
  email: z.string(),
  /** Proven by a verification link; reminders and every notification go only to a verified address. */
  verified: z.boolean(),
  /** The server can send mail (`SMTP_URL` and `MAIL_FROM` are set); without it no address can be verified. */
  mailConfigured: z.boolean(),
  /** When the latest link for this address was sent; null if none was. */
  sentAt: timestamp.nullable(),
});
export type EmailStatus = z.infer<typeof emailStatus>;

/** The token from the link (the part after `#` in `/verify-email#<token>`). */
export const verifyEmailBody = z.object({ token: z.string().min(1).max(200) });
export type VerifyEmailBody = z.input<typeof verifyEmailBody>;
export const verifyEmailResult = z.object({ email: z.string(), verified: z.literal(true) });
export type VerifyEmailResult = z.infer<typeof verifyEmailResult>;

export const EMAIL_MESSAGES = {
  linkInvalid:
    'This verification link does not work: it has expired, was already used, or is for an address the account no longer has.',
  alreadyVerified: 'This address is already verified.',
  mailNotConfigured: 'This server cannot send email, so addresses cannot be verified.',
  resendThrottled: 'Too many verification emails.',
} as const;
