import TextField from '@mui/material/TextField';

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** The contract's length limit for this name (ledger, category, API token). */
  maxLength: number;
  /** The form field's name; `name` unless the dialog holds another. */
  name?: string;
  helperText?: string;
}

/** The name field of the dialogs that create or rename something: required, focused first, the contract's limit. */
export function NameField({ value, onChange, maxLength, name = 'name', helperText }: Props) {
  return (
    <TextField
      label="Name"
      name={name}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      autoFocus
      fullWidth
      helperText={helperText}
      slotProps={{ htmlInput: { maxLength } }}
    />
  );
}
