import TextField, { type TextFieldProps } from '@mui/material/TextField';

/** The Entity Name box of every entity form: required, at most 100 characters (the server's limit). */
export function EntityNameField({
  onChange,
  ...props
}: Omit<TextFieldProps, 'onChange' | 'value'> & { value: string; onChange: (name: string) => void }) {
  return (
    <TextField
      label="Entity Name"
      name="name"
      required
      fullWidth
      {...props}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { maxLength: 100 } }}
    />
  );
}
