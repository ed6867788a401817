import type { User } from '@billfold/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/**
 * A change of the account's state (MFA on or off, new recovery codes) as a mutation taking the call's arguments
 * as one list: on success the user (its `mfaEnabled`) and everything under it are read again.
 */
export function useUserChange<A extends unknown[], T>(call: (...args: A) => Promise<Outcome<T>>, username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: A) => call(...args),
    onSuccess: (outcome) => {
      if (outcome.ok) void queryClient.invalidateQueries({ queryKey: userQueryKey(username) });
    },
  });
}
