import type { Bill } from '@billfold/contract/bills';
import { cadenceLabel } from '@billfold/contract/schedule-dates';
import {
  AVERAGE_OF,
  type DuplicateChoice,
  MAX_CATCH_UP,
  type Schedule,
  type ScheduleBody,
} from '@billfold/contract/schedules';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { previewSchedule } from '../../api/schedules/preview-schedule.ts';
import { type SaveSchedule, useSaveSchedule } from '../../api/schedules/save-schedule.ts';
import { AmountTextField } from '../../components/AmountTextField.tsx';
import { FormDialog, useFormDialogState } from '../../components/FormDialog.tsx';
import { IsoDateField } from '../../components/IsoDateField.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PaymentMethodField } from '../../components/PaymentMethodField.tsx';
import { todayIso } from '../../lib/dates.ts';
import {
  AMOUNT_MODE_LABELS,
  CADENCE_LABELS,
  type CatchUpQuestion,
  catchUpQuestion,
  checkScheduleForm,
  descriptionHelp,
  emptyScheduleForm,
  immediateCount,
  previewDates,
  type ScheduleFormValues,
  scheduleFormFromSchedule,
  toScheduleBody,
  withDayOfMonth,
  withFirstDate,
} from './schedule-form.ts';

export const SCHEDULE_MESSAGES = {
  success: 'Schedule saved.',
  failed: 'Failed to save schedule.',
  error: 'Error saving schedule.',
} as const;

const DAYS = Array.from({ length: 31 }, (_, i) => String(i + 1));

interface Props {
  /** A schedule edits it; `'new'` adds one. */
  target: Schedule | 'new';
  bill: Bill;
  onClose: () => void;
}

