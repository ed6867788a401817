import type { Bill, Entry } from '@billfold/contract/schemas';
import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useBills } from '../../api/bills/list-bills.ts';
import { useEntry } from '../../api/entries/get-entry.ts';
import { PageProgress } from '../../components/PageProgress.tsx';
import { todayIso } from '../../lib/dates.ts';
import { parseRouteId } from '../../lib/route-id.ts';
import { InvoiceForm } from './InvoiceForm.tsx';
import { emptyInvoiceForm, findEntityByName, flowFor, invoiceFormFromEntry } from './invoice-form.ts';

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

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container sx={{ py: 4, maxWidth: { sm: 640 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h1" sx={{ mb: 3, fontWeight: 500 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Container>
  );
}

/** `/invoice` (new, `?entityName=` preselects the entity) and `/invoice/{id}` (edit). */
export default function InvoiceFormPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const editing = params.id !== undefined;
  const entryId = editing ? parseRouteId(params.id) : null;
  const bills = useBills('active');
  const entry = useEntry(entryId);
  const title = editing ? 'Edit Invoice' : 'New Invoice';

  if (bills.isPending || (editing && entry.isPending)) return <PageProgress />;
  if (editing && entry.isError)
    return (
      <Frame title={title}>
        <Alert severity="error">Failed to load invoice or payments.</Alert>
      </Frame>
    );
  if (editing && !entry.data)
    return (
      <Frame title={title}>
        <Alert severity="error">Invoice not found.</Alert>
      </Frame>
    );

  const active = bills.data ?? [];
  if (editing && entry.data) {
    const current = entry.data;
    const entities = active.some((b) => b.id === current.billId) ? active : [entityOf(current), ...active];
    return (
      <Frame title={title}>
        <InvoiceForm
          key={current.entryId}
          mode="update"
          entry={current}
          entities={entities}
          initial={invoiceFormFromEntry(current)}
        />
      </Frame>
    );
  }

  const preselected = findEntityByName(active, search.get('entityName'));
  const initial = emptyInvoiceForm(todayIso());
  if (preselected) {
    initial.billId = preselected.id;
    initial.flow = flowFor(initial.flow, preselected.internal);
  }
  return (
    <Frame title={title}>
      <InvoiceForm key={preselected?.id ?? 'new'} mode="create" entry={null} entities={active} initial={initial} />
    </Frame>
  );
}
