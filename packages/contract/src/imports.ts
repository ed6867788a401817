/**
 * CSV import of invoices and their payments: the column mapping a user confirms in the preview, and what the
 * server answers. The server reads the file; the browser only shows the preview and sends the file again with
 * the mapping to commit (docs/decisions/0902-csv-import.md).
 */
import { z } from 'zod';

export const IMPORT_MAX_BYTES = 16 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 100_000;
/** Rows the preview lists (every row is checked; the first ones, and every row with a problem, are shown). */
export const PREVIEW_ROWS = 200;

export const IMPORT_FIELDS = [
  'date',
  'amount',
  'debit',
  'credit',
  'entity',
  'description',
  'flow',
  'category',
  'paid',
  'method',
  'dueDate',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  date: 'Date',
  amount: 'Amount (signed)',
  debit: 'Debit (expense)',
  credit: 'Credit (income)',
  entity: 'Entity',
  description: 'Description',
  flow: 'Flow',
  category: 'Category',
  paid: 'Paid amount',
  method: 'Payment method',
  dueDate: 'Due date',
};

export const DATE_FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const column = z.number().int().min(0).max(999).nullable();
/** Which column (0-based) feeds each field; `null` when none does. */
export const columnMapping = z.object({
  date: column,
  amount: column,
  debit: column,
  credit: column,
  entity: column,
  description: column,
  flow: column,
  category: column,
  paid: column,
  method: column,
  /** Optional: mappings saved before due dates have none. */
  dueDate: column.default(null),
  dateFormat: z.enum(DATE_FORMATS).nullable(),
});
export type ColumnMapping = z.infer<typeof columnMapping>;

/** The multipart text fields next to the file: the mapping (JSON) and, on commit, the duplicate lines to keep. */
export const importOptions = z.object({
  mapping: columnMapping.nullable(),
  keep: z.array(z.number().int().positive()).max(100_000),
});
export type ImportOptions = z.infer<typeof importOptions>;

export const importRow = z.object({
  /** Line of the file (the header is line 1). */
  line: z.number().int(),
  date: z.string().nullable(),
  entity: z.string(),
  description: z.string(),
  flow: z.enum(['income', 'expense', 'internal']).nullable(),
  amount: z.string().nullable(),
  paid: z.string().nullable(),
  method: z.string().nullable(),
  category: z.string(),
  dueDate: z.string().nullable(),
  errors: z.array(z.string()),
  /** A likely duplicate: same entity, date, amount and description as an earlier row or a stored invoice. */
  duplicate: z.enum(['file', 'stored']).nullable(),
});
export type ImportRow = z.infer<typeof importRow>;

export const importPreview = z.object({
  fileName: z.string(),
  headers: z.array(z.string()),
  /** The mapping used: the one sent, or the one detected. */
  mapping: columnMapping,
  /** The header set matched Billfold's own CSV export: nothing to map. */
  ownExport: z.boolean(),
  rowCount: z.number().int(),
  errorCount: z.number().int(),
  duplicateCount: z.number().int(),
  newEntities: z.array(z.string()),
  /** Problems with the mapping as a whole (e.g. no date column); the import cannot be committed while any remain. */
  problems: z.array(z.string()),
  rows: z.array(importRow),
});
export type ImportPreview = z.infer<typeof importPreview>;

export const importSummary = z.object({
  id: z.number().int(),
  fileName: z.string(),
  createdAt: z.string(),
  invoices: z.number().int(),
  payments: z.number().int(),
  entitiesCreated: z.number().int(),
  skippedDuplicates: z.number().int(),
  undoneAt: z.string().nullable(),
});
export type ImportSummary = z.infer<typeof importSummary>;
export const importList = z.object({ imports: z.array(importSummary) });
export type ImportList = z.infer<typeof importList>;

/** Lines of the commit's streamed answer (NDJSON): progress while writing, then the result. */
export type CommitEvent = { progress: number } | { result: ImportSummary } | { error: string };
