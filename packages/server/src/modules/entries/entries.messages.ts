/** The invoice module's own messages; those it shares with other modules are in `lib/messages.ts`. */
export const ENTRY_MESSAGES = {
  invoiceEntityRecycled: 'The entity of this invoice is in the recycle bin. Restore the entity first.',
  concurrentChange: 'The invoice was changed at the same time. Reload it and try again.',
} as const;
