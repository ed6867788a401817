import type { Bill } from '@billfold/contract/bills';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useUpdateEntity } from '../../api/entities/update-entity.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ArchivedBanner } from '../../components/ArchivedBanner.tsx';
import { CategorySelect } from '../../components/CategorySelect.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EntityNameField } from '../../components/EntityNameField.tsx';
import { ReadOnlyBanner, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageCard } from '../../components/PageCard.tsx';
import { entityNameProblem } from '../../lib/entity-form.ts';
import { type EntityOrigin, readEntityOrigin } from '../../lib/entity-origin.ts';
import { useDelayedNavigate } from '../../lib/use-delayed-navigate.ts';
import { pathAfterEntitySave, pathOfOrigin } from './entity-navigation.ts';
import { RouteEntity } from './RouteEntity.tsx';

const UPDATE_MESSAGES = { failed: 'Failed to update entity.', error: 'Error updating entity.' };

function Frame({ children }: { children: ReactNode }) {
  return <PageCard title="Edit Entity">{children}</PageCard>;
}

/** `/bills/{id}` (docs/product.md, Edit entity (/bills/:id)): rename, recategorise, internal flag, archive. */
export default function EditEntityPage() {
  const origin = readEntityOrigin(useLocation().state);
  return <RouteEntity frame={Frame}>{(bill) => <EntityForm key={bill.id} bill={bill} origin={origin} />}</RouteEntity>;
}

function EntityForm({ bill, origin }: { bill: Bill; origin: EntityOrigin }) {
  const [name, setName] = useState(bill.name);
  const [category, setCategory] = useState<string>(bill.category);
  const [internal, setInternal] = useState(bill.internal);
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const update = useUpdateEntity();
  const notify = useNotice();
  const navigateSoon = useDelayedNavigate();
  const { readOnlyReason } = useLedgerAccess();
  const readOnly = bill.status === 0;
  const disabled = readOnly || readOnlyReason !== null || update.isPending || done;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (disabled) return;
    const problem = entityNameProblem(name);
    setNameError(problem);
    if (problem) return;
    const trimmed = name.trim();
    setName(trimmed);
    const outcome = await update.mutateAsync({ id: bill.id, name: trimmed, category, internal });
    if (!outcome.ok) {
      notify(failureMessage(outcome, UPDATE_MESSAGES), { severity: 'error' });
      if (outcome.code === 'CONFLICT' && outcome.message) setNameError(outcome.message);
      return;
    }
    setDone(true);
    notify('Entity updated successfully.', { severity: 'success' });
    navigateSoon(pathAfterEntitySave(origin, { billId: bill.id, archived: false }));
  };

  const archive = async () => {
    const outcome = await update.mutateAsync({ id: bill.id, status: 0 });
    setConfirming(false);
    if (!outcome.ok) {
      notify(failureMessage(outcome, UPDATE_MESSAGES), { severity: 'error' });
      return;
    }
    setDone(true);
    notify('Entity updated successfully.', { severity: 'success' });
    navigateSoon(pathAfterEntitySave(origin, { billId: bill.id, archived: true }));
  };

  return (
    <>
      {readOnly && <ArchivedBanner />}
      {!readOnly && readOnlyReason && <ReadOnlyBanner reason={readOnlyReason} />}
      <Stack component="form" spacing={2.5} onSubmit={save} noValidate aria-label="Edit entity">
        <EntityNameField
          value={name}
          onChange={(next) => {
            setName(next);
            setNameError(null);
          }}
          disabled={disabled}
          error={nameError !== null}
          helperText={nameError ?? undefined}
        />
        <CategorySelect value={category} onChange={setCategory} disabled={disabled} />
        <FormControlLabel
          control={
            <Checkbox name="internal" checked={internal} onChange={(event) => setInternal(event.target.checked)} />
          }
          label="Internal"
          disabled={disabled}
        />
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}>
          <Button component={RouterLink} to={pathOfOrigin(origin, bill.id)}>
            Cancel
          </Button>
          <Button variant="outlined" color="warning" onClick={() => setConfirming(true)} disabled={disabled}>
            Archive
          </Button>
          <Button type="submit" variant="contained" disabled={disabled}>
            Save
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title="Archive Entity"
        confirmLabel="Archive"
        destructive
        busy={update.isPending}
        onConfirm={archive}
        onCancel={() => setConfirming(false)}
      >
        {`Archive ${bill.name}? It and its invoices and payments become read only until you restore it from Archives in the History menu.`}
      </ConfirmDialog>
    </>
  );
}
