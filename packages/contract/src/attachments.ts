/** Files attached to invoices and payments: `/entries/{id}/attachments`, `/payments/{id}/attachments`, `/attachments/{id}`. */
import { z } from 'zod';
import { timestamp } from './primitives.ts';

/** The file types an attachment may have, told by the file's first bytes (never by its name). */
export const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/heic'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** What the file picker offers; the server still decides by the bytes. */
export const ATTACHMENT_ACCEPT =
  '.pdf,.png,.jpg,.jpeg,.webp,.heic,application/pdf,image/png,image/jpeg,image/webp,image/heic';

export const attachment = z.object({
  id: z.number().int(),
  /** The invoice it is attached to, or null for a payment's. */
  entryId: z.number().int().nullable(),
  /** The payment it is attached to, or null for an invoice's. */
  paymentId: z.number().int().nullable(),
  fileName: z.string(),
  contentType: z.enum(ATTACHMENT_TYPES),
  /** Bytes. */
  size: z.number().int(),
  created: timestamp,
  /** Whether `GET /attachments/{id}/thumbnail` draws the file itself (images) rather than a generic picture. */
  thumbnail: z.boolean(),
});
export type Attachment = z.infer<typeof attachment>;

export const attachmentList = z.object({
  attachments: z.array(attachment),
  /** Bytes of all attachments of the ledger, and the most it may hold. */
  usedBytes: z.number().int(),
  quotaBytes: z.number().int(),
});
export type AttachmentList = z.infer<typeof attachmentList>;
