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
 * why until the box loses focus (docs/decisions/0602-date-and-amount-input.md): the next accepted key does not
 * take the reason away, so `-5` typed fast still says the minus sign was not taken.
 */
export function AmountTextField({ onChange, error, helperText, ...props }: AmountTextFieldProps) {
  const [refused, setRefused] = useState<string | null>(null);
  return (
    <TextField
      label="Amount"
      name="amount"
      {...props}
      onChange={(event) => {
        const read = readAmountInput(event.target.value);
        if (read.error !== null) setRefused(read.error);
        else onChange(read.text);
      }}
      onBlur={() => setRefused(null)}
      error={Boolean(refused) || Boolean(error)}
      helperText={refused ?? helperText}
      slotProps={AMOUNT_SLOT_PROPS}
    />
  );
}
