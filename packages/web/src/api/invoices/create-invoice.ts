import type { CreateEntryBody, Entry } from '@billfold/contract/entries';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /entries/new` → the created invoice (it carries `entryId`). */
export function createInvoice(body: CreateEntryBody): Promise<Outcome<Entry>> {
  return attempt<Entry>('POST', '/entries/new', { body });
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateDomain(queryClient);
    },
  });
}
