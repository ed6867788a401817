import DialogContentText from '@mui/material/DialogContentText';
import { useSetCalendarFeed } from '../../api/account/set-calendar-feed.ts';
import { failureMessage, serverReason } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { useAccountNotice } from './use-account-notice.ts';
import { useCurrentPassword } from './use-current-password.tsx';

interface Props {
  open: boolean;
  /** A feed is on already: this makes a new address and stops the old one. */
  regenerate: boolean;
  onClose: () => void;
  /** The new address, shown once. */
  onMade: (url: string | null) => void;
}

/**
 * Turning the calendar feed on, or giving it a new address, asks for the current password
 * (docs/decisions/1002-calendar-feed.md): the address reads the ledger without a session for as long as it lives.
 */
export function CalendarFeedDialog({ open, regenerate, onClose, onMade }: Props) {
  const { password, error, setError, missing, reset, field } = useCurrentPassword();
  const setFeed = useSetCalendarFeed();
  const notify = useAccountNotice();
  const failed = regenerate ? 'Failed to make a new address.' : 'Failed to turn on the calendar feed.';

  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    const problem = missing();
    setError(problem);
    if (problem) return;
    const outcome = await setFeed.mutateAsync({ enabled: true, password });
    if (!outcome.ok) {
      notify(failureMessage(outcome, { failed, error: failed }), 'error');
      // The dialog stays open with the server's reason (a wrong password, too many tries) where the user looks.
      setError(serverReason(outcome) ?? failed);
      return;
    }
    onMade(outcome.data.url ?? null);
    close();
  };

  return (
    <FormDialog
      open={open}
      title={regenerate ? 'New Calendar Address' : 'Turn On Calendar Feed'}
      submitLabel={regenerate ? 'Make New Address' : 'Turn On'}
      error={error}
      onDismissError={() => setError(null)}
      busy={setFeed.isPending}
      onSubmit={submit}
      onClose={close}
    >
      <DialogContentText>
        {regenerate
          ? 'Calendars subscribed to the current address stop updating. Enter your password to make a new one.'
          : 'Anyone with the feed’s address can read your due dates. Enter your password to make one.'}
      </DialogContentText>
      {field}
    </FormDialog>
  );
}
