import { useInvoiceInBin } from '../../api/invoices/find-invoice-in-bin.ts';
import { NotFoundNotice } from '../../components/NotFoundNotice.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';

/** "Invoice not found.", and where it went when it is in the recycle bin (the invoice page and its edit page). */
export function InvoiceNotFound({ entryId }: { entryId: number | null }) {
  const inBin = useInvoiceInBin(entryId);
  if (inBin.isLoading) return <PageProgress />;
  return <NotFoundNotice message="Invoice not found." what="invoice" inBin={inBin.data === true} />;
}
