import type { Ledger } from '@billfold/contract/ledgers';
import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useCreateLedger } from '../../api/ledgers/create-ledger.ts';
import { ledgersQueryKey } from '../../api/ledgers/ledger-queries.ts';
import { useLedgers } from '../../api/ledgers/list-ledgers.ts';
import { DividedList } from '../../components/DividedList.tsx';
import { useCurrentLedger } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageCard } from '../../components/PageCard.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { countOf } from '../../lib/format.ts';
import { choiceOf, switchLedger } from '../../lib/ledger-switch.ts';
import { ledgerFailure, ROLE_NAMES } from './ledger-messages.ts';
import { NameDialog } from './NameDialog.tsx';

const CREATE_FAILED = { failed: 'Failed to create ledger.', error: 'Error creating ledger.' };

function LedgerRow({ ledger, current }: { ledger: Ledger; current: boolean }) {
  return (
    <Stack
      component="li"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={{ xs: 1, sm: 2 }}
      sx={{ py: 1.5, alignItems: { sm: 'center' } }}
    >
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ overflowWrap: 'anywhere', fontWeight: 500 }}>{ledger.name}</Typography>
          {ledger.personal && <Chip label="Personal" size="small" variant="outlined" />}
          {current && <Chip label="In this tab" size="small" color="primary" variant="outlined" />}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {`${ROLE_NAMES[ledger.role]} · ${countOf(ledger.memberCount, 'member', 'members')}`}
        </Typography>
      </Box>
      <Box sx={{ flexShrink: 0, ml: { xs: -1, sm: 0 } }}>
        <Button
          size="small"
          component={RouterLink}
          to={`/ledgers/${ledger.id}`}
          aria-label={`Members of ${ledger.name}`}
        >
          Members
        </Button>
      </Box>
    </Stack>
  );
}

/**
 * `/ledgers` (docs/decisions/0303-web-ledgers.md): every ledger the user is a member of, with their role and how
 * many share it, and New Ledger. A new ledger becomes the tab's ledger and opens on its members, where the owner
 * invites people.
 */
export default function LedgersPage() {
  const ledgers = useLedgers();
  const { ledger: current } = useCurrentLedger();
  const create = useCreateLedger();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotice();
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (name: string) => {
    const outcome = await create.mutateAsync({ name });
    if (!outcome.ok) {
      setError(ledgerFailure(outcome, CREATE_FAILED));
      return;
    }
    // The list must hold the new ledger before the tab switches to it, or the switcher would think it gone.
    await queryClient.refetchQueries({ queryKey: ledgersQueryKey });
    setCreating(false);
    switchLedger(queryClient, choiceOf(outcome.data));
    notify(`Ledger “${outcome.data.name}” created. Invite people to share it.`, { severity: 'success' });
    navigate(`/ledgers/${outcome.data.id}`);
  };

  return (
    <PageCard title="Ledgers" width={760} titleGap={1}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        A ledger holds invoices, payments and entities. Share one by inviting people to it; each tab works in the ledger
        chosen in the top bar.
      </Typography>
      <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)} sx={{ mb: 2 }}>
        New Ledger
      </Button>
      {ledgers.isPending && <PageProgress />}
      {ledgers.isError && <Alert severity="error">Failed to load ledgers.</Alert>}
      {ledgers.data && (
        <DividedList>
          {ledgers.data.map((ledger) => (
            <LedgerRow key={ledger.id} ledger={ledger} current={ledger.id === current.id} />
          ))}
        </DividedList>
      )}
      {creating && (
        <NameDialog
          title="New Ledger"
          submitLabel="Create"
          busy={create.isPending}
          error={error}
          onSubmit={submit}
          onClose={() => {
            setCreating(false);
            setError(null);
          }}
        />
      )}
    </PageCard>
  );
}
