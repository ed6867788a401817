import { useFormControl } from '@mui/material/FormControl';
import type { ComponentPropsWithRef } from 'react';

/**
 * The element of every form helper text (set in the theme): while its field is in error it is an alert, so a
 * screen reader announces the message when it appears (e.g. `Min must be less than or equal to Max.`), not only
 * when the user returns to the field. Hints that are not errors stay quiet.
 */
export function AnnouncedHelperText(props: ComponentPropsWithRef<'p'>) {
  const error = useFormControl()?.error ?? false;
  return <p {...props} {...(error ? { role: 'alert' } : {})} />;
}
