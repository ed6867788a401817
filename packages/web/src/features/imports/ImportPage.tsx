import type { ColumnMapping, ImportPreview, ImportSummary } from '@billfold/contract/imports';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useRef, useState } from 'react';
import { commitImport } from '../../api/imports/commit-import.ts';
import { useImports } from '../../api/imports/list-imports.ts';
import { previewImport } from '../../api/imports/preview-import.ts';
import { useUndoImport } from '../../api/imports/undo-import.ts';
import { invalidateDomain } from '../../api/invalidate.ts';
import type { Failure } from '../../api/outcome.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ReadOnlyBanner, useLedgerAccess } from '../../components/ledger-access.tsx';
import { countOf } from '../../lib/format.ts';
import { ImportHistory } from './ImportHistory.tsx';
import { ImportRowsTable } from './ImportRowsTable.tsx';
import { MappingEditor } from './MappingEditor.tsx';
import { recallMapping, rememberMapping } from './mapping-memory.ts';

/** The server's reason for a refusal, or `fallback` when it gave none (or no answer came). */
const messageOf = (failure: Failure, fallback: string) => failure.message || fallback;

export function importedMessage(r: ImportSummary): string {
  const parts = [countOf(r.invoices, 'invoice', 'invoices')];
  if (r.payments > 0) parts.push(countOf(r.payments, 'payment', 'payments'));
  if (r.entitiesCreated > 0) parts.push(countOf(r.entitiesCreated, 'new entity', 'new entities'));
  const skipped = r.skippedDuplicates > 0 ? ` ${countOf(r.skippedDuplicates, 'duplicate', 'duplicates')} skipped.` : '';
  return `Imported ${parts.join(', ')}.${skipped}`;
}

/** What Undo takes away, for its confirmation: "The 3 invoices, 1 payment and 2 new entities of bank.csv". */
export function undoQuestion(r: ImportSummary): string {
  const parts = [countOf(r.invoices, 'invoice', 'invoices')];
  if (r.payments > 0) parts.push(countOf(r.payments, 'payment', 'payments'));
  if (r.entitiesCreated > 0) parts.push(countOf(r.entitiesCreated, 'new entity', 'new entities'));
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `The ${list} of ${r.fileName} go to the recycle bin, where they can be restored for 14 days. Invoices of this import you already deleted stay as they are.`;
}

/**
 * `/import`: choose a CSV file, check the preview (mapping, every row's errors, likely duplicates), import it all
 * or nothing with a progress bar, and undo an import as a unit (docs/decisions/0902-csv-import.md).
 */
