import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `DELETE /attachments/{id}`: the file is removed from its item for good. */
export function deleteAttachment(id: number): Promise<Outcome<undefined>> {
  return attempt<undefined>('DELETE', `/attachments/${id}`);
}

export function useDeleteAttachment() {
  return useDomainWrite(deleteAttachment);
}
