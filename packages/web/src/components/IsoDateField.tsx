import { MAX_DATE, MIN_DATE } from '@billfold/contract/dates';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';

export interface IsoDateFieldProps {
  label: string;
  /** `YYYY-MM-DD`, or `''` when empty or not a whole date yet. */
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  required?: boolean;
  error?: boolean;
  helperText?: string;
  name?: string;
}

const FORMAT = 'YYYY-MM-DD';
const MIN = dayjs(MIN_DATE);
const MAX = dayjs(MAX_DATE);

function toIso(date: Dayjs | null): string {
  return date?.isValid() && !date.isBefore(MIN, 'day') && !date.isAfter(MAX, 'day') ? date.format(FORMAT) : '';
}

/**
 * A date picker whose value is the API's `YYYY-MM-DD` text (within 1900-01-01..2099-12-31), shown in the same
 * form. It keeps the half-typed date itself, so the form only ever sees a whole date or `''`.
 */
export function IsoDateField({
  label,
  value,
  onChange,
  disabled,
  required,
  error,
  helperText,
  name,
}: IsoDateFieldProps) {
  // A value that is not a date in range shows as empty (and cannot make the check below repeat forever).
  const wanted = value && toIso(dayjs(value)) === value ? value : '';
  const [picked, setPicked] = useState<Dayjs | null>(() => (wanted ? dayjs(wanted) : null));
  // A new value from outside (e.g. Use Invoice Date) replaces what is in the field; a half-typed date stays.
  if (wanted !== toIso(picked) && !(wanted === '' && picked !== null && toIso(picked) === '')) {
    setPicked(wanted ? dayjs(wanted) : null);
  }
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <DatePicker
        label={label}
        value={picked}
        format={FORMAT}
        minDate={MIN}
        maxDate={MAX}
        disabled={disabled ?? false}
        onChange={(next) => {
          setPicked(next);
          onChange(toIso(next));
        }}
        slotProps={{
          textField: {
            fullWidth: true,
            required: required ?? false,
            error: error ?? false,
            ...(helperText ? { helperText } : {}),
            ...(name ? { name } : {}),
          },
        }}
      />
    </LocalizationProvider>
  );
}
