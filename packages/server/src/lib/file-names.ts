import { posix } from 'node:path';
import { fileNameText } from '@billfold/contract/primitives';
import { badRequest } from './http-error.ts';

/**
 * The name to store for a file a client uploaded (an attachment, a CSV import): the last segment of the name it
 * sent (either slash), under the contract's file-name rule (docs/decisions/0102-text-characters.md). A name the
 * rule refuses is a 400 `VALIDATION_FAILED` naming the character, never stored or changed in silence.
 */
export function uploadedFileName(sent: string): string {
  const name = fileNameText.safeParse(posix.basename(sent.replaceAll('\\', '/')));
  if (!name.success) throw badRequest(`fileName ${name.error.issues[0]?.message}`, 'VALIDATION_FAILED');
  return name.data;
}
