import type { Bill } from '@billfold/contract/bills';
import type { Entry } from '@billfold/contract/entries';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useUploadAttachment } from '../../api/attachments/upload-attachment.ts';
import { useCreateInvoice } from '../../api/invoices/create-invoice.ts';
import { useUpdateInvoice } from '../../api/invoices/update-invoice.ts';
import { failureMessage } from '../../api/outcome.ts';
import { usePayments } from '../../api/payments/list-payments.ts';
import { AmountTextField } from '../../components/AmountTextField.tsx';
import { ArchivedBanner } from '../../components/ArchivedBanner.tsx';
import { useCategoryFlow } from '../../components/CategorySelect.tsx';
import { IsoDateField } from '../../components/IsoDateField.tsx';
import { useNotice } from '../../components/notices.tsx';
import { SaveAnywayDialog } from '../../components/SaveAnywayDialog.tsx';
import { useDelayedNavigate } from '../../lib/use-delayed-navigate.ts';
import {
  archivedEntityNotice,
  checkInvoiceForm,
  dueDateProblem,
  type EntityOption,
  entityPickerOptions,
  findEntityByName,
  flowFor,
  type InvoiceField,
  type InvoiceFormValues,
  invoiceEditWarnings,
  pathAfterSave,
  toEntryBody,
} from './invoice-form.ts';
import { NewEntityDialog } from './NewEntityDialog.tsx';

const ATTACH_FAILED = {
  failed: 'Invoice created, but its file could not be attached: add it on the invoice page.',
  error: 'Invoice created, but its file could not be attached: add it on the invoice page.',
} as const;

const MESSAGES = {
  create: { failed: 'Failed to create invoice.', error: 'Error creating invoice.' },
  update: { failed: 'Failed to update invoice.', error: 'Error updating invoice.' },
} as const;

interface Props {
  mode: 'create' | 'update';
  /** The invoice being edited. */
  entry: Entry | null;
  /** The entities that can be picked (the active ones, plus an edited invoice's own). */
  entities: readonly Bill[];
  /** Archived entities: typing one's name says it is archived instead of offering to add it. */
  archivedEntities: readonly Bill[];
  initial: InvoiceFormValues;
  /** The archived entity an `?entityName=` link named: said to be archived from the start. */
  linkedArchivedName?: string | null;
  /** Fields filled from a bill's file ("Invoice from a file"): marked until changed. */
  readFields?: readonly InvoiceField[];
  /** The bill's file, attached to the invoice once it is created. */
  attachFile?: File | null;
}

/** What a field filled from a bill's file says under it. */
const READ_FROM_FILE = 'Read from the file: check it.';

