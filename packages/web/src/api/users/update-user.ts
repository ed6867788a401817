import type { UpdateUserBody, User } from '@billfold/contract/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { send } from '../client.ts';
import { userQueryKey } from './get-user.ts';

/** `PUT /user`: one change with the current password; the updated user, or null when it failed. */
export function updateUser(body: UpdateUserBody): Promise<User | null> {
  return send<User>('PUT', '/user', body);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      if (user) queryClient.setQueryData(userQueryKey(user.username), user);
    },
  });
}
