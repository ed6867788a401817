import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useState } from 'react';
import { readAmountInput } from '../lib/amount-input.ts';

/**
 * What every `$` amount box shows and lets a phone type (docs/product.md, Validation: 9 digits + 2 decimals). No `maxLength`: a
 * pasted `$1,234,567.89` is longer than the 12 characters it becomes.
 */
const AMOUNT_SLOT_PROPS = {
  htmlInput: { inputMode: 'decimal' },
  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
} as const;

export type AmountTextFieldProps = Omit<TextFieldProps, 'onChange' | 'slotProps' | 'value'> & {
  value: string;
  /** Text the box takes: what is being typed, or a pasted amount in plain form (`1234.56`). */
  onChange: (text: string) => void;
};

/**
 * A `$` amount box (invoice and payment forms, schedules, filter bounds). It takes text that can become an amount
 * and pasted amounts with a `$`, thousands separators or spaces; anything else leaves the box as it was and says
 * why (docs/decisions/0602-date-and-amount-input.md). The reason stays while the user types on, so `-5` typed fast
 * still says the minus sign was not taken, and also when the box loses focus, so that the page does not move under
 * a click on Save; it goes with the first accepted edit after the user has left the box, or when the form puts
 * another amount in it (Pay Remaining Balance, Clear Filters).
 */
export function AmountTextField({ value, onChange, error, helperText, ...props }: AmountTextFieldProps) {
  const [refusal, setRefusal] = useState<{ message: string; left: boolean; value: string } | null>(null);
  // An amount the form put in, not one this box took: the reason is about what was typed before.
  if (refusal && value !== refusal.value) setRefusal(null);
  return (
    <TextField
      label="Amount"
      name="amount"
      {...props}
      value={value}
      onChange={(event) => {
        const read = readAmountInput(event.target.value);
        if (read.error !== null) {
          setRefusal({ message: read.error, left: false, value });
          return;
        }
        setRefusal((current) => (current && !current.left ? { ...current, value: read.text } : null));
        onChange(read.text);
      }}
      onBlur={() => setRefusal((current) => current && { ...current, left: true })}
      error={Boolean(refusal) || Boolean(error)}
      helperText={refusal?.message ?? helperText}
      slotProps={AMOUNT_SLOT_PROPS}
    />
  );
}
