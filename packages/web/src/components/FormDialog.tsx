import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import type { Failure } from '../api/outcome.ts';
import { failureMessage, serverReason } from '../api/outcome.ts';
import { useNotice } from './notices.tsx';

export interface FormDialogProps {
  open: boolean;
  title: string;
  submitLabel: string;
  /** A validation message shown above the fields (dismissible). */
  error?: string | null;
  onDismissError?: () => void;
  busy?: boolean;
  destructive?: boolean;
  /** No Cancel button: for a last step that only acknowledges what was done (e.g. codes shown once). */
  hideCancel?: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** A dialog holding a small form: Enter submits, the error shows as an alert above the fields. */
export function FormDialog({
  open,
  title,
  submitLabel,
  error,
  onDismissError,
  busy = false,
  destructive = false,
  hideCancel = false,
  onSubmit,
  onClose,
  children,
}: FormDialogProps) {
  const titleId = useId();
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Dialog
      open={open}
      onClose={busy || hideCancel ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form onSubmit={handleSubmit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error && (
              <Alert severity="error" {...(onDismissError ? { onClose: onDismissError } : {})}>
                {error}
              </Alert>
            )}
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          {!hideCancel && (
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
          )}
          <Button type="submit" variant="contained" color={destructive ? 'error' : 'primary'} disabled={busy}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The keys of a form whose values are text: the ones a date box can hold. */
type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/**
 * The state of a form in a `FormDialog`: its values, an error that any change clears, what each date box says
 * about its text (`IsoDateField` reports a problem with every change, and shows it itself), and the failure
 * report of a save: the notice of docs/product.md, Messages, and the server's reason above the fields.
 */
export function useFormDialogState<T extends object>(initial: () => T) {
  const [values, setValues] = useState<T>(initial);
  const [error, setError] = useState<string | null>(null);
  const [dateProblems, setDateProblems] = useState<Partial<Record<keyof T, string | null>>>({});
  const notify = useNotice();

  const set = <K extends keyof T>(key: K, value: T[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setError(null);
  };
  /** A date box's new text and its problem (null for a good date or an empty box). */
  const setDate = <K extends TextKey<T>>(key: K, value: T[K], problem: string | null = null) => {
    set(key, value);
    setDateProblems((current) => ({ ...current, [key]: problem }));
  };
  return {
    values,
    set,
    setDate,
    error,
    setError,
    /** The `FormDialog` props that show the error above the fields, dismissible. */
    errorProps: { error, onDismissError: () => setError(null) },
    /** The props that bind an `IsoDateField` to `key`. */
    dateField: <K extends TextKey<T>>(key: K) => ({
      name: String(key),
      value: values[key] as string,
      onChange: (value: string, problem: string | null) => setDate(key, value as T[K], problem),
    }),
    /** The first problem of the named date boxes; nothing is sent while there is one. */
    dateProblem: (...keys: TextKey<T>[]) => keys.map((key) => dateProblems[key] ?? null).find(Boolean) ?? null,
    /** A save the server refused or that got no answer: the notice, and the server's reason above the fields. */
    reportFailure: (failure: Failure, messages: { failed: string; error: string }) => {
      notify(failureMessage(failure, messages), { severity: 'error' });
      setError(serverReason(failure));
    },
  };
}
