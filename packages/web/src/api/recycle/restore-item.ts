import type { MessageResponse } from '@billfold/contract/primitives';
import type { RestoreTarget } from '@billfold/contract/recycle';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /recycle/restore` → `{message}`; 404 when the item is no longer in the bin. */
export function restoreItem(target: RestoreTarget): Promise<Outcome<MessageResponse>> {
  return attempt<MessageResponse>('POST', '/recycle/restore', { body: target });
}

export function useRestoreItem() {
  return useDomainWrite(restoreItem);
}
