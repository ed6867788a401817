/** The bill-reading module's messages. */
export const BILL_READING_MESSAGES = {
  empty: 'The file is empty.',
  wrongType: 'Read a bill from a PDF, PNG or JPEG file (this file is none of them).',
  ledgerBusy: (n: number) => `This ledger already has ${n} bills being read, the most at once. Try again in a moment.`,
  serverBusy: 'The server is reading many bills at the moment. Try again in a moment.',
  notFound: 'Reading not found: it may have finished more than 15 minutes ago.',
  stopped:
    'The server reading this file stopped before it finished. Read it again, or fill in the invoice yourself; the file will still be attached.',
  unreadable: 'Nothing could be read from this file. Fill in the invoice yourself; the file will still be attached.',
} as const;
