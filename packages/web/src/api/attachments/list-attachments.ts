import type { AttachmentList } from '@billfold/contract/attachments';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** The item a file is attached to: an invoice or a payment. */
export type AttachmentOwner = { kind: 'entries'; id: number } | { kind: 'payments'; id: number };

export const attachmentsPath = (owner: AttachmentOwner) => `/${owner.kind}/${owner.id}/attachments`;
export const attachmentsQueryKey = (owner: AttachmentOwner) => ['attachments', owner.kind, owner.id] as const;

/** `GET /entries/{id}/attachments` or `/payments/{id}/attachments`: the item's files, oldest first. */
export function listAttachments(owner: AttachmentOwner): Promise<Outcome<AttachmentList>> {
  return attempt<AttachmentList>('GET', attachmentsPath(owner));
}

export function useAttachments(owner: AttachmentOwner) {
  return useQuery({
    queryKey: attachmentsQueryKey(owner),
    queryFn: async () => dataOf(await listAttachments(owner)),
  });
}
