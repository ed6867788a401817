import type { Ledger, LedgerRole } from '@billfold/contract/ledgers';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import CheckIcon from '@mui/icons-material/Check';
import LockOutlined from '@mui/icons-material/LockOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { ledgersQueryKey } from '../api/ledgers/ledger-queries.ts';
import { type CurrentLedger, useCurrentLedger, useLedgerChoice } from '../components/ledger-access.tsx';
import { useNotice } from '../components/notices.tsx';
import { subscribeLedgerDoubt } from '../lib/ledger-choice.ts';
import { choiceOf, pathAfterSwitch, switchLedger } from '../lib/ledger-switch.ts';

const ROLE_WORDS: Record<LedgerRole, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

/** `Owner`, `Viewer · 3 members`: the caller's role, and how many share the ledger when they are more than one. */
function ledgerSummary(ledger: Pick<Ledger, 'role' | 'memberCount'>): string {
  const role = ROLE_WORDS[ledger.role];
  return ledger.memberCount > 1 ? `${role} · ${ledger.memberCount} members` : role;
}

/** The switcher's accessible name: the same words on every width (decision 0802), the ledger's name in it. */
export function switcherLabel(ledger: CurrentLedger): string {
  return `Ledger: ${ledger.name}${ledger.role === 'viewer' ? ' (read only)' : ''}`;
}

/**
 * The top bar's ledger switcher (docs/decisions/0303-web-ledgers.md): the tab's ledger by name, a lock when it is
 * read-only for the user, and a menu of every ledger they are a member of with their role. Choosing one makes it
 * this tab's ledger; the menu also leads to the ledger's members and to the Ledgers page. On a phone the button is
 * an icon named like the words it stands for.
 */
export function LedgerSwitcher() {
  const { ledger, ledgers } = useCurrentLedger();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const close = () => setAnchor(null);
  const label = switcherLabel(ledger);
  const readOnly = ledger.role === 'viewer';

  const choose = (next: Ledger) => {
    close();
    if (switchLedger(queryClient, choiceOf(next))) {
      const to = pathAfterSwitch(location.pathname);
      if (to) navigate(to);
    }
  };

  const opener = {
    id: buttonId,
    color: 'inherit',
    'aria-label': label,
    'aria-haspopup': 'menu',
    'aria-controls': anchor ? menuId : undefined,
    'aria-expanded': anchor ? 'true' : undefined,
    onClick: (event: React.MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
  } as const;

  return (
    <>
      {phone ? (
        <Tooltip title={label}>
          <IconButton {...opener}>{readOnly ? <LockOutlined /> : <MenuBookOutlined />}</IconButton>
        </Tooltip>
      ) : (
        <Button
          {...opener}
          startIcon={readOnly ? <LockOutlined /> : <MenuBookOutlined />}
          endIcon={<ArrowDropDown />}
          sx={{ minWidth: 0, px: 1.5, flexShrink: 1, textTransform: 'none', fontSize: '1rem' }}
        >
          <Box
            component="span"
            sx={{ maxWidth: { sm: 160, md: 240 }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {ledger.name}
          </Box>
        </Button>
      )}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        slotProps={{ list: { 'aria-labelledby': buttonId, sx: { minWidth: 260, maxWidth: 360 } } }}
      >
        <Typography variant="caption" color="text.secondary" component="div" sx={{ px: 2, pt: 0.5, pb: 0.5 }}>
          Switch ledger
        </Typography>
        {(ledgers ?? []).map((item) => {
          const current = item.id === ledger.id;
          return (
            <MenuItem key={item.id} role="menuitemradio" aria-checked={current} onClick={() => choose(item)}>
              <ListItemIcon>{current && <CheckIcon fontSize="small" />}</ListItemIcon>
              <ListItemText
                primary={item.name}
                secondary={ledgerSummary(item)}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </MenuItem>
          );
        })}
        <Divider />
        {ledger.id !== null && (
          <MenuItem component={RouterLink} to={`/ledgers/${ledger.id}`} onClick={close}>
            Members
          </MenuItem>
        )}
        <MenuItem component={RouterLink} to="/ledgers" onClick={close}>
          Manage ledgers
        </MenuItem>
      </Menu>
    </>
  );
}

/**
 * Keeps the tab's ledger true to the server (docs/decisions/0303-web-ledgers.md). A refusal that may mean the
 * user's place changed (`reportLedgerDoubt`) reads the ledger list again; a fresh list that no longer holds the
 * chosen ledger (the user was removed, or it was deleted) falls back to the personal ledger with a notice; a new
 * name or role is taken over, so a viewer's controls follow a role changed under the open tab.
 */
export function LedgerWatcher() {
  const { ledgers } = useCurrentLedger();
  const choice = useLedgerChoice();
  const queryClient = useQueryClient();
  const notify = useNotice();
  const navigate = useNavigate();
  const location = useLocation();
  const fetching = useIsFetching({ queryKey: ledgersQueryKey }) > 0;

  useEffect(
    () => subscribeLedgerDoubt(() => void queryClient.invalidateQueries({ queryKey: ledgersQueryKey })),
    [queryClient],
  );

  useEffect(() => {
    // Only a list read after the choice is trusted: one on its way may predate a ledger just joined or created.
    if (!choice || !ledgers || fetching) return;
    const listed = ledgers.find((item) => item.id === choice.id);
    if (!listed) {
      switchLedger(queryClient, null);
      notify(`You no longer have access to “${choice.name}”. Showing your personal ledger.`, {
        severity: 'warning',
        duration: 6000,
      });
      const to = pathAfterSwitch(location.pathname);
      if (to) navigate(to, { replace: true });
      return;
    }
    switchLedger(queryClient, choiceOf(listed));
  }, [choice, ledgers, fetching, queryClient, notify, navigate, location.pathname]);

  return null;
}