export function InvoiceForm({
  mode,
  entry,
  entities,
  archivedEntities,
  initial,
  linkedArchivedName = null,
  readFields = [],
  attachFile = null,
}: Props) {
  const [values, setValues] = useState(initial);
  const [fromFile, setFromFile] = useState<readonly InvoiceField[]>(readFields);
  const upload = useUploadAttachment();
  const [extraEntities, setExtraEntities] = useState<Bill[]>([]);
  const [missing, setMissing] = useState<InvoiceField[]>([]);
  const [dateProblem, setDateProblem] = useState<string | null>(null);
  const [dueFieldProblem, setDueFieldProblem] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  // The archived entity last typed (or linked): said to be archived until another name is typed or picked.
  const [archivedName, setArchivedName] = useState<string | null>(linkedArchivedName);
  const [newEntityName, setNewEntityName] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const create = useCreateInvoice();
  const update = useUpdateInvoice();
  // An edit's payments: the edit asks before it leaves them overpaying or dated before the invoice.
  const payments = usePayments(mode === 'update' && entry ? entry.entryId : null);
  const [warnings, setWarnings] = useState<string[] | null>(null);
  const notify = useNotice();
  const navigateSoon = useDelayedNavigate();
  const categoryFlow = useCategoryFlow();

  const readOnly = entry?.archived ?? false;
  const busy = create.isPending || update.isPending || saved;
  const disabled = readOnly || busy;
  // Stable option objects: the picker resets its text whenever its value is a new object.
  const options = useMemo<EntityOption[]>(
    () =>
      [...extraEntities, ...entities.filter((e) => !extraEntities.some((x) => x.id === e.id))].map((bill) => ({
        kind: 'entity',
        bill,
      })),
    [entities, extraEntities],
  );
  const selectedOption = options.find((o) => o.kind === 'entity' && o.bill.id === values.billId) ?? null;
  const selected = selectedOption?.kind === 'entity' ? selectedOption.bill : null;
  const entityInternal = selected?.internal ?? false;

  const set = <K extends keyof InvoiceFormValues>(key: K, value: InvoiceFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setMissing((current) => current.filter((field) => field !== key));
    setFromFile((current) => current.filter((field) => field !== key));
  };
  const readHelp = (field: InvoiceField) => (fromFile.includes(field) ? READ_FROM_FILE : undefined);

  const pickEntity = (bill: Bill | null) => {
    setValues((current) => ({
      ...current,
      billId: bill?.id ?? null,
      flow: bill
        ? flowFor(current.flow, bill.internal, categoryFlow(bill.category))
        : current.flow === 'internal'
          ? ''
          : current.flow,
    }));
    setMissing((current) => current.filter((field) => field !== 'billId' && (!bill?.internal || field !== 'flow')));
    setFromFile((current) => current.filter((field) => field !== 'billId'));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };

  const save = async (anyway: boolean) => {
    if (disabled) return;
    const check = checkInvoiceForm(values, dateProblem, dueFieldProblem);
    setMissing(check.fields);
    setMessage(check.message);
    if (check.fields.length > 0) return;
    const body = toEntryBody(values);
    if (mode === 'create') {
      const outcome = await create.mutateAsync(body);
      if (!outcome.ok) {
        notify(failureMessage(outcome, MESSAGES.create), { severity: 'error' });
        return;
      }
      setSaved(true);
      if (attachFile) {
        // The bill's file goes with the invoice made from it; the invoice stands if the file cannot follow.
        const attached = await upload({ kind: 'entries', id: outcome.data.entryId }, attachFile, () => {});
        if (!attached.ok) {
          notify(failureMessage(attached, ATTACH_FAILED), { severity: 'warning' });
          navigateSoon(pathAfterSave('create', outcome.data.entryId));
          return;
        }
      }
      notify('Invoice created successfully!', { severity: 'success' });
      navigateSoon(pathAfterSave('create', outcome.data.entryId));
      return;
    }
    if (!entry) return;
    const slips = anyway ? [] : invoiceEditWarnings(values, entry, payments.data ?? []);
    setWarnings(slips.length > 0 ? slips : null);
    if (slips.length > 0) return;
    const outcome = await update.mutateAsync({ ...body, entryId: entry.entryId });
    if (!outcome.ok) {
      notify(failureMessage(outcome, MESSAGES.update), { severity: 'error' });
      return;
    }
    setSaved(true);
    notify('Invoice updated successfully!', { severity: 'success' });
    navigateSoon(pathAfterSave('update', entry.entryId));
  };

  const isMissing = (field: InvoiceField) => missing.includes(field);

  return (
    <>
      {readOnly && <ArchivedBanner />}
      <Stack
        component="form"
        spacing={2.5}
        onSubmit={submit}
        noValidate
        aria-label={mode === 'create' ? 'New invoice' : 'Edit invoice'}
      >
        {message && missing.length > 0 && (
          <Alert severity="error" onClose={() => setMessage(null)}>
            {message}
          </Alert>
        )}
        <Autocomplete<EntityOption, false, false, false>
          options={options}
          value={selectedOption}
          inputValue={typed}
          onInputChange={(_event, text, reason) => {
            setTyped(text);
            if (reason === 'input')
              setArchivedName(findEntityByName(archivedEntities, text.trim() || null)?.name ?? null);
          }}
          onChange={(_event, option) => {
            if (option?.kind === 'new') {
              setNewEntityName(option.name);
              return;
            }
            pickEntity(option?.kind === 'entity' ? option.bill : null);
          }}
          getOptionLabel={(option) => (option.kind === 'entity' ? option.bill.name : option.name)}
          getOptionKey={(option) => (option.kind === 'entity' ? option.bill.id : option.kind)}
          getOptionDisabled={(option) => option.kind === 'archived'}
          isOptionEqualToValue={(a, b) =>
            a.kind === 'entity' && b.kind === 'entity' ? a.bill.id === b.bill.id : a.kind === b.kind
          }
          filterOptions={(all, state) => entityPickerOptions(all, state.inputValue, archivedEntities)}
          renderOption={({ key, ...props }, option) => (
            <li key={key} {...props}>
              {option.kind === 'entity'
                ? option.bill.name
                : option.kind === 'archived'
                  ? `"${option.name}" is archived`
                  : option.name
                    ? `Add new entity "${option.name}"`
                    : 'Add new entity…'}
            </li>
          )}
          disabled={disabled}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Entity"
              name="entity"
              required
              error={isMissing('billId')}
              helperText={readHelp('billId')}
            />
          )}
        />
        {archivedName && !selected && (
          <Alert
            severity="info"
            action={
              <Button component={RouterLink} to="/archives" color="inherit" size="small">
                Archives
              </Button>
            }
          >
            {archivedEntityNotice(archivedName)}
          </Alert>
        )}
        <IsoDateField
          label="Date"
          name="date"
          value={values.date}
          onChange={(date, problem) => {
            set('date', date);
            setDateProblem(problem);
          }}
          required
          error={isMissing('date')}
          helperText={readHelp('date')}
          disabled={disabled}
        />
        <IsoDateField
          label="Due date"
          name="dueDate"
          value={values.dueDate}
          onChange={(dueDate, problem) => {
            set('dueDate', dueDate);
            setDueFieldProblem(problem);
          }}
          clearable
          error={isMissing('dueDate') || dueDateProblem(values) !== null}
          helperText={dueDateProblem(values) ?? readHelp('dueDate') ?? 'Optional: when it has to be paid.'}
          disabled={disabled}
        />
        <FormControl required error={isMissing('flow')} disabled={disabled}>
          <FormLabel id="invoice-flow-label">Flow</FormLabel>
          <RadioGroup
            row
            aria-labelledby="invoice-flow-label"
            name="flow"
            value={values.flow}
            onChange={(event) => set('flow', event.target.value as InvoiceFormValues['flow'])}
          >
            {entityInternal ? (
              <FormControlLabel value="internal" control={<Radio />} label="Internal" disabled />
            ) : (
              <>
                <FormControlLabel value="income" control={<Radio />} label="Income" />
                <FormControlLabel value="expense" control={<Radio />} label="Expense" />
              </>
            )}
          </RadioGroup>
          {entityInternal && (
            <FormHelperText>Invoices of an internal entity are always internal expenses.</FormHelperText>
          )}
        </FormControl>
        <AmountTextField
          value={values.amount}
          onChange={(amount) => set('amount', amount)}
          required
          error={isMissing('amount')}
          helperText={readHelp('amount')}
          disabled={disabled}
        />
        <TextField
          label="Description"
          name="services"
          value={values.services}
          onChange={(event) => set('services', event.target.value)}
          disabled={disabled}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to={entry ? `/entries/${entry.entryId}` : '/home'}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={disabled}>
            {mode === 'create' ? 'Create Invoice' : 'Save'}
          </Button>
        </Stack>
      </Stack>
      <SaveAnywayDialog
        title="Save this invoice?"
        warnings={warnings}
        busy={busy}
        onConfirm={() => save(true)}
        onCancel={() => setWarnings(null)}
      />
      <NewEntityDialog
        open={newEntityName !== null}
        initialName={newEntityName ?? ''}
        onClose={() => setNewEntityName(null)}
        onCreated={(bill) => {
          setExtraEntities((current) => [bill, ...current]);
          pickEntity(bill);
          setTyped(bill.name);
          setNewEntityName(null);
        }}
      />
    </>
  );
}
