import type { User } from '@billfold/contract/users';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const userQueryKey = (username: string) => ['user', username.toLowerCase()] as const;

/** `GET /user?userName=`: the signed-in user's account. */
export function getUser(username: string): Promise<Outcome<User>> {
  return attempt<User>('GET', '/user', { query: { userName: username } });
}

/** A failed load is the query's error: the Account page says `Failed to load user data.` */
export function useUser(username: string | null | undefined) {
  return useQuery({
    queryKey: userQueryKey(username ?? ''),
    queryFn: async () => dataOf(await getUser(username ?? '')),
    enabled: Boolean(username),
  });
}
