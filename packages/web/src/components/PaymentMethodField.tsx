import {
  PAYMENT_METHOD_CODES,
  PAYMENT_METHOD_GROUPS,
  type PaymentMethodCode,
  paymentMethodLabel,
} from '@billfold/contract/payment-methods';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

/** Electronic, Paper or Other, for the picker's group headings. */
const METHOD_GROUP = Object.fromEntries(
  PAYMENT_METHOD_GROUPS.flatMap(({ group, codes }) => codes.map((code) => [code, group])),
) as Record<PaymentMethodCode, string>;

export interface PaymentMethodFieldProps {
  value: PaymentMethodCode | '';
  onChange: (code: PaymentMethodCode | '') => void;
  label?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
}

/** Matches the label ignoring case and the spaces around what is typed (`"ach "` finds Bank (ACH)). */
const filterMethods = createFilterOptions<PaymentMethodCode>({ stringify: paymentMethodLabel, trim: true });

/** The one picker of the 12 payment methods, grouped (payment form, automatic payments of a schedule). */
export function PaymentMethodField({
  value,
  onChange,
  label = 'Method',
  required = false,
  disabled = false,
  error = false,
}: PaymentMethodFieldProps) {
  return (
    <Autocomplete<PaymentMethodCode, false, false>
      options={PAYMENT_METHOD_CODES}
      groupBy={(code) => METHOD_GROUP[code]}
      getOptionLabel={paymentMethodLabel}
      filterOptions={filterMethods}
      value={value === '' ? null : value}
      onChange={(_event, code) => onChange(code ?? '')}
      disabled={disabled}
      autoHighlight
      renderInput={(params) => <TextField {...params} label={label} name="method" required={required} error={error} />}
    />
  );
}
