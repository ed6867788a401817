import type { Entry, UpdateEntryBody } from '@billfold/contract/entries';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';
import { invoiceQueryKey } from './get-invoice.ts';

/** `PUT /entries/edit` → the updated invoice; `recycle: true` deletes it together with its payments. */
export function updateInvoice(body: UpdateEntryBody): Promise<Outcome<Entry>> {
  return attempt<Entry>('PUT', '/entries/edit', { body });
}

export function useUpdateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvoice,
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      if (!outcome.data.recycle) queryClient.setQueryData(invoiceQueryKey(outcome.data.entryId), outcome.data);
      void invalidateDomain(queryClient);
    },
  });
}
