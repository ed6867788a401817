import type { CategoryItem } from '@billfold/contract/categories';
import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useCategories } from '../../api/categories/list-categories.ts';
import { useUpdateCategory } from '../../api/categories/update-category.ts';
import { failureMessage } from '../../api/outcome.ts';
import { DividedList } from '../../components/DividedList.tsx';
import { ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageCard } from '../../components/PageCard.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { countOf } from '../../lib/format.ts';
import { CategoryDialog } from './CategoryDialog.tsx';

const RETIRE_FAILED = { failed: 'Failed to retire category.', error: 'Error retiring category.' };
const RESTORE_FAILED = { failed: 'Failed to restore category.', error: 'Error restoring category.' };

/** "Income · 2 entities", "Expenses · no entities". */
function usage(category: CategoryItem): string {
  const flow = category.flow === 'income' ? 'Income' : 'Expenses';
  return `${flow} · ${category.entities === 0 ? 'no entities' : countOf(category.entities, 'entity', 'entities')}`;
}

function OwnCategoryRow({
  category,
  busy,
  reason,
  onEdit,
  onRetire,
}: {
  category: CategoryItem;
  busy: boolean;
  /** Why Edit and Retire are disabled when the ledger is read-only for the user. */
  reason: string | null;
  onEdit: () => void;
  onRetire: (retired: boolean) => void;
}) {
  return (
    <Stack
      component="li"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={{ xs: 1, sm: 2 }}
      sx={{ py: 1.5, alignItems: { sm: 'center' } }}
    >
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography sx={{ overflowWrap: 'anywhere', color: category.retired ? 'text.secondary' : 'text.primary' }}>
            {category.name}
          </Typography>
          {category.retired && <Chip label="Retired" size="small" variant="outlined" />}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {usage(category)}
        </Typography>
      </Box>
      {/* On a phone the buttons' text lines up with the name above them. */}
      <Box sx={{ flexShrink: 0 }}>
        <Stack direction="row" spacing={1} sx={{ ml: { xs: -1, sm: 0 } }}>
          <ReadOnlyTip reason={reason}>
            <Button
              size="small"
              onClick={onEdit}
              disabled={busy || reason !== null}
              aria-label={`Edit ${category.name}`}
            >
              Edit
            </Button>
          </ReadOnlyTip>
          <ReadOnlyTip reason={reason}>
            <Button
              size="small"
              color={category.retired ? 'primary' : 'inherit'}
              onClick={() => onRetire(!category.retired)}
              disabled={busy || reason !== null}
              aria-label={`${category.retired ? 'Restore' : 'Retire'} ${category.name}`}
            >
              {category.retired ? 'Restore' : 'Retire'}
            </Button>
          </ReadOnlyTip>
        </Stack>
      </Box>
    </Stack>
  );
}

/**
 * `/categories` (docs/product.md, Categories (/categories)): the user's own categories beside the 21 built-in ones: add, rename,
 * change the flow, retire and restore (docs/decisions/0105-categories-of-your-own.md).
 */
export default function CategoriesPage() {
  const categories = useCategories();
  const update = useUpdateCategory();
  const notify = useNotice();
  const [editing, setEditing] = useState<CategoryItem | null>(null);
  const [adding, setAdding] = useState(false);
  const [working, setWorking] = useState<number | null>(null);
  const { readOnlyReason } = useLedgerAccess();

  const retire = async (category: CategoryItem, retired: boolean) => {
    if (category.id === null) return;
    setWorking(category.id);
    const outcome = await update.mutateAsync({ id: category.id, retired });
    setWorking(null);
    if (!outcome.ok) notify(failureMessage(outcome, retired ? RETIRE_FAILED : RESTORE_FAILED), { severity: 'error' });
    else if (retired)
      notify(
        category.entities > 0
          ? `Category retired: it stays on ${countOf(category.entities, 'entity', 'entities')}.`
          : 'Category retired.',
        { severity: 'success' },
      );
    else notify('Category restored.', { severity: 'success' });
  };

  const own = (categories.data ?? []).filter((c) => !c.builtIn);
  const builtIn = (categories.data ?? []).filter((c) => c.builtIn);
  return (
    <PageCard title="Categories" width={760} titleGap={1}>
      {categories.isPending && <PageProgress />}
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Add categories of your own for what the built-in ones do not cover, such as Salary or Refunds. Renaming one
        renames it on every entity; retiring one hides it from the pickers and keeps it on the entities that have it.
      </Typography>
      {categories.isError && <Alert severity="error">Failed to load categories.</Alert>}
      {categories.data && (
        <>
          {/* On a narrow phone the button goes under the heading rather than squeezing it. */}
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 1 }}
          >
            <Typography variant="h6" component="h2" sx={{ whiteSpace: 'nowrap' }}>
              Your categories
            </Typography>
            <ReadOnlyTip reason={readOnlyReason}>
              <Button
                variant="contained"
                startIcon={<Add />}
                onClick={() => setAdding(true)}
                disabled={readOnlyReason !== null}
                sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
              >
                Add Category
              </Button>
            </ReadOnlyTip>
          </Stack>
          {own.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 2 }}>
              You have no categories of your own yet.
            </Typography>
          ) : (
            <DividedList label="Your categories">
              {own.map((category) => (
                <OwnCategoryRow
                  key={category.id}
                  category={category}
                  busy={working === category.id}
                  reason={readOnlyReason}
                  onEdit={() => setEditing(category)}
                  onRetire={(retired) => retire(category, retired)}
                />
              ))}
            </DividedList>
          )}
          <Typography variant="h6" component="h2" sx={{ mt: 4, mb: 1.5 }}>
            Built-in categories
          </Typography>
          <Box
            component="ul"
            aria-label="Built-in categories"
            sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}
          >
            {builtIn.map((category) => (
              <li key={category.name}>
                <Chip label={category.name} size="small" />
              </li>
            ))}
          </Box>
        </>
      )}
      <CategoryDialog
        open={adding || editing !== null}
        category={editing}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
    </PageCard>
  );
}
