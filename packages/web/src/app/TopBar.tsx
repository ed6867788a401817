import AccountCircle from '@mui/icons-material/AccountCircle';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import CheckIcon from '@mui/icons-material/Check';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import AppBar from '@mui/material/AppBar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { type Theme, useColorScheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useDueSummary } from '../api/due/due-summary.ts';
import logoUrl from '../assets/logo.svg';
import { useLedgerChoice } from '../components/ledger-access.tsx';
import { dueLink } from '../lib/due-links.ts';
import { useSession } from '../lib/use-session.ts';
import { LedgerSwitcher } from './LedgerSwitcher.tsx';

interface MenuEntry {
  label: string;
  to: string;
}

// No admin entry: no role-based screen exists (docs/product.md, Who may do what), so none is rendered.
const HISTORY_MENU: readonly MenuEntry[] = [
  { label: 'Archives', to: '/archives' },
  { label: 'Recycle Bin', to: '/recycle' },
];
const USER_MENU: readonly MenuEntry[] = [
  { label: 'Account', to: '/account' },
  { label: 'Categories', to: '/categories' },
  { label: 'Logout', to: '/logout' },
];

type ThemeMode = 'system' | 'light' | 'dark';
const THEME_MODES: readonly { mode: ThemeMode; label: string }[] = [
  { mode: 'system', label: 'System theme' },
  { mode: 'light', label: 'Light theme' },
  { mode: 'dark', label: 'Dark theme' },
];

/** The colour mode choices of the user menu: a group of radio items; the theme provider remembers the choice. */
function ThemeChoices({ close }: { close: () => void }) {
  const { mode, setMode } = useColorScheme();
  const current: ThemeMode = mode ?? 'system';
  return THEME_MODES.map((choice) => (
    <MenuItem
      key={choice.mode}
      role="menuitemradio"
      aria-checked={current === choice.mode}
      onClick={() => {
        setMode(choice.mode);
        close();
      }}
    >
      <ListItemIcon>{current === choice.mode && <CheckIcon fontSize="small" />}</ListItemIcon>
      <ListItemText>{choice.label}</ListItemText>
    </MenuItem>
  ));
}

/** True on phones (below `sm`), where the bar's entries show as icons (decision 0802). */
const usePhone = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

/** A page of the main navigation: its name as a button, or on a phone its icon (named, with a tooltip). */
function NavLink({ label, to, icon }: { label: string; to: string; icon: ReactNode }) {
  if (usePhone()) {
    return (
      <Tooltip title={label}>
        <IconButton component={RouterLink} to={to} color="inherit" aria-label={label}>
          {icon}
        </IconButton>
      </Tooltip>
    );
  }
  return (
    <Button component={RouterLink} to={to} color="inherit" sx={{ flexShrink: 0, px: 1.5 }}>
      {label}
    </Button>
  );
}

