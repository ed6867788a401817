import { MAX_DATE, MIN_DATE } from '@billfold/contract/dates';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';

export interface IsoDateFieldProps {
  label: string;
  /** `YYYY-MM-DD`, or `''` when empty. */
  value: string;
  /** A whole date in range, `''` when the field is cleared, or `null` while what is typed is not (yet) one. */
  onChange: (value: string | null) => void;
  /** Small and this many pixels wide (the filter panel); full width otherwise. */
  width?: number;
  clearable?: boolean;
  disabled?: boolean;
  required?: boolean;
  error?: boolean;
  helperText?: string | undefined;
  name?: string;
}

const FORMAT = 'YYYY-MM-DD';
const MIN = dayjs(MIN_DATE);
const MAX = dayjs(MAX_DATE);

function toIso(date: Dayjs | null): string {
  return date?.isValid() && !date.isBefore(MIN, 'day') && !date.isAfter(MAX, 'day') ? date.format(FORMAT) : '';
}

/** A value that is not a date in range shows as empty. */
function toDay(value: string): Dayjs | null {
  return value && toIso(dayjs(value)) === value ? dayjs(value) : null;
}

/** 160px (range mode, spec §9) holds YYYY-MM-DD, the clear and the calendar buttons only when packed tight. */
function widthSx(width: number) {
  return width < 200
    ? {
        width,
        '& .MuiPickersInputBase-root': { pl: 1.25, pr: 0.25, fontSize: '0.9rem' },
        '& .MuiInputAdornment-root': { ml: 0 },
        '& .MuiInputAdornment-root .MuiIconButton-root': { p: 0.5 },
      }
    : { width };
}

/**
 * A date picker bounded to 1900-01-01 … 2099-12-31 (spec §5) that speaks the API's `YYYY-MM-DD`, shown in the
 * same form. It keeps the half-typed date itself, so the owner only ever sees a whole date, `''` or `null`.
 */
export function IsoDateField({
  label,
  value,
  onChange,
  width,
  clearable,
  disabled,
  required,
  error,
  helperText,
  name,
}: IsoDateFieldProps) {
  const [picked, setPicked] = useState<Dayjs | null>(() => toDay(value));
  const [pickedFor, setPickedFor] = useState(value);
  // A new value from outside (Use Invoice Date, Clear Filters) replaces what is in the field; a half-typed date
  // stays, also when its owner took it as empty.
  if (pickedFor !== value) {
    setPickedFor(value);
    if (toIso(picked) !== value) setPicked(toDay(value));
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
          const iso = toIso(next);
          if (next === null || iso) {
            setPickedFor(iso);
            onChange(iso);
          } else {
            onChange(null);
          }
        }}
        slotProps={{
          ...(clearable ? { field: { clearable: true } } : {}),
          textField: {
            ...(width === undefined ? { fullWidth: true } : { size: 'small' as const, sx: widthSx(width) }),
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
