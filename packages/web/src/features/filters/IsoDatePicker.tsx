import { MAX_DATE, MIN_DATE } from '@billfold/contract/dates';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';

const MIN = dayjs(MIN_DATE);
const MAX = dayjs(MAX_DATE);

export interface IsoDatePickerProps {
  label: string;
  /** `YYYY-MM-DD` or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  width: number;
  error?: string | null;
}

/**
 * A date picker bounded to 1900-01-01 … 2099-12-31 (spec §5) that speaks `YYYY-MM-DD`. A half-typed or
 * out-of-range date stays in the field without changing the filters; clearing the field empties that side.
 */
export function IsoDatePicker({ label, value, onChange, width, error }: IsoDatePickerProps) {
  const [shown, setShown] = useState<Dayjs | null>(() => (value ? dayjs(value) : null));
  const [shownFor, setShownFor] = useState(value);
  // Follow changes made elsewhere (date mode switch, Clear Filters) without undoing what is being typed.
  if (shownFor !== value) {
    setShownFor(value);
    const current = shown?.isValid() ? shown.format('YYYY-MM-DD') : null;
    if (current !== value) setShown(value ? dayjs(value) : null);
  }
  return (
    <DatePicker
      label={label}
      value={shown}
      minDate={MIN}
      maxDate={MAX}
      format="YYYY-MM-DD"
      onChange={(next) => {
        setShown(next);
        if (next === null) {
          setShownFor(null);
          onChange(null);
        } else if (next.isValid() && !next.isBefore(MIN, 'day') && !next.isAfter(MAX, 'day')) {
          const iso = next.format('YYYY-MM-DD');
          setShownFor(iso);
          onChange(iso);
        }
      }}
      slotProps={{
        field: { clearable: true },
        textField: {
          size: 'small',
          // 160px (range mode, spec §9) holds YYYY-MM-DD, the clear and the calendar buttons only when packed tight.
          sx:
            width < 200
              ? {
                  width,
                  '& .MuiPickersInputBase-root': { pl: 1.25, pr: 0.25, fontSize: '0.9rem' },
                  '& .MuiInputAdornment-root': { ml: 0 },
                  '& .MuiInputAdornment-root .MuiIconButton-root': { p: 0.5 },
                }
              : { width },
          error: Boolean(error),
          helperText: error ?? undefined,
        },
      }}
    />
  );
}
