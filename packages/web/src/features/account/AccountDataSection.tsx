import type { AccountImportSummary } from '@billfold/contract/account-file';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, useRef, useState } from 'react';
import { useExportAccount } from '../../api/account/export-account.ts';
import { useImportAccount } from '../../api/account/import-account.ts';
import { ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { countOf } from '../../lib/format.ts';

/**
 * `Imported 2 entities, 3 invoices and 1 payment.`, and the schedules, new categories of one's own and attached files
 * when the file had any.
 */
export function importedMessage({
  entities,
  invoices,
  payments,
  schedules,
  categories,
  attachments,
}: AccountImportSummary): string {
  const parts = [
    countOf(entities, 'entity', 'entities'),
    countOf(invoices, 'invoice', 'invoices'),
    countOf(payments, 'payment', 'payments'),
    ...(schedules > 0 ? [countOf(schedules, 'schedule', 'schedules')] : []),
    ...(categories > 0 ? [countOf(categories, 'category', 'categories')] : []),
    ...(attachments > 0 ? [countOf(attachments, 'file', 'files')] : []),
  ];
  return `Imported ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}.`;
}

/**
 * "Your data": download everything of the account as one file (JSON, or a tar of that JSON and the attached files:
 * docs/decisions/1160-ledger-archive.md), or load such a file (from this or any other Billfold server) into an
 * account that has no entities yet.
 */
export function AccountDataSection() {
  const exporter = useExportAccount();
  const importer = useImportAccount();
  const input = useRef<HTMLInputElement>(null);
  // The file goes into the tab's ledger and fills it: its owners' call (docs/decisions/0107-ledgers.md).
  const { ownerOnlyReason } = useLedgerAccess();
  const [result, setResult] = useState<{ severity: 'success' | 'error'; message: string } | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setResult(null);
    const outcome = await importer.mutateAsync(file);
    setResult(
      outcome.ok
        ? { severity: 'success', message: importedMessage(outcome.data) }
        : { severity: 'error', message: outcome.message || 'The import failed.' },
    );
  };

  return (
    <Stack component="section" aria-labelledby="account-data-heading" spacing={1.5} sx={{ mt: 4 }}>
      <Typography id="account-data-heading" variant="h6" component="h2">
        Your Data
      </Typography>
      <Typography color="text.secondary">
        Download every entity, invoice, payment and attached file of this account (recycle bin included) as one file (a
        .tar archive when it has files), or load such a file into an account that has no entities yet.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="outlined" loading={exporter.isPending} onClick={() => exporter.mutate()}>
          Download My Data
        </Button>
        <ReadOnlyTip reason={ownerOnlyReason}>
          <Button
            variant="outlined"
            loading={importer.isPending}
            onClick={() => input.current?.click()}
            disabled={ownerOnlyReason !== null}
          >
            Import Account File
          </Button>
        </ReadOnlyTip>
        <input
          ref={input}
          type="file"
          accept="application/json,.json,application/x-tar,.tar"
          hidden
          data-testid="account-file-input"
          onChange={choose}
        />
      </Stack>
      {exporter.data?.ok === false && <Alert severity="error">The download failed. Please try again.</Alert>}
      {result && (
        <Alert severity={result.severity} onClose={() => setResult(null)}>
          {result.message}
        </Alert>
      )}
    </Stack>
  );
}
