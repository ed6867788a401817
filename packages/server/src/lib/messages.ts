/**
 * Messages that several modules answer with (docs/product.md, Messages): a module's own messages live in that
 * module's `<name>.messages.ts`, so no module imports another just to get a string.
 */
export const MESSAGES = {
  entityNotFound: 'Entity not found.',
  invoiceNotFound: 'Invoice not found.',
  paymentNotFound: 'Payment not found.',
  entityArchived:
    'This entity is archived: it and its invoices and payments are read only. Restore it from Archives in the History menu first.',
  archivedRestoreOnly:
    'This entity is archived: a deleted invoice or payment of it can only be restored as it was. Restore the entity from Archives in the History menu to edit it.',
  entityRecycled: 'This entity is in the recycle bin. Restore it first.',
  invoiceRecycled: 'This invoice is in the recycle bin. Restore it first.',
  /** A TOTP or recovery code that does not check out (two-factor sign-in, and turning MFA off). */
  invalidCode: 'Invalid authentication code',
} as const;