/** New Schedule and Edit Schedule. The section renders it only while open, so every opening starts afresh. */
export function ScheduleDialog({ target, bill, onClose }: Props) {
  const today = todayIso();
  const form = useFormDialogState<ScheduleFormValues>(() =>
    target === 'new' ? emptyScheduleForm(today, bill.internal) : scheduleFormFromSchedule(target),
  );
  const { values, set, setError } = form;
  // A date field with a problem shows it itself; nothing is sent while one does.
  const dateProblem = values.ends === 'date' ? form.dateProblem('firstDate', 'endDate') : form.dateProblem('firstDate');
  const save = useSaveSchedule();
  const notify = useNotice();
  // The question asked before a save that creates past invoices or ones beside existing invoices.
  const [question, setQuestion] = useState<{ ask: CatchUpQuestion; body: ScheduleBody } | null>(null);
  const [asking, setAsking] = useState(false);
  const questionTitleId = useId();

  const saveOf = (body: ScheduleBody): SaveSchedule =>
    target === 'new' ? { billId: bill.id, scheduleId: null, body } : { scheduleId: target.id, body };

  const send = async (body: ScheduleBody, duplicates: DuplicateChoice | null, skipped: number) => {
    const outcome = await save.mutateAsync(saveOf(duplicates === null ? body : { ...body, duplicates }));
    setQuestion(null);
    if (!outcome.ok) {
      form.reportFailure(outcome, SCHEDULE_MESSAGES);
      return;
    }
    const created = target === 'new' ? outcome.data.createdCount - skipped : 0;
    notify(
      created > 0
        ? `${SCHEDULE_MESSAGES.success} ${created} invoice${created === 1 ? '' : 's'} created.`
        : SCHEDULE_MESSAGES.success,
      { severity: 'success' },
    );
    onClose();
  };

  const submit = async () => {
    const problem = dateProblem ? null : checkScheduleForm(values);
    setError(problem);
    if (problem || dateProblem) return;
    const body = toScheduleBody(values);
    // The server knows what a save creates at once and which invoices already exist: ask it first.
    setAsking(true);
    const preview = await previewSchedule(saveOf(body));
    setAsking(false);
    if (!preview.ok) {
      form.reportFailure(preview, SCHEDULE_MESSAGES);
      return;
    }
    const ask = catchUpQuestion(preview.data, today);
    if (ask) setQuestion({ ask, body });
    else await send(body, null, 0);
  };

  const upcoming = previewDates(values, today);
  const atOnce = target === 'new' ? immediateCount(values, today) : 0;
  const weekly = values.cadence === 'weekly';
  const [first] = upcoming;

  return (
    <FormDialog
      open
      title={target === 'new' ? 'New Schedule' : 'Edit Schedule'}
      submitLabel={target === 'new' ? 'Create Schedule' : 'Save'}
      {...form.errorProps}
      busy={save.isPending || asking}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Description"
        name="description"
        value={values.description}
        onChange={(event) => set('description', event.target.value)}
        helperText={descriptionHelp(values.description, first)}
        slotProps={{ htmlInput: { maxLength: 200 } }}
        fullWidth
        autoFocus
      />
      <AmountTextField value={values.amount} onChange={(amount) => set('amount', amount)} required fullWidth />
      <Stack direction="row" spacing={2}>
        <TextField
          select
          label="Amount is"
          name="amountMode"
          value={values.amountMode}
          onChange={(event) => set('amountMode', event.target.value as ScheduleFormValues['amountMode'])}
          helperText={AMOUNT_MODE_LABELS[values.amountMode].help}
          sx={{ flex: 1 }}
        >
          {Object.entries(AMOUNT_MODE_LABELS).map(([value, { label }]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        {values.amountMode === 'average' && (
          <TextField
            label="Invoices"
            name="averageOf"
            value={values.averageOf}
            onChange={(event) => set('averageOf', event.target.value)}
            helperText={`${AVERAGE_OF.min} to ${AVERAGE_OF.max}`}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 2 } }}
            sx={{ width: 112 }}
          />
        )}
      </Stack>
      <FormControl>
        <FormLabel id="schedule-flow-label">Flow</FormLabel>
        <RadioGroup
          row
          aria-labelledby="schedule-flow-label"
          name="flow"
          value={bill.internal ? 'expense' : values.flow}
          onChange={(event) => set('flow', event.target.value as ScheduleFormValues['flow'])}
        >
          <FormControlLabel value="income" control={<Radio />} label="Income" disabled={bill.internal} />
          <FormControlLabel value="expense" control={<Radio />} label="Expense" />
        </RadioGroup>
        {bill.internal && <FormHelperText>Invoices of an internal entity are always internal expenses.</FormHelperText>}
      </FormControl>
      <Stack direction="row" spacing={2}>
        <TextField
          select
          label="Repeats"
          name="cadence"
          value={values.cadence}
          onChange={(event) => set('cadence', event.target.value as ScheduleFormValues['cadence'])}
          sx={{ flex: 1 }}
        >
          {Object.entries(CADENCE_LABELS).map(([value, { label }]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={`Every (${CADENCE_LABELS[values.cadence].unit})`}
          name="interval"
          value={values.interval}
          onChange={(event) => set('interval', event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 2 } }}
          sx={{ width: 128 }}
        />
      </Stack>
      <IsoDateField
        label="First invoice date"
        {...form.dateField('firstDate')}
        onChange={(firstDate, problem) => {
          form.setDate('firstDate', firstDate, problem);
          set('dayOfMonth', withFirstDate(values, firstDate).dayOfMonth);
        }}
        required
      />
      {!weekly && (
        <TextField
          select
          label="Day of month"
          name="dayOfMonth"
          value={values.dayOfMonth}
          onChange={(event) => {
            const next = withDayOfMonth(values, event.target.value);
            set('dayOfMonth', next.dayOfMonth);
            set('dayFollowsFirstDate', next.dayFollowsFirstDate);
          }}
          helperText={Number(values.dayOfMonth) > 28 ? 'Shorter months use their last day.' : undefined}
        >
          {DAYS.map((day) => (
            <MenuItem key={day} value={day}>
              {day}
            </MenuItem>
          ))}
        </TextField>
      )}
      <FormControl>
        <FormLabel id="schedule-ends-label">Ends</FormLabel>
        <RadioGroup
          aria-labelledby="schedule-ends-label"
          name="ends"
          value={values.ends}
          onChange={(event) => set('ends', event.target.value as ScheduleFormValues['ends'])}
        >
          <FormControlLabel value="never" control={<Radio />} label="Never" />
          <FormControlLabel value="date" control={<Radio />} label="On a date" />
          <FormControlLabel value="count" control={<Radio />} label="After a number of invoices" />
        </RadioGroup>
      </FormControl>
      {values.ends === 'date' && <IsoDateField label="End date" {...form.dateField('endDate')} required />}
      {values.ends === 'count' && (
        <TextField
          label="Number of invoices"
          name="count"
          value={values.count}
          onChange={(event) => set('count', event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 4 } }}
          required
        />
      )}
      <TextField
        label="Due after (days)"
        name="dueDays"
        value={values.dueDays}
        onChange={(event) => set('dueDays', event.target.value)}
        helperText="Days between the invoice date and its due date."
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
      />
      <FormControlLabel
        control={
          <Checkbox
            name="autopay"
            checked={values.autopay}
            onChange={(event) => set('autopay', event.target.checked)}
          />
        }
        label="Pay automatically on the due date"
      />
      {values.autopay && (
        <PaymentMethodField
          label="Payment method"
          value={values.method}
          onChange={(code) => set('method', code)}
          required
        />
      )}
      <Dialog
        open={question !== null}
        onClose={save.isPending ? undefined : () => setQuestion(null)}
        aria-labelledby={questionTitleId}
        maxWidth="xs"
      >
        <DialogTitle id={questionTitleId}>
          {question && question.ask.duplicates > 0 ? 'Some of these invoices exist already' : 'Create past invoices?'}
        </DialogTitle>
        <DialogContent>
          {question?.ask.lines.map((line) => (
            <DialogContentText key={line} sx={{ mb: 1 }}>
              {line}
            </DialogContentText>
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setQuestion(null)} disabled={save.isPending}>
            Go back
          </Button>
          {question && question.ask.duplicates > 0 ? (
            <>
              <Button onClick={() => send(question.body, 'create', 0)} disabled={save.isPending} color="warning">
                {`Create all ${question.ask.created}`}
              </Button>
              <Button
                onClick={() => send(question.body, 'skip', question.ask.duplicates)}
                disabled={save.isPending}
                variant="contained"
                autoFocus
              >
                Skip existing
              </Button>
            </>
          ) : (
            question && (
              <Button
                onClick={() => send(question.body, null, 0)}
                disabled={save.isPending}
                variant="contained"
                autoFocus
              >
                {`Create ${question.ask.created} invoice${question.ask.created === 1 ? '' : 's'}`}
              </Button>
            )
          )}
        </DialogActions>
      </Dialog>
      <Typography variant="body2" color="text.secondary" data-testid="schedule-preview">
        {upcoming.length === 0
          ? 'No invoice will be created with these settings.'
          : `${cadenceLabel({
              cadence: values.cadence,
              interval: Number(values.interval) || 1,
              dayOfMonth: weekly ? null : Number(values.dayOfMonth),
            })}. Next invoices: ${upcoming.join(', ')}.`}
        {atOnce > MAX_CATCH_UP
          ? ` A new schedule creates at most ${MAX_CATCH_UP} invoices dated up to today: pick a later first date.`
          : atOnce > 0 && ` ${atOnce} invoice${atOnce === 1 ? '' : 's'} dated up to today will be created at once.`}
      </Typography>
    </FormDialog>
  );
}
