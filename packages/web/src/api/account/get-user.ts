import type { User } from '@billfold/contract/users';
import { useQuery } from '@tanstack/react-query';
import { getOne } from '../client.ts';

export const userQueryKey = (username: string) => ['user', username.toLowerCase()] as const;

/** `GET /user?userName=`: the signed-in user's account, or null when it could not be loaded. */
export function getUser(username: string): Promise<User | null> {
  return getOne<User>('/user', { userName: username });
}

export function useUser(username: string | null | undefined) {
  return useQuery({
    queryKey: userQueryKey(username ?? ''),
    queryFn: () => getUser(username ?? ''),
    enabled: Boolean(username),
  });
}
