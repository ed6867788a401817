import type { BillOverview, BillSortField } from '@billfold/contract/bills';
import type { SortOrder } from '@billfold/contract/entries';
import { cadenceLabel } from '@billfold/contract/schedule-dates';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Unarchive from '@mui/icons-material/Unarchive';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useUpdateEntity } from '../../api/entities/update-entity.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { owedParts } from '../../lib/format.ts';
import type { EntitiesView } from './entities-view.ts';
import { scheduleAmountText } from './schedule-form.ts';

const ARCHIVE_FAILED = { failed: 'Failed to update entity.', error: 'Error updating entity.' };
const RESTORE_FAILED = { failed: 'Failed to restore entity.', error: 'Failed to restore entity.' };
const DELETE_FAILED = { failed: 'Failed to delete entity.', error: 'Failed to delete entity.' };

/** The question before archiving, as the edit-entity page asks it (docs/product.md, Edit entity (/bills/:id)). */
export const archiveQuestion = (name: string) =>
  `Archive ${name}? It and its invoices and payments become read only until you restore it from Archives in the History menu.`;
/** The question before deleting, as the Archives page asks it (docs/product.md, Archives (/archives)). */
export const deleteQuestion = (name: string) =>
  `Delete ${name} with all its invoices and payments? They stay in the recycle bin for 14 days and are then deleted permanently.`;

type Asking = { kind: 'archive' | 'delete'; bill: Pick<BillOverview, 'id' | 'name'> } | null;

/**
 * Archive (after a confirm), restore (at once) and delete to the recycle bin (after a confirm) of one entity, with
 * the spec's notices (docs/product.md, Messages). `working` is the entity being changed.
 */
export function useEntityActions() {
  const update = useUpdateEntity();
  const notify = useNotice();
  const [asking, setAsking] = useState<Asking>(null);
  const [working, setWorking] = useState<number | null>(null);

  const run = async (
    id: number,
    body: { status: 0 | 1 } | { recycle: true },
    success: string,
    failed: typeof ARCHIVE_FAILED,
  ) => {
    setWorking(id);
    const outcome = await update.mutateAsync({ id, ...body });
    setWorking(null);
    setAsking(null);
    if (outcome.ok) notify(success, { severity: 'success' });
    else notify(failureMessage(outcome, failed), { severity: 'error' });
  };

  return {
    asking,
    working,
    busy: update.isPending,
    askArchive: (bill: Pick<BillOverview, 'id' | 'name'>) => setAsking({ kind: 'archive', bill }),
    askDelete: (bill: Pick<BillOverview, 'id' | 'name'>) => setAsking({ kind: 'delete', bill }),
    cancel: () => setAsking(null),
    restore: (bill: Pick<BillOverview, 'id'>) =>
      run(bill.id, { status: 1 }, 'Entity restored successfully.', RESTORE_FAILED),
    confirm: () => {
      if (!asking) return;
      if (asking.kind === 'archive')
        void run(asking.bill.id, { status: 0 }, 'Entity updated successfully.', ARCHIVE_FAILED);
      else void run(asking.bill.id, { recycle: true }, 'Entity recycled successfully.', DELETE_FAILED);
    },
  };
}

export type EntityActions = ReturnType<typeof useEntityActions>;

/** The archive and delete questions of `useEntityActions`. */
export function EntityActionDialogs({ actions }: { actions: EntityActions }) {
  const { asking } = actions;
  return (
    <ConfirmDialog
      open={asking !== null}
      title={asking?.kind === 'archive' ? 'Archive Entity' : 'Delete Entity'}
      confirmLabel={asking?.kind === 'archive' ? 'Archive' : 'Delete'}
      destructive
      busy={actions.busy}
      onConfirm={actions.confirm}
      onCancel={actions.cancel}
    >
      {asking ? (asking.kind === 'archive' ? archiveQuestion(asking.bill.name) : deleteQuestion(asking.bill.name)) : ''}
    </ConfirmDialog>
  );
}

/** Archive or Restore, then Delete, for one entity; each names the entity for assistive technology. */
export function EntityRowActions({ bill, actions }: { bill: BillOverview; actions: EntityActions }) {
  const archived = bill.status === 0;
  const { readOnlyReason } = useLedgerAccess();
  const disabled = actions.working === bill.id || readOnlyReason !== null;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'nowrap' }}>
      {archived ? (
        <ReadOnlyTip reason={readOnlyReason}>
          <Button
            size="small"
            startIcon={<Unarchive />}
            onClick={() => actions.restore(bill)}
            disabled={disabled}
            aria-label={`Restore ${bill.name}`}
          >
            Restore
          </Button>
        </ReadOnlyTip>
      ) : (
        <ReadOnlyTip reason={readOnlyReason}>
          <Button
            size="small"
            startIcon={<ArchiveOutlined />}
            onClick={() => actions.askArchive(bill)}
            disabled={disabled}
            aria-label={`Archive ${bill.name}`}
          >
            Archive
          </Button>
        </ReadOnlyTip>
      )}
      <ReadOnlyTip reason={readOnlyReason}>
        <Button
          size="small"
          color="error"
          startIcon={<DeleteOutlined />}
          onClick={() => actions.askDelete(bill)}
          disabled={disabled}
          aria-label={`Delete ${bill.name}`}
        >
          Delete
        </Button>
      </ReadOnlyTip>
    </Box>
  );
}

/** "$1,234.00 to pay", "$50.00 to collect", both, or "Nothing open". */
export function openBalanceLines(bill: Pick<BillOverview, 'balance'>): string[] {
  const lines = owedParts(bill.balance);
  return lines.length > 0 ? lines : ['Nothing open'];
}

/**
 * One schedule in a line: "Monthly on the 1st · $1,250.00 · next 2026-12-01" (or "paused", "ended"); a variable
 * schedule's amount is its estimate, as its entity's list says it ("about $61.20 (same as last)").
 */
export function scheduleLine(schedule: BillOverview['schedules'][number]): string {
  const state = schedule.paused ? 'paused' : schedule.ended ? 'ended' : `next ${schedule.nextDate}`;
  return `${cadenceLabel(schedule)} · ${scheduleAmountText(schedule)} · ${state}`;
}

/** What the grid and the list are given. */
export interface EntityRowsProps {
  /** Undefined until the first answer. */
  rows: readonly BillOverview[] | undefined;
  /** -1 until the first answer. */
  total: number;
  loading: boolean;
  view: EntitiesView;
  pageSizeOptions: readonly number[];
  actions: EntityActions;
  onPage: (page: number, pageSize: number) => void;
  onSort: (sortModel: { field: BillSortField; sort: SortOrder }[]) => void;
}
