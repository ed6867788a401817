/** Messages of the domain's 404s and 409s, shared by entities, invoices, payments and the recycle bin. */
export const MESSAGES = {
  entityNotFound: 'Entity not found.',
  invoiceNotFound: 'Invoice not found.',
  paymentNotFound: 'Payment not found.',
  itemNotFound: 'Item not found',
  entityArchived:
    'This entity is archived: it and its invoices and payments are read only. Restore it from Archives in the History menu first.',
  archivedRestoreOnly:
    'This entity is archived: a deleted invoice or payment of it can only be restored as it was. Restore the entity from Archives in the History menu to edit it.',
  entityRecycled: 'This entity is in the recycle bin. Restore it first.',
  invoiceEntityRecycled: 'The entity of this invoice is in the recycle bin. Restore the entity first.',
  invoiceRecycled: 'This invoice is in the recycle bin. Restore it first.',
  paymentInvoiceRecycled: 'The invoice of this payment is in the recycle bin. Restore the invoice first.',
  paymentRecycled: 'This payment is in the recycle bin. Restore it first.',
  concurrentChange: 'The invoice was changed at the same time. Reload it and try again.',
  paymentMove: 'A payment stays with its invoice: entryId cannot be changed.',
} as const;

/** Where the entity holding a name is, so the message can say where to find it. */
export type NameHolder = 'active' | 'archived';

/** The entity named `name` already exists; says where it is when it is archived, and what a restore can do. */
export function duplicateEntityName(name: string, holder: NameHolder, restoring = false): string {
  const where =
    holder === 'archived'
      ? `An archived entity named "${name}" already exists: find it in Archives in the History menu.`
      : `An entity named "${name}" already exists.`;
  return restoring ? `${where} Restore this one under another name.` : where;
}
