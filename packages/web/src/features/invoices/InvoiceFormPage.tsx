import type { BillReading } from '@billfold/contract/bill-readings';
import type { Bill } from '@billfold/contract/bills';
import type { Entry } from '@billfold/contract/entries';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import { useEntities } from '../../api/entities/list-entities.ts';
import { useInvoice } from '../../api/invoices/get-invoice.ts';
import { ReadOnlyBanner, useLedgerAccess } from '../../components/ledger-access.tsx';
import { PageCard } from '../../components/PageCard.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { todayIso } from '../../lib/dates.ts';
import { parseRouteId } from '../../lib/route-id.ts';
import { BillFromFile } from './BillFromFile.tsx';
import { InvoiceForm } from './InvoiceForm.tsx';
import { InvoiceNotFound } from './InvoiceNotFound.tsx';
import {
  emptyInvoiceForm,
  findEntityByName,
  flowFor,
  type InvoiceField,
  type InvoiceFormValues,
  invoiceFormFromEntry,
  invoiceFormFromReading,
} from './invoice-form.ts';

/** The entity of an invoice being edited, even when it is archived (and so not among the active ones). */
function entityOf(entry: Entry): Bill {
  return {
    id: entry.billId,
    name: entry.name,
    category: entry.category,
    internal: entry.internal,
    status: entry.archived ? 0 : 1,
    recycle: false,
  };
}

/** `/invoice` (new, `?entityName=` preselects the entity) and `/invoice/{id}` (edit). */
export default function InvoiceFormPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const editing = params.id !== undefined;
  const entryId = editing ? parseRouteId(params.id) : null;
  // Active and archived: an archived name is not offered as a new entity, and a link to one says it is archived.
  const bills = useEntities();
  const entry = useInvoice(entryId);
  const title = editing ? 'Edit Invoice' : 'New Invoice';
  const { readOnlyReason } = useLedgerAccess();

  // Every control of the form writes: a viewer who comes by its address reads why, with the way back.
  if (readOnlyReason)
    return (
      <PageCard title={title}>
        <ReadOnlyBanner reason={readOnlyReason} />
        <Button component={RouterLink} to={entryId ? `/entries/${entryId}` : '/home'} variant="outlined">
          {entryId ? 'Back to the invoice' : 'Go to Home'}
        </Button>
      </PageCard>
    );
  if (bills.isPending || (editing && entry.isPending)) return <PageProgress />;
  if (editing && entry.isError)
    return (
      <PageCard title={title}>
        <Alert severity="error">Failed to load invoice or payments.</Alert>
      </PageCard>
    );
  if (editing && !entry.data)
    return (
      <PageCard title={title}>
        <InvoiceNotFound entryId={entryId} />
      </PageCard>
    );

  const active = (bills.data ?? []).filter((b) => b.status === 1);
  const archived = (bills.data ?? []).filter((b) => b.status === 0);
  if (editing && entry.data) {
    const current = entry.data;
    const entities = active.some((b) => b.id === current.billId) ? active : [entityOf(current), ...active];
    return (
      <PageCard title={title}>
        <InvoiceForm
          key={current.entryId}
          mode="update"
          entry={current}
          entities={entities}
          archivedEntities={archived}
          initial={invoiceFormFromEntry(current)}
        />
      </PageCard>
    );
  }

  const preselected = findEntityByName(active, search.get('entityName'));
  const linkedArchived = preselected ? null : findEntityByName(archived, search.get('entityName'));
  const initial = emptyInvoiceForm(todayIso());
  if (preselected) {
    initial.billId = preselected.id;
    initial.flow = flowFor(initial.flow, preselected.internal);
  }
  return (
    <NewInvoice
      title={title}
      active={active}
      archived={archived}
      initial={initial}
      formKey={String(preselected?.id ?? 'new')}
      linkedArchivedName={linkedArchived?.name ?? null}
    />
  );
}

/** A new invoice: typed in, or filled from a bill's file whose reading refills the form (and is then attached). */
function NewInvoice({
  title,
  active,
  archived,
  initial,
  formKey,
  linkedArchivedName,
}: {
  title: string;
  active: Bill[];
  archived: Bill[];
  initial: InvoiceFormValues;
  formKey: string;
  linkedArchivedName: string | null;
}) {
  const [fromFile, setFromFile] = useState<{
    id: string;
    file: File;
    values: InvoiceFormValues;
    read: InvoiceField[];
  } | null>(null);
  const onRead = useCallback(
    (reading: BillReading, file: File) => {
      const filled = reading.result
        ? invoiceFormFromReading(initial, reading.result, active)
        : { values: initial, read: [] };
      setFromFile({ id: reading.id, file, ...filled });
    },
    [initial, active],
  );
  return (
    <PageCard title={title}>
      <BillFromFile onRead={onRead} />
      <InvoiceForm
        key={fromFile ? `file-${fromFile.id}` : formKey}
        mode="create"
        entry={null}
        entities={active}
        archivedEntities={archived}
        initial={fromFile?.values ?? initial}
        linkedArchivedName={linkedArchivedName}
        readFields={fromFile?.read ?? []}
        attachFile={fromFile?.file ?? null}
      />
    </PageCard>
  );
}
