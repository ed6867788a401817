import type { BillReading } from '@billfold/contract/bill-readings';
import DocumentScanner from '@mui/icons-material/DocumentScanner';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useBillReading } from '../../api/bill-readings/get-bill-reading.ts';
import { startBillReading } from '../../api/bill-readings/start-bill-reading.ts';
import { failureMessage } from '../../api/outcome.ts';
import { FileDropZone } from '../../components/attachments/FileDropZone.tsx';

/** What the file picker offers for a bill to read; the server still decides by the bytes. */
const READABLE_ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

const FAILED = { failed: 'The file could not be read.', error: 'The file could not be sent.' } as const;

/**
 * "Invoice from a file" on the New Invoice page (docs/product.md): a PDF or a photo of the bill is dropped, picked or
 * taken, sent to be read, and its reading handed to the page (`onRead`) with the file, which the page attaches to
 * the invoice it creates.
 */
export function BillFromFile({ onRead }: { onRead: (reading: BillReading, file: File) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [share, setShare] = useState<number | null>(null);
  const [readingId, setReadingId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reading = useBillReading(readingId);
  const handed = useRef<string | null>(null);

  const state = reading.data?.state;
  useEffect(() => {
    const data = reading.data;
    if (!data || data.state === 'reading' || !file || handed.current === data.id) return;
    handed.current = data.id;
    onRead(data, file);
  }, [reading.data, file, onRead]);

  const read = async (chosen: File) => {
    setFile(chosen);
    setProblem(null);
    setReadingId(null);
    setShare(0);
    const outcome = await startBillReading(chosen, setShare);
    setShare(null);
    if (!outcome.ok) {
      setProblem(failureMessage(outcome, FAILED));
      return;
    }
    setReadingId(outcome.data.id);
  };

  const busy = share !== null || state === 'reading' || (readingId !== null && reading.isPending);
  const progress = share !== null ? share * 0.2 : 0.2 + (reading.data?.progress ?? 0) * 0.8;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="bill-from-file-title" sx={{ p: 2, mb: 3 }}>
      <Typography id="bill-from-file-title" component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        Invoice from a file
      </Typography>
      <FileDropZone
        accept={READABLE_ACCEPT}
        disabled={busy}
        onFiles={([chosen]) => {
          if (chosen) void read(chosen);
        }}
        testId="bill-drop-zone"
        inputTestId="bill-file-input"
        pickLabel="Choose the bill's file"
        photoLabel="Take a photo of the bill"
      >
        Drop the bill's PDF or a photo of it here: the amount, dates and entity are read from it, and the file is
        attached to the invoice.
      </FileDropZone>
      {busy && file && (
        <Box sx={{ mt: 2 }} role="status" data-testid="bill-reading-progress">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
            <DocumentScanner fontSize="small" color="action" />
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {share !== null ? `Sending ${file.name}…` : `Reading ${file.name}…`} {Math.round(progress * 100)}%
            </Typography>
          </Stack>
          <LinearProgress variant="determinate" value={progress * 100} aria-label={`Reading ${file.name}`} />
        </Box>
      )}
      {problem && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {problem}
        </Alert>
      )}
      {reading.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          The reading was lost. Choose the file again.
        </Alert>
      )}
      {state === 'failed' && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {reading.data?.message}
        </Alert>
      )}
      {state === 'done' && reading.data?.result && file && (
        <Alert severity="success" sx={{ mt: 2 }} data-testid="bill-reading-summary">
          {summary(reading.data.result, file.name)}
        </Alert>
      )}
    </Paper>
  );
}

/** What the reading found, in a sentence. */
function summary(result: NonNullable<BillReading['result']>, name: string): string {
  const found = [
    result.amount !== null && 'the amount',
    result.date !== null && 'the date',
    result.dueDate !== null && 'the due date',
    result.billId !== null && 'the entity',
  ].filter((x): x is string => Boolean(x));
  const how = result.source === 'ocr' ? 'by OCR' : 'from its text';
  if (found.length === 0)
    return `Nothing was found in ${name} (${how}). Fill in the invoice; the file will be attached.`;
  const list = found.length === 1 ? found[0] : `${found.slice(0, -1).join(', ')} and ${found.at(-1)}`;
  const entity =
    result.billId === null && result.heading ? ` No entity matched "${result.heading}": pick or add one.` : '';
  return `Read ${list} from ${name} (${how}). Check the fields marked "Read from the file".${entity}`;
}
