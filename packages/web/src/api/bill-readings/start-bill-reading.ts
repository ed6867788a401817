import type { BillReading } from '@billfold/contract/bill-readings';
import { uploadFile } from '../attachments/upload-attachment.ts';
import type { Outcome } from '../outcome.ts';

/**
 * `POST /bill-readings` with the bill's file: answered at once with a reading to ask for (`useBillReading`) while
 * the server reads the file (docs/api/bill-readings.md).
 */
export function startBillReading(file: File, onProgress: (share: number) => void): Promise<Outcome<BillReading>> {
  return uploadFile<BillReading>('/bill-readings', file, onProgress);
}
