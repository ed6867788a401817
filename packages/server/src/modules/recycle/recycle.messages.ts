/** The recycle bin's own messages. */
export const RECYCLE_MESSAGES = {
  itemNotFound: 'Item not found',
} as const;
