import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import logoUrl from '../assets/logo.svg';
import { useSession } from '../lib/use-session.ts';

interface MenuEntry {
  label: string;
  to: string;
}

// The admin entry of spec §2 stays hidden: no role-based screen exists (spec §6), so it is not rendered.
const HISTORY_MENU: readonly MenuEntry[] = [
  { label: 'Archives', to: '/archives' },
  { label: 'Recycle Bin', to: '/recycle' },
];
const USER_MENU: readonly MenuEntry[] = [
  { label: 'Account', to: '/account' },
  { label: 'Logout', to: '/logout' },
];

function NavMenu({
  label,
  entries,
  truncate = false,
}: {
  label: string;
  entries: readonly MenuEntry[];
  truncate?: boolean;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        id={buttonId}
        color="inherit"
        endIcon={<ArrowDropDown />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{
          minWidth: 0,
          px: { xs: 1, sm: 1.5 },
          flexShrink: truncate ? 1 : 0,
          '& .MuiButton-endIcon': { ml: { xs: 0, sm: 0.5 } },
        }}
      >
        {/* Long usernames are cut visually on small screens; the button keeps the full name. */}
        <Box
          component="span"
          sx={{
            maxWidth: truncate ? { xs: 112, sm: 280 } : 'none',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {label}
        </Box>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        {entries.map((entry) => (
          <MenuItem key={entry.to} component={RouterLink} to={entry.to} onClick={close}>
            {entry.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** Banner linking to `/home`; when signed in, the History menu and the menu named after the user (spec §2). */
export function TopBar() {
  const session = useSession();
  return (
    <AppBar position="static" elevation={0}>
      <Toolbar sx={{ gap: { xs: 0.5, sm: 1 } }}>
        <Link component={RouterLink} to="/home" sx={{ display: 'flex', alignItems: 'center', flexShrink: 0 }}>
          <Box component="img" src={logoUrl} alt="Billfold" sx={{ height: { xs: 28, sm: 40 }, width: 'auto' }} />
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        {session && (
          <>
            <NavMenu label="History" entries={HISTORY_MENU} />
            <NavMenu label={session.username.toUpperCase()} entries={USER_MENU} truncate />
          </>
        )}
      </Toolbar>
    </AppBar>
  );
}
