/** The import module's own messages. */
export const IMPORT_MESSAGES = {
  notFound: 'Import not found.',
  alreadyUndone: 'This import was already undone.',
  nothingToImport: 'Nothing to import: every row is a duplicate that was not kept.',
} as const;
