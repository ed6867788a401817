import { type CreatedToken, MAX_TOKEN_NAME, type TokenScope } from '@billfold/contract/tokens';
import Box from '@mui/material/Box';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useCreateApiToken } from '../../api/account/create-api-token.ts';
import { useLedgers } from '../../api/ledgers/list-ledgers.ts';
import { failureMessage } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { IsoDateField } from '../../components/IsoDateField.tsx';
import { NameField } from '../../components/NameField.tsx';
import { SecretOnce } from '../../components/SecretOnce.tsx';
import { curlExample, SCOPE_LABELS, tokenNameProblem } from './api-token-text.ts';
import { useAccountNotice } from './use-account-notice.ts';

const FAILED = 'Failed to create the token.';

/**
 * A new API token in two steps: its name, scope and optional last day; then the token itself, shown this once with
 * a Copy button, and only Done (docs/decisions/0721-api-tokens.md).
 */
export function NewApiTokenDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [expiresOn, setExpiresOn] = useState('');
  /** '' : every ledger of the account (the request's header chooses); else the one ledger the token works in. */
  const [ledgerId, setLedgerId] = useState('');
  const ledgers = useLedgers({ enabled: open });
  const [dateProblem, setDateProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<CreatedToken | null>(null);
  const create = useCreateApiToken();
  const notify = useAccountNotice();

  const close = () => {
    setName('');
    setScope('read');
    setExpiresOn('');
    setLedgerId('');
    setDateProblem(null);
    setError(null);
    setMade(null);
    onClose();
  };
  const submit = async () => {
    if (made) return close();
    const problem = tokenNameProblem(name) ?? dateProblem;
    setError(problem);
    if (problem) return;
    const outcome = await create.mutateAsync({
      name: name.trim(),
      scope,
      expiresOn: expiresOn || null,
      ledgerId: ledgerId === '' ? null : Number(ledgerId),
    });
    if (!outcome.ok) return setError(failureMessage(outcome, { failed: FAILED, error: FAILED }));
    setMade(outcome.data);
  };
  return (
    <FormDialog
      open={open}
      title={made ? 'Copy Your Token' : 'New API Token'}
      submitLabel={made ? 'Done' : 'Create Token'}
      hideCancel={made !== null}
      error={error}
      onDismissError={() => setError(null)}
      busy={create.isPending}
      onSubmit={submit}
      onClose={close}
    >
      {made ? (
        <SecretOnce value={made.token} noun="token" label="API token" testId="new-api-token" notify={notify}>
          <DialogContentText variant="body2">Send it in the Authorization header, for example:</DialogContentText>
          <Box
            component="code"
            sx={{ fontFamily: 'monospace', fontSize: '0.8rem', overflowWrap: 'anywhere', color: 'text.secondary' }}
          >
            {curlExample(made.token, window.location.origin)}
          </Box>
        </SecretOnce>
      ) : (
        <>
          <DialogContentText>
            A token lets a script or a home dashboard use your account without your password. Anyone holding it can do
            what its scope allows.
          </DialogContentText>
          <NameField
            name="token-name"
            value={name}
            onChange={setName}
            maxLength={MAX_TOKEN_NAME}
            helperText="What uses it, e.g. Home Assistant"
          />
          <Box>
            <FormLabel id="token-scope-label">Scope</FormLabel>
            <RadioGroup
              aria-labelledby="token-scope-label"
              value={scope}
              onChange={(event) => setScope(event.target.value as TokenScope)}
            >
              {(['read', 'read-write'] as const).map((value) => (
                <FormControlLabel key={value} value={value} control={<Radio />} label={SCOPE_LABELS[value]} />
              ))}
            </RadioGroup>
          </Box>
          <TextField
            select
            label="Ledger"
            name="token-ledger"
            value={ledgerId}
            onChange={(event) => setLedgerId(event.target.value)}
            helperText="A token for one ledger works there only; otherwise in every ledger you are a member of"
            fullWidth
          >
            <MenuItem value="">Every ledger</MenuItem>
            {(ledgers.data ?? []).map((ledger) => (
              <MenuItem key={ledger.id} value={String(ledger.id)}>
                {ledger.name}
              </MenuItem>
            ))}
          </TextField>
          <IsoDateField
            label="Expires after (optional)"
            name="token-expires"
            value={expiresOn}
            clearable
            onChange={(value, problem) => {
              setExpiresOn(value);
              setDateProblem(problem);
            }}
            helperText="The last day it works; empty: until you revoke it"
          />
        </>
      )}
    </FormDialog>
  );
}
