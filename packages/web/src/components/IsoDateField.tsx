import { MAX_DATE, MIN_DATE } from '@billfold/contract/dates';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { useRef, useState } from 'react';
import { dateFieldProblem } from '../lib/date-field.ts';

export interface IsoDateFieldProps {
  label: string;
  /** `YYYY-MM-DD`, or `''` when empty. */
  value: string;
  /**
   * Every edit: a whole date in range (`problem` null), `''` with a null `problem` when the field was cleared, or
   * `''` with the `problem` the field now shows (half-typed, impossible like 2026-11-31, or out of range). The
   * owner must not act on the field while it has a problem: what a field shows is what is applied.
   */
  onChange: (value: string, problem: string | null) => void;
  /** Small and this many pixels wide (the filter panel); full width otherwise. */
  width?: number;
  clearable?: boolean;
  disabled?: boolean;
  required?: boolean;
  /** An error of the owner's (e.g. a start after the end); the field's own problem shows first. */
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

/** 160px (range mode; docs/product.md, Timings and limits) holds YYYY-MM-DD, the clear and the calendar buttons only when packed tight. */
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
 * The app's one date field: a picker bounded to 1900-01-01 … 2099-12-31 (docs/product.md, Validation) that speaks the API's
 * `YYYY-MM-DD`, shown in the same form. A half-typed, impossible or out-of-range date stays as typed, with its
 * problem under the field, and reaches the owner as that problem, never as some other date.
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
  const [seen, setSeen] = useState(value);
  const [problem, setProblem] = useState<string | null>(null);
  // A new value from outside (Use Invoice Date, a restored filter) replaces what is in the field and its problem;
  // an owner that keeps its last date (or `''`) while the field shows a problem leaves what was typed alone.
  if (seen !== value) {
    setSeen(value);
    if (toIso(picked) !== value) {
      setPicked(toDay(value));
      setProblem(null);
    }
  }
  // Sections typed into an empty field (`2026-MM-DD`) publish no value: the field's hidden input, which holds what
  // the sections show, tells a half-typed date from an empty field.
  const hiddenInput = useRef<HTMLInputElement>(null);
  const notePartialDate = () => {
    if (picked !== null) return;
    const partial = (hiddenInput.current?.value ?? '') === '' ? null : dateFieldProblem('invalidDate');
    if (partial === problem) return;
    setProblem(partial);
    onChange('', partial);
  };
  const shownHelp = problem ?? helperText;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <DatePicker
        label={label}
        value={picked}
        format={FORMAT}
        minDate={MIN}
        maxDate={MAX}
        disabled={disabled ?? false}
        onChange={(next, context) => {
          const iso = toIso(next);
          const nextProblem =
            next === null ? null : dateFieldProblem(iso ? null : (context.validationError ?? 'invalidDate'));
          setPicked(next);
          setProblem(nextProblem);
          onChange(iso, nextProblem);
        }}
        slotProps={{
          ...(clearable ? { field: { clearable: true } } : {}),
          textField: {
            ...(width === undefined ? { fullWidth: true } : { size: 'small' as const, sx: widthSx(width) }),
            required: required ?? false,
            error: Boolean(problem) || (error ?? false),
            ...(shownHelp ? { helperText: shownHelp } : {}),
            ...(name ? { name } : {}),
            inputRef: hiddenInput,
            onKeyUp: notePartialDate,
            onBlur: notePartialDate,
          },
        }}
      />
    </LocalizationProvider>
  );
}
