import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { type FormEvent, type ReactNode, useId } from 'react';

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
