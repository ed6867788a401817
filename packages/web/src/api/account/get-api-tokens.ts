import type { ApiToken, TokenList } from '@billfold/contract/tokens';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const apiTokensQueryKey = ['user', 'tokens'] as const;

/** `GET /tokens`: the account's API tokens, newest first, with their last use (docs/decisions/0721-api-tokens.md). */
export async function getApiTokens(): Promise<Outcome<ApiToken[]>> {
  const outcome = await attempt<TokenList>('GET', '/tokens');
  return outcome.ok ? { ok: true, data: outcome.data.tokens } : outcome;
}

export function useApiTokens() {
  return useQuery({ queryKey: apiTokensQueryKey, queryFn: async () => dataOf(await getApiTokens()) });
}
