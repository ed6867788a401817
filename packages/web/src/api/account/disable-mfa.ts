import type { User } from '@billfold/contract/users';
import { attempt, type Outcome } from '../outcome.ts';
import { useUserChange } from './get-user.ts';

/** `PUT /user {password, mfaEnabled: false, code}`: MFA off, with the password and a code. */
export function disableMfa(password: string, code: string): Promise<Outcome<User>> {
  return attempt<User>('PUT', '/user', { body: { password, mfaEnabled: false, code } });
}

export function useDisableMfa(username: string) {
  return useUserChange(disableMfa, username);
}
