import type { Entry, UpdateEntryBody } from '@billfold/contract/entries';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';
import { entryQueryKey } from './get-entry.ts';

/** `PUT /entries/edit` → the updated invoice; `recycle: true` deletes it together with its payments. */
export function updateEntry(body: UpdateEntryBody): Promise<Outcome<Entry>> {
  return attempt<Entry>('PUT', '/entries/edit', { body });
}

export function useUpdateEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEntry,
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      if (!outcome.data.recycle) queryClient.setQueryData(entryQueryKey(outcome.data.entryId), outcome.data);
      void invalidateDomain(queryClient);
    },
  });
}
