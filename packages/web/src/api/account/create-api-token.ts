import type { CreatedToken, CreateTokenBody } from '@billfold/contract/tokens';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { apiTokensQueryKey } from './get-api-tokens.ts';

/** `POST /tokens`: a new API token; its secret is in this answer only. */
export function createApiToken(body: CreateTokenBody): Promise<Outcome<CreatedToken>> {
  return attempt<CreatedToken>('POST', '/tokens', { body });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    onSuccess: (outcome) => {
      if (outcome.ok) void queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
    },
  });
}
