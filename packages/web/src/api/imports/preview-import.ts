import type { ColumnMapping, ImportPreview } from '@billfold/contract/imports';
import { attempt, type Outcome } from '../outcome.ts';

/** The multipart body of both import calls: the file, and the mapping and kept duplicate lines as JSON. */
export function importForm(file: File, mapping: ColumnMapping | null, keep: readonly number[] = []): FormData {
  const form = new FormData();
  form.append('mapping', JSON.stringify(mapping));
  form.append('keep', JSON.stringify(keep));
  form.append('file', file, file.name);
  return form;
}

/** `POST /imports/preview`: what every row of the file would become; writes nothing. */
export function previewImport(file: File, mapping: ColumnMapping | null): Promise<Outcome<ImportPreview>> {
  return attempt<ImportPreview>('POST', '/imports/preview', { body: importForm(file, mapping) });
}