function NavMenu({
  label,
  entries,
  truncate = false,
  extra,
  icon,
  header,
}: {
  label: string;
  entries: readonly MenuEntry[];
  truncate?: boolean;
  /** Items after the links (the user menu's theme choices), given the function that closes the menu. */
  extra?: (close: () => void) => ReactNode;
  /** On a phone the button shows this icon, named `label`, instead of the label. */
  icon?: ReactNode;
  /** Shown at the top of the open menu (the user menu: the full username). */
  header?: ReactNode;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const close = () => setAnchor(null);
  const iconOnly = usePhone() && icon !== undefined;
  const opener = {
    id: buttonId,
    color: 'inherit',
    'aria-haspopup': 'menu',
    'aria-controls': anchor ? menuId : undefined,
    'aria-expanded': anchor ? 'true' : undefined,
    onClick: (event: React.MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
  } as const;
  return (
    <>
      {iconOnly ? (
        <Tooltip title={label}>
          <IconButton {...opener} aria-label={label}>
            {icon}
          </IconButton>
        </Tooltip>
      ) : (
        <Button
          {...opener}
          endIcon={<ArrowDropDown />}
          sx={{
            minWidth: 0,
            px: { xs: 1, sm: 1.5 },
            flexShrink: truncate ? 1 : 0,
            '& .MuiButton-endIcon': { ml: { xs: 0, sm: 0.5 } },
          }}
        >
          {/* A very long username is cut on a tablet (its menu shows it whole); a phone shows an icon instead. */}
          <Box
            component="span"
            sx={{
              maxWidth: truncate ? 280 : 'none',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {label}
          </Box>
        </Button>
      )}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        {header}
        {entries.map((entry) => (
          <MenuItem key={entry.to} component={RouterLink} to={entry.to} onClick={close}>
            {entry.label}
          </MenuItem>
        ))}
        {extra && [<Divider key="divider" />, extra(close)]}
      </Menu>
    </>
  );
}

/** The top of the user menu: who is signed in, the whole name, however long (it wraps). */
function SignedInAs({ username }: { username: string }) {
  return (
    <Box sx={{ px: 2, pt: 0.5, pb: 1, maxWidth: 280 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        Signed in as
      </Typography>
      <Typography variant="body2" component="div" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {username.toUpperCase()}
      </Typography>
    </Box>
  );
}

/** The number of overdue invoices as a badge linking to them on Home; nothing when none (or unknown). */
function OverdueBadge() {
  const { data } = useDueSummary();
  const count = data?.overdue.count ?? 0;
  if (count === 0) return null;
  const label = `${count} overdue ${count === 1 ? 'invoice' : 'invoices'}`;
  return (
    <Tooltip title={label}>
      <IconButton component={RouterLink} to={dueLink('overdue')} color="inherit" aria-label={label}>
        <Badge badgeContent={count} color="error" max={99}>
          <EventBusyOutlined />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}

/**
 * Banner linking to `/home`; when signed in, the ledger switcher (decision 0303), the overdue badge, Import CSV, the History menu and the menu named
 * after the user (docs/product.md, Top bar). On a phone the entries show as named icons, so nothing is cut
 * (decision 0802).
 */
export function TopBar() {
  const session = useSession();
  const ledgerKey = useLedgerChoice()?.id ?? 'personal';
  return (
    <AppBar position="static" elevation={0}>
      {/* On a phone, narrower gutters keep the logo, the ledger switcher, the overdue badge and four icons within
          360 px (decision 0802). */}
      <Toolbar sx={{ gap: { xs: 0.5, sm: 1 }, px: { xs: 1, sm: 3 } }}>
        <Link component={RouterLink} to="/home" sx={{ display: 'flex', alignItems: 'center', flexShrink: 0 }}>
          {/* A phone shows the logo's wallet only (its left 36 of 168 units): the bar's room goes to the icons. */}
          <Box
            component="img"
            src={logoUrl}
            alt="Billfold"
            sx={{
              height: { xs: 28, sm: 40 },
              width: { xs: 26, sm: 'auto' },
              objectFit: 'cover',
              objectPosition: 'left center',
            }}
          />
        </Link>
        {session && <LedgerSwitcher />}
        <Box sx={{ flexGrow: 1 }} />
        {session && (
          <>
            <OverdueBadge key={ledgerKey} />
            <NavLink label="Entities" to="/entities" icon={<StorefrontOutlined />} />
            <NavLink label="Import CSV" to="/import" icon={<UploadFileOutlined />} />
            <NavMenu label="History" entries={HISTORY_MENU} icon={<HistoryOutlined />} />
            <NavMenu
              label={session.username.toUpperCase()}
              entries={USER_MENU}
              truncate
              icon={<AccountCircle />}
              header={<SignedInAs username={session.username} />}
              extra={(close) => <ThemeChoices close={close} />}
            />
          </>
        )}
      </Toolbar>
    </AppBar>
  );
}
