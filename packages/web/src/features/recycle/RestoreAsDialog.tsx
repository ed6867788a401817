import { useState } from 'react';
import { useUpdateEntity } from '../../api/entities/update-entity.ts';
import { serverReason } from '../../api/outcome.ts';
import { EntityNameField } from '../../components/EntityNameField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { entityNameProblem } from '../../lib/entity-form.ts';
import { suggestedName } from './restore-message.ts';

export interface RestoreAsTarget {
  id: number;
  name: string;
  /** Why the plain restore was refused, in the server's words. */
  reason: string | null;
}

interface Props {
  target: RestoreAsTarget;
  onRestored: () => void;
  onClose: () => void;
}

/** Restores a deleted entity whose name is taken now, under a name the user picks. Rendered only while open. */
export function RestoreAsDialog({ target, onRestored, onClose }: Props) {
  const [name, setName] = useState(() => suggestedName(target.name));
  const [error, setError] = useState<string | null>(target.reason);
  const update = useUpdateEntity();

  const submit = async () => {
    const problem = entityNameProblem(name);
    setError(problem);
    if (problem) return;
    const outcome = await update.mutateAsync({ id: target.id, recycle: false, name: name.trim() });
    if (!outcome.ok) {
      setError(serverReason(outcome) ?? 'Restore failed');
      return;
    }
    onRestored();
  };

  return (
    <FormDialog
      open
      title="Restore Under Another Name"
      submitLabel="Restore"
      error={error}
      onDismissError={() => setError(null)}
      busy={update.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <EntityNameField
        value={name}
        onChange={setName}
        autoFocus
        helperText={`Another entity is named "${target.name}" now.`}
      />
    </FormDialog>
  );
}
