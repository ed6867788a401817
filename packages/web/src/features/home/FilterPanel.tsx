import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useMemo } from 'react';
import { useEntities } from '../../api/entities/list-entities.ts';
import { useCategoryFilterOptions } from '../../components/CategorySelect.tsx';
import { ChipSelect } from '../../components/ChipSelect.tsx';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { FilterForm } from '../../components/FilterForm.tsx';
import { IsoDateField } from '../../components/IsoDateField.tsx';
import { AmountField } from './AmountField.tsx';
import {
  ARCHIVE_OPTIONS,
  archivesFromChoice,
  choiceFromArchives,
  cleanInvoiceInput,
  type DateMode,
  DUE_OPTIONS,
  FILES_OPTIONS,
  type FilterFields,
  FLOW_OPTIONS,
  hasErrors,
  INVOICE_MAX_LENGTH,
  isInvoiceKeyAllowed,
  NO_DATE_PROBLEMS,
  STATUS_OPTIONS,
  setDateField,
  switchDateMode,
} from './filter-model.ts';
import type { HomeFilters } from './use-home-filters.ts';

/** The filter panel (docs/product.md, Filter panel), with its date mode, validation and sizes. */
export function FilterPanel({ filters }: { filters: HomeFilters }) {
  const { draft, errors, clearCount, update, search, clear, showMoreOptions, setShowMoreOptions } = filters;
  const { fields, dateRange, dateMode } = draft;
  const bills = useEntities();
  const categoryOptions = useCategoryFilterOptions(fields.category);
  const entityOptions = useMemo(() => {
    const names = (bills.data ?? []).map((bill) => bill.name);
    // A saved choice stays visible even if that entity is gone.
    for (const name of fields.biller) if (!names.includes(name)) names.push(name);
    return names.map((name) => ({ value: name, label: name }));
  }, [bills.data, fields.biller]);

  const setField = <K extends keyof FilterFields>(key: K, value: FilterFields[K]) =>
    update((state) => ({ ...state, fields: { ...state.fields, [key]: value } }));
  const onDate = (side: 'start' | 'end') => (date: string, problem: string | null) =>
    update((state) => setDateField(state, side, date, problem));

  return (
    <FilterForm onSearch={search} sx={{ p: 2, minWidth: { md: 800 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label="Invoice #"
          value={fields.invoice}
          onKeyDown={(event) => {
            if (!isInvoiceKeyAllowed(event)) event.preventDefault();
          }}
          onChange={(event) => setField('invoice', cleanInvoiceInput(event.target.value))}
          error={Boolean(errors.invoice)}
          helperText={errors.invoice ?? undefined}
          sx={{ width: 200 }}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: INVOICE_MAX_LENGTH } }}
        />
        <ChipSelect
          label="Select Categories"
          options={categoryOptions}
          value={fields.category}
          onChange={(value) => setField('category', value)}
        />
        <ChipSelect
          label="Select Entities"
          options={entityOptions}
          value={fields.biller}
          onChange={(value) => setField('biller', value)}
        />
        {/* Clear Filters starts the date fields afresh, dropping what was typed. */}
        <Box key={clearCount} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            color="primary"
            aria-label="Date mode"
            value={dateMode}
            onChange={(_event, mode: DateMode | null) => {
              if (mode)
                update((state) => ({
                  ...state,
                  dateMode: mode,
                  dateRange: switchDateMode(state.dateRange, mode),
                  dateProblems: NO_DATE_PROBLEMS,
                }));
            }}
            sx={{ height: 40 }}
          >
            <ToggleButton value="single">Single Date</ToggleButton>
            <ToggleButton value="range">Date Range</ToggleButton>
          </ToggleButtonGroup>
          {dateMode === 'single' ? (
            <IsoDateField label="Date" width={320} clearable value={dateRange.start ?? ''} onChange={onDate('start')} />
          ) : (
            <>
              <IsoDateField
                label="Start Date"
                width={160}
                clearable
                value={dateRange.start ?? ''}
                error={Boolean(errors.date)}
                helperText={errors.date ?? undefined}
                onChange={onDate('start')}
              />
              <IsoDateField
                label="End Date"
                width={160}
                clearable
                value={dateRange.end ?? ''}
                onChange={onDate('end')}
              />
            </>
          )}
        </Box>
      </Box>

      <Collapse in={showMoreOptions} unmountOnExit>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', pt: 2 }}>
          {/* Level with the choice groups' buttons (below their captions); an error message grows downwards. */}
          <Box sx={{ display: 'flex', gap: 2, pt: 1.5 }}>
            <AmountField
              label="Min Amount"
              value={fields.amountMin}
              error={errors.amount}
              onChange={(value) => setField('amountMin', value)}
            />
            <AmountField
              label="Max Amount"
              value={fields.amountMax}
              onChange={(value) => setField('amountMax', value)}
            />
          </Box>
          <ChoiceGroup
            label="Status"
            options={STATUS_OPTIONS}
            value={fields.status}
            onChange={(value) => setField('status', value)}
          />
          <ChoiceGroup
            label="Flow"
            options={FLOW_OPTIONS}
            value={fields.flow}
            onChange={(value) => setField('flow', value)}
          />
          <ChoiceGroup
            label="Due"
            options={DUE_OPTIONS}
            value={fields.due}
            onChange={(value) => setField('due', value)}
          />
          <ChoiceGroup
            label="Files"
            options={FILES_OPTIONS}
            value={fields.files}
            onChange={(value) => setField('files', value)}
          />
          <ChoiceGroup
            label="Archives"
            options={ARCHIVE_OPTIONS}
            value={choiceFromArchives(draft.includeArchived)}
            onChange={(choice) => update((state) => ({ ...state, includeArchived: archivesFromChoice(choice) }))}
          />
        </Box>
      </Collapse>

      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', pt: 2 }}>
        <Button type="submit" variant="contained" disabled={hasErrors(errors)}>
          Search
        </Button>
        <Button type="button" variant="outlined" onClick={clear}>
          Clear Filters
        </Button>
        <FormControlLabel
          sx={{ ml: 1 }}
          control={
            <Checkbox checked={showMoreOptions} onChange={(event) => setShowMoreOptions(event.target.checked)} />
          }
          label="Show more options"
        />
      </Box>
    </FilterForm>
  );
}
