import type { ImportSummary } from '@billfold/contract/imports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { invalidateDomain } from '../invalidate.ts';

export const importsQueryKey = ['imports', 'list'] as const;

/** `GET /imports`: the latest imports, newest first. */
export function useImports() {
  return useQuery({
    queryKey: importsQueryKey,
    queryFn: async () => (await apiRequest<{ imports: ImportSummary[] }>('GET', '/imports')).imports,
  });
}

/** `POST /imports/:id/undo`: the import's invoices (and the entities it created) go to the recycle bin together. */
export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<ImportSummary>('POST', `/imports/${id}/undo`),
    onSuccess: () => invalidateDomain(queryClient),
  });
}
