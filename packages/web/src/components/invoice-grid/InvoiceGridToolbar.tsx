import AddIcon from '@mui/icons-material/Add';
import CheckIcon from '@mui/icons-material/Check';
import DensityMediumIcon from '@mui/icons-material/DensityMedium';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import {
  ColumnsPanelTrigger,
  type GridDensity,
  gridDensitySelector,
  Toolbar,
  ToolbarButton,
  useGridApiContext,
  useGridSelector,
} from '@mui/x-data-grid';
import { createContext, useContext, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ReadOnlyTip } from '../ledger-access.tsx';

/** What the toolbar does outside the grid; provided by `InvoiceGrid`. */
export interface InvoiceGridActions {
  newInvoiceHref: string;
  /** New Invoice is disabled (an archived entity's page: it takes no new invoices). */
  newInvoiceDisabled?: boolean;
  /** Why New Invoice is disabled when the ledger is read-only for the user: its tooltip. */
  newInvoiceReason?: string | null;
  onExport: () => void;
  exporting: boolean;
}

export const InvoiceGridActionsContext = createContext<InvoiceGridActions | null>(null);

const DENSITIES: { value: GridDensity; label: string }[] = [
  { value: 'compact', label: 'Compact' },
  { value: 'standard', label: 'Standard' },
  { value: 'comfortable', label: 'Comfortable' },
];

function DensityChooser() {
  const apiRef = useGridApiContext();
  const density = useGridSelector(apiRef, gridDensitySelector);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = useId();
  const menuId = useId();
  return (
    <>
      <ToolbarButton
        id={buttonId}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event: React.MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        render={<Button size="small" startIcon={<DensityMediumIcon />} />}
      >
        Density
      </ToolbarButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        {DENSITIES.map((option) => (
          <MenuItem
            key={option.value}
            selected={density === option.value}
            onClick={() => {
              apiRef.current.setDensity(option.value);
              setAnchor(null);
            }}
          >
            <ListItemIcon>{density === option.value && <CheckIcon fontSize="small" />}</ListItemIcon>
            <ListItemText>{option.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** New Invoice, the column chooser, the density chooser and Export CSV (docs/product.md, Home (/home)). */
export function InvoiceGridToolbar() {
  const actions = useContext(InvoiceGridActionsContext);
  return (
    <Toolbar style={{ justifyContent: 'flex-start', flexWrap: 'wrap', gap: 4, minHeight: 48, flex: '0 0 auto' }}>
      <ReadOnlyTip reason={actions?.newInvoiceReason ?? null}>
        <ToolbarButton
          disabled={actions?.newInvoiceDisabled ?? false}
          // A disabled link is only styled so; this tells assistive technology too.
          aria-disabled={actions?.newInvoiceDisabled || undefined}
          render={
            <Button
              component={RouterLink}
              to={actions?.newInvoiceHref ?? '/invoice'}
              size="small"
              variant="contained"
              startIcon={<AddIcon />}
            />
          }
        >
          New Invoice
        </ToolbarButton>
      </ReadOnlyTip>
      <ColumnsPanelTrigger
        render={(props) => (
          <ToolbarButton {...props} render={<Button size="small" startIcon={<ViewColumnIcon />} />}>
            Columns
          </ToolbarButton>
        )}
      />
      <DensityChooser />
      <Box sx={{ flexGrow: 1 }} />
      <ToolbarButton
        disabled={!actions || actions.exporting}
        onClick={() => actions?.onExport()}
        render={<Button size="small" startIcon={<FileDownloadIcon />} />}
      >
        {actions?.exporting ? 'Exporting…' : 'Export CSV'}
      </ToolbarButton>
    </Toolbar>
  );
}
