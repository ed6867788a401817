import { MESSAGES } from '../../lib/messages.ts';

/** The attachment module's messages. */
export const ATTACHMENT_MESSAGES = {
  entryNotFound: MESSAGES.invoiceNotFound,
  paymentNotFound: MESSAGES.paymentNotFound,
  attachmentNotFound: 'Attachment not found.',
  ownerRecycled: 'This item is in the recycle bin. Restore it first.',
  notMultipart: 'Upload the file as multipart/form-data with one "file" field.',
  malformed: 'The upload is not a valid multipart/form-data body.',
  empty: 'The file is empty.',
  wrongType: 'Attach a PDF, PNG, JPEG, WebP or HEIC file (this file is none of them).',
  quota: (limit: string) => `This ledger's attachments would pass its storage limit of ${limit}. Delete some first.`,
  rangeNotSatisfiable: 'The requested byte range is outside the file.',
} as const;
