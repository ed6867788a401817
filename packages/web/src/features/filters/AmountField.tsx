import { isValidAmountInput } from '@billfold/contract/validation';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { AMOUNT_SLOT_PROPS } from '../../components/AmountTextField.tsx';

export interface AmountFieldProps {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  error?: string | null;
}

function parse(text: string): number | null {
  if (text === '' || text === '.') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** A `$` amount: up to 9 digits and 2 decimals; empty is null. Values below 1 are kept but count as empty. */
export function AmountField({ label, value, onChange, error }: AmountFieldProps) {
  const [text, setText] = useState(value === null ? '' : String(value));
  // Clear Filters and restored state arrive as a new value; typing "12." keeps its dot.
  if (parse(text) !== value) setText(value === null ? '' : String(value));
  return (
    <TextField
      size="small"
      label={label}
      value={text}
      onChange={(event) => {
        const next = event.target.value.trim();
        if (!isValidAmountInput(next)) return;
        setText(next);
        onChange(parse(next));
      }}
      error={Boolean(error)}
      helperText={error ?? undefined}
      sx={{ width: 160 }}
      slotProps={AMOUNT_SLOT_PROPS}
    />
  );
}
