import { useState } from 'react';
import { AmountTextField } from '../../components/AmountTextField.tsx';
import { parseAmountInput } from '../../lib/amount-input.ts';

export interface AmountFieldProps {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  error?: string | null;
}

/** A `$` amount: up to 9 digits and 2 decimals; empty is null. Values below 1 are kept but count as empty. */
export function AmountField({ label, value, onChange, error }: AmountFieldProps) {
  const [text, setText] = useState(value === null ? '' : String(value));
  // Clear Filters and restored state arrive as a new value; typing "12." keeps its dot.
  if (parseAmountInput(text) !== value) setText(value === null ? '' : String(value));
  return (
    <AmountTextField
      size="small"
      label={label}
      value={text}
      onChange={(next) => {
        setText(next);
        onChange(parseAmountInput(next));
      }}
      error={Boolean(error)}
      helperText={error ?? undefined}
      sx={{ width: 160 }}
    />
  );
}
