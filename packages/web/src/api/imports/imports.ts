import type { ImportList, ImportSummary } from '@billfold/contract/imports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const importsQueryKey = ['imports', 'list'] as const;

/** `GET /imports`: the latest imports, newest first. */
export function listImports(): Promise<Outcome<ImportList>> {
  return attempt<ImportList>('GET', '/imports');
}

export function useImports() {
  return useQuery({ queryKey: importsQueryKey, queryFn: async () => dataOf(await listImports()).imports });
}

/** `POST /imports/:id/undo`: the import's invoices (and the entities it created) go to the recycle bin together. */
export function undoImport(id: number): Promise<Outcome<ImportSummary>> {
  return attempt<ImportSummary>('POST', `/imports/${id}/undo`);
}

export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoImport,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateDomain(queryClient);
    },
  });
}
