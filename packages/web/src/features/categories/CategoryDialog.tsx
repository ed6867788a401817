import { type CategoryFlow, type CategoryItem, MAX_CATEGORY_NAME } from '@billfold/contract/categories';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId, useState } from 'react';
import { useCreateCategory } from '../../api/categories/create-category.ts';
import { useUpdateCategory } from '../../api/categories/update-category.ts';
import { failureMessage, serverReason } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { NameField } from '../../components/NameField.tsx';
import { useNotice } from '../../components/notices.tsx';
import { categoryNameProblem } from './category-form.ts';

interface Props {
  open: boolean;
  /** The category being renamed, or null to add one. */
  category: CategoryItem | null;
  onClose: () => void;
}

/** Adds a category of the user's own, or renames one and changes its flow. */
export function CategoryDialog({ open, category, onClose }: Props) {
  const [name, setName] = useState('');
  const [flow, setFlow] = useState<CategoryFlow>('expense');
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  const create = useCreateCategory();
  const update = useUpdateCategory();
  const notify = useNotice();
  const flowLabel = useId();

  // Each opening starts from the category (or afresh).
  const openedWith = open ? String(category?.id ?? 'new') : null;
  if (openedWith !== shownFor) {
    setShownFor(openedWith);
    if (open) {
      setName(category?.name ?? '');
      setFlow(category?.flow ?? 'expense');
      setError(null);
    }
  }

  const editing = category?.id != null;
  const submit = async () => {
    const problem = categoryNameProblem(name);
    setError(problem);
    if (problem) return;
    const outcome =
      category?.id != null
        ? await update.mutateAsync({ id: category.id, name: name.trim(), flow })
        : await create.mutateAsync({ name: name.trim(), flow });
    if (!outcome.ok) {
      const messages = editing
        ? { failed: 'Failed to save category.', error: 'Error saving category.' }
        : { failed: 'Failed to add category.', error: 'Error adding category.' };
      notify(failureMessage(outcome, messages), { severity: 'error' });
      setError(serverReason(outcome));
      return;
    }
    notify(editing ? 'Category saved.' : 'Category added.', { severity: 'success' });
    onClose();
  };

  return (
    <FormDialog
      open={open}
      title={editing ? 'Edit Category' : 'New Category'}
      submitLabel={editing ? 'Save' : 'Add Category'}
      error={error}
      onDismissError={() => setError(null)}
      busy={create.isPending || update.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <NameField
        value={name}
        onChange={(value) => {
          setName(value);
          setError(null);
        }}
        maxLength={MAX_CATEGORY_NAME}
        helperText={editing ? 'Every entity and invoice in this category takes the new name.' : undefined}
      />
      <FormControl>
        <FormLabel id={flowLabel}>Used for</FormLabel>
        <RadioGroup
          row
          aria-labelledby={flowLabel}
          name="flow"
          value={flow}
          onChange={(e) => setFlow(e.target.value as CategoryFlow)}
        >
          <FormControlLabel value="expense" control={<Radio />} label="Expenses" />
          <FormControlLabel value="income" control={<Radio />} label="Income" />
        </RadioGroup>
        <FormHelperText sx={{ mx: 0 }}>New invoices of its entities start with this flow.</FormHelperText>
      </FormControl>
    </FormDialog>
  );
}
