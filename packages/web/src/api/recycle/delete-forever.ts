import type { MessageResponse } from '@billfold/contract/primitives';
import type { RestoreTarget } from '@billfold/contract/recycle';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/**
 * `DELETE /recycle/{entityType}/{entityId}` → `{message}`: the item and what was deleted with it are gone for good;
 * 404 when it is no longer in the bin.
 */
export function deleteForever(target: RestoreTarget): Promise<Outcome<MessageResponse>> {
  return attempt<MessageResponse>('DELETE', `/recycle/${target.entityType}/${target.entityId}`);
}

export function useDeleteForever() {
  return useDomainWrite(deleteForever);
}
