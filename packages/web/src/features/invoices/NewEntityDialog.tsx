import type { Bill } from '@billfold/contract/bills';
import { DEFAULT_CATEGORY } from '@billfold/contract/categories';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useState } from 'react';
import { useCreateEntity } from '../../api/entities/create-entity.ts';
import { failureMessage, serverReason } from '../../api/outcome.ts';
import { CategorySelect } from '../../components/CategorySelect.tsx';
import { EntityNameField } from '../../components/EntityNameField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { useNotice } from '../../components/notices.tsx';
import { entityNameProblem } from '../../lib/entity-form.ts';

interface Props {
  open: boolean;
  /** What the user typed in the entity picker. */
  initialName: string;
  onCreated: (bill: Bill) => void;
  onClose: () => void;
}

/** Creates an entity without leaving the invoice form; the new entity is then picked. */
export function NewEntityDialog({ open, initialName, onCreated, onClose }: Props) {
  const [name, setName] = useState(initialName);
  const [category, setCategory] = useState<string>(DEFAULT_CATEGORY);
  const [internal, setInternal] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  const create = useCreateEntity();
  const notify = useNotice();

  // Each opening starts from what the picker held.
  const openedWith = open ? initialName : null;
  if (openedWith !== shownFor) {
    setShownFor(openedWith);
    if (open) {
      setName(initialName);
      setCategory(DEFAULT_CATEGORY);
      setInternal(false);
      setError(null);
    }
  }

  const submit = async () => {
    const problem = entityNameProblem(name);
    setError(problem);
    if (problem) return;
    const outcome = await create.mutateAsync({ name: name.trim(), category, internal });
    if (!outcome.ok) {
      notify(failureMessage(outcome, { failed: 'Failed to create entity', error: 'Error creating entity' }), {
        severity: 'error',
      });
      // The server says why (e.g. the name is taken); keep the dialog open with its reason.
      setError(serverReason(outcome));
      return;
    }
    notify('Entity created', { severity: 'success' });
    onCreated(outcome.data);
  };

  return (
    <FormDialog
      open={open}
      title="New Entity"
      submitLabel="Create Entity"
      error={error}
      onDismissError={() => setError(null)}
      busy={create.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <EntityNameField value={name} onChange={setName} autoFocus />
      <CategorySelect value={category} onChange={setCategory} />
      <FormControlLabel
        control={<Checkbox checked={internal} onChange={(event) => setInternal(event.target.checked)} />}
        label="Internal"
      />
    </FormDialog>
  );
}
