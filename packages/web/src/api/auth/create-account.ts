import type { CreateUserBody } from '@billfold/contract/auth';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /auth/create` without a token; a failure carries the server's reason (e.g. `Username already exists`). */
export function createAccount(body: CreateUserBody): Promise<Outcome<unknown>> {
  return attempt<unknown>('POST', '/auth/create', { body, auth: false });
}
