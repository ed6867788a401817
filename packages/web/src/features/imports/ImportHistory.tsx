import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useImports } from '../../api/imports/list-imports.ts';
import { ReadOnlyTip } from '../../components/ledger-access.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { countOf } from '../../lib/format.ts';

/** The latest imports, each undoable once as a unit. */
export function ImportHistory({
  onUndo,
  undoing,
  readOnlyReason = null,
}: {
  onUndo: (id: number) => void;
  undoing: boolean;
  /** Why Undo is disabled when the ledger is read-only for the user. */
  readOnlyReason?: string | null;
}) {
  const { data: imports = [] } = useImports();
  if (imports.length === 0) return null;
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mt: 4 }}>
        Recent Imports
      </Typography>
      <List aria-label="Recent imports">
        {imports.map((item) => (
          <ListItem
            key={item.id}
            divider
            secondaryAction={
              item.undoneAt ? (
                <Typography variant="body2" color="text.secondary">
                  Undone
                </Typography>
              ) : (
                <ReadOnlyTip reason={readOnlyReason}>
                  <Button size="small" onClick={() => onUndo(item.id)} disabled={undoing || readOnlyReason !== null}>
                    Undo
                  </Button>
                </ReadOnlyTip>
              )
            }
          >
            <ListItemText
              primary={item.fileName}
              secondary={[
                formatTimestamp(item.createdAt),
                countOf(item.invoices, 'invoice', 'invoices'),
                ...(item.skippedDuplicates
                  ? [`${countOf(item.skippedDuplicates, 'duplicate', 'duplicates')} skipped`]
                  : []),
              ].join(' · ')}
            />
          </ListItem>
        ))}
      </List>
    </>
  );
}