export default function ImportPage() {
  const { readOnlyReason } = useLedgerAccess();
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const undo = useUndoImport();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [keep, setKeep] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState<'reading' | 'importing' | null>(null);
  /** The commit's share done, from the server's progress lines; null until the file has passed its checks. */
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<ImportSummary | null>(null);

  const read = async (chosen: File, mapping: ColumnMapping | null) => {
    setBusy('reading');
    setError(null);
    let next = await previewImport(chosen, mapping);
    const remembered = next.ok && mapping === null && !next.data.ownExport ? recallMapping(next.data.headers) : null;
    if (remembered) next = await previewImport(chosen, remembered);
    if (next.ok) {
      setPreview(next.data);
      setKeep(new Set());
    } else {
      setPreview(null);
      setError(messageOf(next, 'The file could not be read.'));
    }
    setBusy(null);
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setFile(chosen);
    setDone(null);
    void read(chosen, null);
  };

  const runImport = async () => {
    if (!file || !preview) return;
    setBusy('importing');
    setProgress(null);
    setError(null);
    const result = await commitImport(file, preview.mapping, [...keep], setProgress);
    if (result.ok) {
      if (!preview.ownExport) rememberMapping(preview.headers, preview.mapping);
      setDone(result.data);
      setPreview(null);
      setFile(null);
      await invalidateDomain(queryClient);
    } else {
      setError(messageOf(result, 'The import failed; nothing was imported.'));
    }
    setBusy(null);
  };

  const imports = useImports();
  /** The import whose Undo waits for confirmation. */
  const [undoing, setUndoing] = useState<ImportSummary | null>(null);
  const askUndo = (id: number) => {
    const target = (done?.id === id ? done : null) ?? imports.data?.find((i) => i.id === id) ?? null;
    if (target) setUndoing(target);
  };
  const undoImport = async () => {
    if (!undoing) return;
    const id = undoing.id;
    const result = await undo.mutateAsync(id);
    setUndoing(null);
    if (!result.ok) setError(messageOf(result, 'The import could not be undone.'));
    else if (done?.id === id) setDone(result.data);
  };

  const rowsWithErrors = preview?.errorCount ?? 0;
  // A problem or a row with errors refuses the whole file: then nothing would be imported, and the button says so.
  const importable = preview !== null && preview.problems.length === 0 && rowsWithErrors === 0;
  const toImport = preview && importable ? preview.rowCount - preview.duplicateCount + keep.size : 0;
  const blocked = !preview || preview.problems.length > 0 || rowsWithErrors > 0 || toImport === 0 || busy !== null;

  return (
    <Container sx={{ py: 4 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h1" sx={{ mb: 1, fontWeight: 500 }}>
          Import CSV
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Invoices and their payments from a spreadsheet or a bank's CSV file (UTF-8, with a header row, up to 16 MB and
          100,000 rows). Nothing is saved until you press Import; an import can be undone as a whole.
        </Typography>
        {readOnlyReason && <ReadOnlyBanner reason={readOnlyReason} />}
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' }, mb: 2, display: readOnlyReason ? 'none' : undefined }}
        >
          <Button variant="contained" onClick={() => input.current?.click()} disabled={busy !== null}>
            Choose CSV File
          </Button>
          <Typography sx={{ overflowWrap: 'anywhere' }}>{file?.name ?? 'No file chosen'}</Typography>
          <input ref={input} type="file" accept=".csv,text/csv" hidden data-testid="csv-file-input" onChange={choose} />
        </Stack>
        {busy === 'reading' && <LinearProgress aria-label="Reading the file" sx={{ mb: 2 }} />}
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        {done && (
          <Alert
            severity={done.undoneAt ? 'info' : 'success'}
            sx={{ mb: 2 }}
            action={
              done.undoneAt ? undefined : (
                <Button color="inherit" size="small" onClick={() => askUndo(done.id)} loading={undo.isPending}>
                  Undo Import
                </Button>
              )
            }
          >
            {done.undoneAt ? 'Import undone: its invoices are in the recycle bin.' : importedMessage(done)}
          </Alert>
        )}
        {preview && (
          <Stack spacing={3}>
            <Box>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Columns
              </Typography>
              {preview.ownExport ? (
                <Typography color="text.secondary">This is a Billfold export: its columns map themselves.</Typography>
              ) : (
                <MappingEditor
                  headers={preview.headers}
                  mapping={preview.mapping}
                  disabled={busy !== null}
                  onChange={(mapping) => file && read(file, mapping)}
                />
              )}
            </Box>
            {preview.problems.map((problem) => (
              <Alert key={problem} severity="error">
                {problem}
              </Alert>
            ))}
            <Box>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Preview
              </Typography>
              <Typography aria-live="polite" sx={{ mb: 1 }}>
                {[
                  countOf(preview.rowCount, 'row', 'rows'),
                  `${countOf(rowsWithErrors, 'row', 'rows')} with errors`,
                  `${countOf(preview.duplicateCount, 'likely duplicate', 'likely duplicates')}`,
                  countOf(preview.newEntities.length, 'new entity', 'new entities'),
                ].join(' · ')}
              </Typography>
              {rowsWithErrors > 0 && (
                <Alert severity="warning" sx={{ mb: 1 }}>
                  Fix the rows with errors in the file (or change the columns above) and choose it again: an import is
                  all or nothing.
                </Alert>
              )}
              {preview.rows.length > 0 && (
                <ImportRowsTable
                  rows={preview.rows}
                  keep={keep}
                  onKeep={(line, checked) => {
                    const next = new Set(keep);
                    if (checked) next.add(line);
                    else next.delete(line);
                    setKeep(next);
                  }}
                />
              )}
              {preview.rows.length < preview.rowCount && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  {`Showing ${countOf(preview.rows.length, 'row', 'rows')}: the first ones and every row with an error or a likely duplicate.`}
                </Typography>
              )}
            </Box>
            {busy === 'importing' && (
              <Box>
                {progress === null ? (
                  <LinearProgress aria-label="Import progress" />
                ) : (
                  <LinearProgress
                    variant="determinate"
                    value={Math.round(progress * 100)}
                    aria-label="Import progress"
                  />
                )}
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {progress === null ? 'Checking the file…' : `Importing… ${Math.round(progress * 100)}%`}
                </Typography>
              </Box>
            )}
            <Typography
              id="import-all-or-nothing"
              variant="body2"
              color="text.secondary"
              sx={{ display: toImport > 0 ? undefined : 'none' }}
            >
              {[
                `All or nothing: the ${countOf(Math.max(toImport, 0), 'invoice', 'invoices')} ${toImport === 1 ? 'is' : 'are'} saved together, or none of them if anything fails.`,
                preview.duplicateCount - keep.size > 0
                  ? `${countOf(preview.duplicateCount - keep.size, 'likely duplicate is', 'likely duplicates are')} left out.`
                  : '',
                'Undo Import removes them all again.',
              ]
                .filter(Boolean)
                .join(' ')}
            </Typography>
            <Stack direction="row" spacing={2}>
              <Button
                variant="contained"
                disabled={blocked}
                onClick={runImport}
                aria-describedby="import-all-or-nothing"
              >
                {toImport <= 0
                  ? 'Nothing to Import'
                  : toImport === 1
                    ? 'Import 1 Invoice'
                    : `Import All ${countOf(toImport, 'Invoice', 'Invoices')}`}
              </Button>
              <Button
                disabled={busy !== null}
                onClick={() => {
                  setPreview(null);
                  setFile(null);
                }}
              >
                Cancel
              </Button>
            </Stack>
          </Stack>
        )}
        <ImportHistory onUndo={askUndo} undoing={undo.isPending} readOnlyReason={readOnlyReason} />
        <ConfirmDialog
          open={undoing !== null}
          title={
            undoing ? `Undo the import of ${countOf(undoing.invoices, 'invoice', 'invoices')}?` : 'Undo the import?'
          }
          confirmLabel="Undo Import"
          destructive
          busy={undo.isPending}
          onConfirm={undoImport}
          onCancel={() => setUndoing(null)}
        >
          {undoing ? undoQuestion(undoing) : ''}
        </ConfirmDialog>
      </Paper>
    </Container>
  );
}
