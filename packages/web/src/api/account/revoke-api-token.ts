import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { apiTokensQueryKey } from './get-api-tokens.ts';

/** `DELETE /tokens/{id}`: the token stops working at once. */
export function revokeApiToken(id: number): Promise<Outcome<{ message: string }>> {
  return attempt<{ message: string }>('DELETE', `/tokens/${id}`);
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiToken,
    onSuccess: (outcome) => {
      if (outcome.ok) void queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
    },
  });
}
