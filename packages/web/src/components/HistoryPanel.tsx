import type { HistoryEntry } from '@billfold/contract/history';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatTimestamp } from '../lib/dates.ts';
import { changeTitle, fieldLines } from '../lib/history-view.ts';
import { DividedList } from './DividedList.tsx';
import { PageProgress } from './PageProgress.tsx';

interface Props {
  history: UseQueryResult<HistoryEntry[]>;
  /** The entity's name for an invoice's `billId` change, when the screen knows it. */
  entityName?: (id: number) => string | null;
}

/** Every change of an item, newest first: when, who, what, and each field from → to. */
export function HistoryList({ history, entityName }: Props) {
  if (history.isPending) return <PageProgress />;
  if (history.isError) return <Alert severity="error">Failed to load the history.</Alert>;
  if (history.data.length === 0) return <Typography color="text.secondary">No changes recorded.</Typography>;
  const newestFirst = [...history.data].reverse();
  return (
    <DividedList ordered>
      {newestFirst.map((entry) => {
        const lines = fieldLines(entry, entityName);
        return (
          <Box component="li" key={entry.id} sx={{ py: 1.25 }}>
            <Typography sx={{ fontWeight: 500 }}>{changeTitle(entry)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {formatTimestamp(entry.at)}
            </Typography>
            {lines.length > 0 && (
              <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
                {lines.map((line) => (
                  <Typography component="li" variant="body2" key={line.label} sx={{ overflowWrap: 'anywhere' }}>
                    <strong>{line.label}</strong>
                    {entry.action === 'create' ||
                    entry.action === 'import' ||
                    entry.action === 'schedule' ||
                    entry.action === 'autopay'
                      ? `: ${line.to}`
                      : `: ${line.from} → ${line.to}`}
                  </Typography>
                ))}
              </Box>
            )}
          </Box>
        );
      })}
    </DividedList>
  );
}

/** The History section of an invoice's or an entity's page (docs/decisions/0108-change-history.md). */
export function HistoryPanel(props: Props) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }} component="section" aria-labelledby="history-heading">
      <Typography variant="h6" component="h2" id="history-heading" sx={{ mb: 1 }}>
        History
      </Typography>
      <HistoryList {...props} />
    </Paper>
  );
}
