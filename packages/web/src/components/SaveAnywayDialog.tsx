import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

export interface SaveAnywayDialogProps {
  title: string;
  /** The sentences that ask; the dialog is open while there are any. */
  warnings: readonly string[] | null;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before saving what the rules allow but is almost always a slip (docs/decisions/0605-money-entry-warnings.md):
 * each warning as a sentence, "Go back" (the default, to fix it) and "Save anyway".
 */
export function SaveAnywayDialog({ title, warnings, busy = false, onConfirm, onCancel }: SaveAnywayDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={warnings !== null && warnings.length > 0}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={titleId}
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {warnings?.map((warning) => (
          <DialogContentText key={warning} sx={{ mb: 1 }}>
            {warning}
          </DialogContentText>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          Go back
        </Button>
        <Button onClick={onConfirm} disabled={busy} color="warning" variant="contained">
          Save anyway
        </Button>
      </DialogActions>
    </Dialog>
  );
}
