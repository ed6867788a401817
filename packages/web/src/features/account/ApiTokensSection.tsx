import type { ApiToken } from '@billfold/contract/tokens';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useApiTokens } from '../../api/account/get-api-tokens.ts';
import { useRevokeApiToken } from '../../api/account/revoke-api-token.ts';
import { useLedgers } from '../../api/ledgers/list-ledgers.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DividedList } from '../../components/DividedList.tsx';
import { tokenDetails } from './api-token-text.ts';
import { NewApiTokenDialog } from './NewApiTokenDialog.tsx';
import { useAccountNotice } from './use-account-notice.ts';

/**
 * "API Tokens": personal tokens for scripts and home dashboards, listed with their scope and last use, made in a
 * dialog that shows the secret once, revoked after a question (docs/decisions/0721-api-tokens.md).
 */
export function ApiTokensSection() {
  const { data: tokens, isError } = useApiTokens();
  const { data: ledgers } = useLedgers();
  const ledgerName = (id: number | null) => ledgers?.find((ledger) => ledger.id === id)?.name;
  const revoke = useRevokeApiToken();
  const notify = useAccountNotice();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const confirmRevoke = async () => {
    if (!revoking) return;
    const outcome = await revoke.mutateAsync(revoking.id);
    if (outcome.ok) notify(`Token “${revoking.name}” revoked.`, 'success');
    else
      notify(
        failureMessage(outcome, { failed: 'Failed to revoke the token.', error: 'Error revoking the token.' }),
        'error',
      );
    setRevoking(null);
  };

  return (
    <Stack component="section" aria-labelledby="api-tokens-heading" spacing={1.5} sx={{ mt: 4 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography id="api-tokens-heading" variant="h6" component="h2">
          API Tokens
        </Typography>
        <Button variant="outlined" onClick={() => setCreating(true)} sx={{ whiteSpace: 'nowrap' }}>
          New Token
        </Button>
      </Stack>
      <Typography color="text.secondary">
        Tokens let scripts and home dashboards read your bills, or change them, without your password. They cannot
        change your password or account.
      </Typography>
      {isError && <Alert severity="error">Failed to load your tokens.</Alert>}
      {tokens && tokens.length === 0 && <Typography color="text.secondary">You have no API tokens.</Typography>}
      {tokens && tokens.length > 0 && (
        <DividedList label="API tokens">
          {tokens.map((token) => (
            <Stack
              component="li"
              key={token.id}
              direction="row"
              sx={{ py: 1.25, alignItems: 'center', gap: 2 }}
              data-testid="api-token-row"
            >
              <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography sx={{ overflowWrap: 'anywhere' }}>
                  {token.name}{' '}
                  <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                    {token.hint}
                  </Typography>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {tokenDetails(token, Date.now(), ledgerName(token.ledgerId))}
                </Typography>
              </Stack>
              <Button size="small" color="error" onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
                Revoke
              </Button>
            </Stack>
          ))}
        </DividedList>
      )}
      <NewApiTokenDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke Token"
        confirmLabel="Revoke"
        destructive
        busy={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      >
        {`Whatever uses “${revoking?.name ?? ''}” stops working at once. This cannot be undone.`}
      </ConfirmDialog>
    </Stack>
  );
}
