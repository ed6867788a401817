import type { Attachment, AttachmentType } from '@billfold/contract/attachments';
import { toApiTimestamp } from '@billfold/contract/dates';
import type { AttachmentRow } from '../../db/schema.ts';
import { THUMBNAIL_TYPES } from './thumbnails.ts';

export function toAttachment(row: AttachmentRow): Attachment {
  const contentType = row.content_type as AttachmentType;
  return {
    id: Number(row.id),
    entryId: row.entry_id === null ? null : Number(row.entry_id),
    paymentId: row.payment_id === null ? null : Number(row.payment_id),
    fileName: row.file_name,
    contentType,
    size: Number(row.size),
    created: toApiTimestamp(new Date(Number(row.created_at))),
    thumbnail: THUMBNAIL_TYPES.has(contentType),
  };
}
