import type { ImportSummary } from '@billfold/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /imports/:id/undo`: the import's invoices (and the entities it created) go to the recycle bin together. */
export function undoImport(id: number): Promise<Outcome<ImportSummary>> {
  return attempt<ImportSummary>('POST', `/imports/${id}/undo`);
}

export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoImport,
    // The answer comes back once the lists it changed have been read again.
    onSuccess: (outcome) => (outcome.ok ? invalidateDomain(queryClient) : undefined),
  });
}
