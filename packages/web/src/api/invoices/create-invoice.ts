import type { CreateEntryBody, Entry } from '@billfold/contract/entries';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /entries/new` → the created invoice (it carries `entryId`). */
export function createInvoice(body: CreateEntryBody): Promise<Outcome<Entry>> {
  return attempt<Entry>('POST', '/entries/new', { body });
}

export function useCreateInvoice() {
  return useDomainWrite(createInvoice);
}
