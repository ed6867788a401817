import { ledgerName, MAX_LEDGER_NAME } from '@billfold/contract/ledgers';
import { useState } from 'react';
import { FormDialog } from '../../components/FormDialog.tsx';
import { NameField } from '../../components/NameField.tsx';

/** The one field of a new or renamed ledger: trimmed, 1 to 100 characters (the contract's `ledgerName`). */
export function NameDialog({
  title,
  submitLabel,
  initial = '',
  busy,
  error,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  initial?: string;
  busy: boolean;
  /** The server's refusal, shown above the field. */
  error: string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    const parsed = ledgerName.safeParse(name);
    if (!parsed.success) {
      setProblem(
        name.trim() === ''
          ? 'Give the ledger a name.'
          : `The name ${parsed.error.issues[0]?.message ?? 'is not valid'}.`,
      );
      return;
    }
    onSubmit(parsed.data);
  };
  return (
    <FormDialog
      open
      title={title}
      submitLabel={submitLabel}
      busy={busy}
      error={problem ?? error}
      onDismissError={() => setProblem(null)}
      onSubmit={submit}
      onClose={onClose}
    >
      <NameField
        value={name}
        onChange={(value) => {
          setName(value);
          setProblem(null);
        }}
        maxLength={MAX_LEDGER_NAME}
      />
    </FormDialog>
  );
}
