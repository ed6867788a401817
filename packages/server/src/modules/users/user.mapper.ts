import { toApiTimestamp } from '@billfold/contract/dates';
import type { User } from '@billfold/contract/users';
import type { UserRow } from '../../db/schema.ts';

/** An account row as the API shows it. */
export function toUser(row: UserRow): User {
  return {
    username: row.username,
    email: row.email,
    roles: row.role === 'ROLE_ADMIN' ? 'ROLE_ADMIN' : 'ROLE_USER',
    createdAt: toApiTimestamp(new Date(row.created_at)),
    lastLogin: row.last_login === null ? null : toApiTimestamp(new Date(row.last_login)),
    mfaEnabled: row.mfa_enabled === 1,
    hasPassword: row.has_password === 1,
  };
}
