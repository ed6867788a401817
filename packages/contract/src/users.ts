/** The signed-in user's account: `GET/PUT /user`. */
import { z } from 'zod';
import { email, mfaCode, newPassword, password } from './auth.ts';
import { looseBoolean, timestamp } from './primitives.ts';

export const ROLES = ['ROLE_USER', 'ROLE_ADMIN'] as const;
export const userQuery = z.object({ userName: z.string().trim().min(1).max(254) });
export const user = z.object({
  username: z.string(),
  email: z.string(),
  roles: z.enum(ROLES),
  createdAt: timestamp,
  lastLogin: timestamp.nullable(),
  mfaEnabled: z.boolean(),
  /**
   * The account has a password of its own; false for one made through the identity provider until a password
   * link sets one (docs/decisions/0723-password-reset.md). Changes that ask for the current password need it.
   */
  hasPassword: z.boolean(),
});
export const updateUserBody = z.object({
  password,
  newEmail: email.optional(),
  newPassword: newPassword.optional(),
  mfaEnabled: looseBoolean.optional(),
  /** A TOTP or recovery code: needed with `mfaEnabled: false` while MFA is on. */
  code: mfaCode.optional(),
  recycle: looseBoolean.optional(),
});
export type User = z.infer<typeof user>;
export type UpdateUserBody = z.input<typeof updateUserBody>;
/** An account change as the server reads it. */
export type UserChange = z.output<typeof updateUserBody>;
