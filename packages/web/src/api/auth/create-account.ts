import type { CreateUserBody } from '@billfold/contract/auth';
import { ApiError, apiRequest } from '../client.ts';

/** `serverMessage` is the server's reason (e.g. `Username already exists`) when it gave one. */
export type CreateAccountResult = { ok: true } | { ok: false; serverMessage: string | null };

/** `POST /auth/create` without a token. */
export async function createAccount(body: CreateUserBody): Promise<CreateAccountResult> {
  try {
    await apiRequest('POST', '/auth/create', { body, auth: false });
    return { ok: true };
  } catch (error) {
    console.error('[api] POST /auth/create failed', error);
    return { ok: false, serverMessage: error instanceof ApiError ? error.serverMessage : null };
  }
}
