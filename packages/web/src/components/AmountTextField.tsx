import { AMOUNT_MAX_LENGTH } from '@billfold/contract/validation';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { acceptAmountInput } from '../lib/amount-input.ts';

/** What every `$` amount box shows and lets a phone type (spec §5: 9 digits + 2 decimals, length 12). */
export const AMOUNT_SLOT_PROPS = {
  htmlInput: { inputMode: 'decimal', maxLength: AMOUNT_MAX_LENGTH },
  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
} as const;

/** The Amount box of the invoice and payment forms: it takes only text that can become an amount. */
export function AmountTextField({
  onChange,
  ...props
}: Omit<TextFieldProps, 'onChange' | 'slotProps' | 'label' | 'name'> & { onChange: (text: string) => void }) {
  return (
    <TextField
      label="Amount"
      name="amount"
      {...props}
      onChange={(event) => {
        if (acceptAmountInput(event.target.value)) onChange(event.target.value);
      }}
      slotProps={AMOUNT_SLOT_PROPS}
    />
  );
}
