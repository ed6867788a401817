/** Messages of the domain's 404s and 409s, shared by entities, invoices, payments and the recycle bin. */
export const MESSAGES = {
  entityNotFound: 'Entity not found.',
  invoiceNotFound: 'Invoice not found.',
  paymentNotFound: 'Payment not found.',
  itemNotFound: 'Item not found',
  entityArchived:
    'This entity is archived: it and its invoices and payments are read only. Restore it from Archives in the History menu first.',
  entityRecycled: 'This entity is in the recycle bin. Restore it first.',
  invoiceRecycled: 'This invoice is in the recycle bin. Restore it first.',
  paymentRecycled: 'This payment is in the recycle bin. Restore it first.',
  concurrentChange: 'The invoice was changed at the same time. Reload it and try again.',
  paymentMove: 'A payment stays with its invoice: entryId cannot be changed.',
} as const;

export function duplicateEntityName(name: string): string {
  return `An entity named "${name}" already exists.`;
}
