import type { ImportList } from '@billfold/contract/imports';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const importsQueryKey = ['imports', 'list'] as const;

/** `GET /imports`: the latest imports, newest first. */
export function listImports(): Promise<Outcome<ImportList>> {
  return attempt<ImportList>('GET', '/imports');
}

export function useImports() {
  return useQuery({ queryKey: importsQueryKey, queryFn: async () => dataOf(await listImports()).imports });
}
