/** Sign-up, sign-in (with its two-factor step) and token refresh: `/user` (POST), `/auth/*`. */
import { z } from 'zod';
import { checkedBy } from './primitives.ts';
import { nameProblem } from './text-rules.ts';
import {
  EMAIL_MAX_LENGTH,
  isStrongPassword,
  isValidEmail,
  MESSAGES,
  PASSWORD_MAX_LENGTH,
  USERNAME_PATTERN,
} from './validation.ts';

export const username = z.string().trim().regex(USERNAME_PATTERN, MESSAGES.invalidUsername);
export const email = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, MESSAGES.invalidEmail)
  .superRefine(checkedBy(nameProblem))
  .refine(isValidEmail, MESSAGES.invalidEmail);
/** Too long gets its own message first: the strength rule's text would not say what is wrong. */
export const newPassword = z
  .string()
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong)
  .refine(isStrongPassword, MESSAGES.weakPassword);
/** A password being checked, not set: any non-empty text of bounded size. */
export const password = z
  .string()
  .min(1, 'is required')
  .max(PASSWORD_MAX_LENGTH * 4, `must be at most ${PASSWORD_MAX_LENGTH * 4} characters`);

export const createUserBody = z.object({ username, email, password: newPassword });
export const createUserResponse = z.object({ username: z.string(), email: z.string() });
export const loginBody = z.object({ username: z.string().trim().min(1, 'is required').max(254), password });
export const authResponse = z.object({ accessToken: z.string(), refreshToken: z.string(), username: z.string() });
export const refreshToken = z.string().min(1).max(512);
export const refreshQuery = z.object({ refreshToken: refreshToken.optional() });
export const refreshBody = z.object({ refreshToken: refreshToken.optional() }).nullish();

export type CreateUserBody = z.infer<typeof createUserBody>;
export type LoginBody = z.infer<typeof loginBody>;
export type AuthResponse = z.infer<typeof authResponse>;

/** A 6-digit TOTP code (spaces allowed) or a recovery code (`xxxxx-xxxxx`, any case). */
export const mfaCode = z.string().trim().min(1, 'is required').max(64);

/** `POST /auth/login`'s answer for an account with MFA on: the code step comes next. */
export const mfaChallenge = z.object({
  mfaRequired: z.literal(true),
  challenge: z.string(),
  /** Seconds the challenge stays valid. */
  expiresIn: z.number().int(),
});
export const loginResponse = z.union([authResponse, mfaChallenge]);
export const mfaLoginBody = z.object({ challenge: z.string().min(1).max(512), code: mfaCode });

export type MfaChallenge = z.infer<typeof mfaChallenge>;
export type LoginResponse = z.infer<typeof loginResponse>;
export type MfaLoginBody = z.infer<typeof mfaLoginBody>;
