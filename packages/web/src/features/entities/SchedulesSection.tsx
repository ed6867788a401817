import type { Bill } from '@billfold/contract/bills';
import { formatUsd } from '@billfold/contract/money';
import { paymentMethodLabel } from '@billfold/contract/payment-methods';
import { cadenceLabel, expandTemplate } from '@billfold/contract/schedule-dates';
import type { Schedule } from '@billfold/contract/schedules';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PauseOutlined from '@mui/icons-material/PauseOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { failureMessage } from '../../api/outcome.ts';
import { useSchedules } from '../../api/schedules/list-schedules.ts';
import { type ScheduleAction, useScheduleAction } from '../../api/schedules/schedule-actions.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { ScheduleDialog } from './ScheduleDialog.tsx';
import { scheduleAmountText } from './schedule-form.ts';

const ACTION_MESSAGES: Record<ScheduleAction, { success: string; failed: string; error: string }> = {
  pause: { success: 'Schedule paused.', failed: 'Failed to pause schedule.', error: 'Error pausing schedule.' },
  resume: { success: 'Schedule resumed.', failed: 'Failed to resume schedule.', error: 'Error resuming schedule.' },
  delete: { success: 'Schedule deleted.', failed: 'Failed to delete schedule.', error: 'Error deleting schedule.' },
};

/** One line of facts: cadence, due terms and automatic payment. */
function scheduleFacts(schedule: Schedule): string {
  const parts = [cadenceLabel(schedule)];
  if (schedule.dueDays > 0) parts.push(`due ${schedule.dueDays} day${schedule.dueDays === 1 ? '' : 's'} after`);
  if (schedule.autopay) parts.push(`autopay: ${paymentMethodLabel(schedule.autopay)}`);
  if (schedule.endDate) parts.push(`until ${schedule.endDate}`);
  if (schedule.count !== null) parts.push(`${schedule.createdCount} of ${schedule.count} invoices`);
  return parts.join(' · ');
}

/** An icon button named by its tooltip (the tooltip stays on a disabled button). */
function ActionButton({
  label,
  onClick,
  disabled,
  reason,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled: boolean;
  /** Why it is disabled when the ledger is read-only for the user: the tooltip says so instead of the name. */
  reason: string | null;
  children: ReactNode;
}) {
  return (
    <Tooltip title={reason ?? label}>
      <span>
        <IconButton aria-label={label} onClick={onClick} disabled={disabled}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** The next invoice's date and, when the description has placeholders, the description that invoice will carry. */
function NextOccurrence({ schedule }: { schedule: Schedule }) {
  if (schedule.paused) return <Chip label="Paused" size="small" color="warning" variant="outlined" />;
  if (schedule.nextDate === null) return <Chip label="Ended" size="small" variant="outlined" />;
  const description = expandTemplate(schedule.description, schedule.nextDate, schedule.createdCount + 1);
  return (
    <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere' }}>
      Next: <strong>{schedule.nextDate}</strong>
      {description !== schedule.description && ` “${description}”`}
    </Typography>
  );
}

/** The entity page's recurring invoices: each schedule with its next occurrence, and the editor. */
export function SchedulesSection({ bill }: { bill: Bill }) {
  const { readOnlyReason } = useLedgerAccess();
  // Locked when the entity is archived (its banner says why) or the ledger is read-only for the user.
  const archived = bill.status === 0 || readOnlyReason !== null;
  const reason = bill.status === 0 ? null : readOnlyReason;
  const schedules = useSchedules(bill.id);
  const action = useScheduleAction();
  const notify = useNotice();
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);

  const run = async (schedule: Schedule, kind: ScheduleAction) => {
    const outcome = await action.mutateAsync({ scheduleId: schedule.id, action: kind });
    const messages = ACTION_MESSAGES[kind];
    notify(outcome.ok ? messages.success : failureMessage(outcome, messages), {
      severity: outcome.ok ? 'success' : 'error',
    });
    if (kind === 'delete') setDeleting(null);
  };

  const list = schedules.data ?? [];
  return (
    <section aria-labelledby="schedules-heading">
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1, gap: 1 }}>
        <Typography variant="h6" component="h2" id="schedules-heading">
          Recurring Invoices
        </Typography>
        <ReadOnlyTip reason={reason}>
          <Button startIcon={<AddOutlined />} onClick={() => setEditing('new')} disabled={archived}>
            New Schedule
          </Button>
        </ReadOnlyTip>
      </Stack>
      {schedules.isError && <Alert severity="error">Failed to load schedules.</Alert>}
      {schedules.isSuccess && list.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          No recurring invoices. A schedule creates this entity’s invoices by itself: rent, utilities, subscriptions.
        </Typography>
      )}
      {list.length > 0 && (
        <Paper variant="outlined" component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 3 }}>
          {list.map((schedule, index) => (
            <Stack
              key={schedule.id}
              component="li"
              aria-label={`Schedule ${schedule.description || formatUsd(schedule.amount)}`}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={{ xs: 1, sm: 2 }}
              sx={{
                px: 2,
                py: 1.5,
                alignItems: { sm: 'center' },
                borderTop: index === 0 ? 0 : 1,
                borderColor: 'divider',
              }}
            >
              <Stack sx={{ flex: 1, minWidth: 0 }} spacing={0.5}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap', rowGap: 0.5 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                    {schedule.description || 'No description'}
                  </Typography>
                  <Typography color={schedule.flow === 'INCOMING' ? 'success.main' : 'text.primary'}>
                    {scheduleAmountText(schedule)}
                  </Typography>
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {scheduleFacts(schedule)}
                </Typography>
              </Stack>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                <NextOccurrence schedule={schedule} />
                <Stack direction="row">
                  <ActionButton
                    label="Edit schedule"
                    onClick={() => setEditing(schedule)}
                    disabled={archived}
                    reason={reason}
                  >
                    <EditOutlined />
                  </ActionButton>
                  {schedule.paused ? (
                    <ActionButton
                      label="Resume schedule"
                      onClick={() => run(schedule, 'resume')}
                      disabled={archived || action.isPending}
                      reason={reason}
                    >
                      <PlayArrowOutlined />
                    </ActionButton>
                  ) : (
                    <ActionButton
                      label="Pause schedule"
                      onClick={() => run(schedule, 'pause')}
                      disabled={archived || action.isPending || schedule.nextDate === null}
                      reason={reason}
                    >
                      <PauseOutlined />
                    </ActionButton>
                  )}
                  <ActionButton
                    label="Delete schedule"
                    onClick={() => setDeleting(schedule)}
                    disabled={archived}
                    reason={reason}
                  >
                    <DeleteOutlined />
                  </ActionButton>
                </Stack>
              </Stack>
            </Stack>
          ))}
        </Paper>
      )}
      {editing !== null && <ScheduleDialog target={editing} bill={bill} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Schedule"
        confirmLabel="Delete"
        destructive
        busy={action.isPending}
        onConfirm={() => deleting && run(deleting, 'delete')}
        onCancel={() => setDeleting(null)}
      >
        The schedule stops creating invoices and is deleted for good. The invoices it already created stay.
      </ConfirmDialog>
    </section>
  );
}
