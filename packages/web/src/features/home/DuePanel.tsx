import { addDays } from '@billfold/contract/dates';
import type { DueGroup } from '@billfold/contract/due';
import type { Entry } from '@billfold/contract/entries';
import { formatUsd } from '@billfold/contract/money';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Link as RouterLink } from 'react-router-dom';
import { useDueSummary } from '../../api/due/due-summary.ts';
import { type DueChoice, dueLink } from '../../lib/due-links.ts';

/** Invoices each group lists; the rest are one "Show all" away. */
const LISTED = 3;

const plural = (n: number) => `${n} ${n === 1 ? 'invoice' : 'invoices'}`;

/** "$1,234.00 to pay · $50.00 to collect", leaving out a side with nothing owed. */
function owed(group: DueGroup): string {
  const parts = [];
  if (group.toPay > 0) parts.push(`${formatUsd(group.toPay)} to pay`);
  if (group.toCollect > 0) parts.push(`${formatUsd(group.toCollect)} to collect`);
  return parts.join(' · ');
}

function InvoiceLine({ entry }: { entry: Entry }) {
  return (
    <Box component="li" sx={{ display: 'flex', gap: 1, alignItems: 'baseline', minWidth: 0 }}>
      <Link
        component={RouterLink}
        to={`/entries/${entry.entryId}`}
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}
      >
        #{entry.invoiceId} {entry.name}
      </Link>
      <Typography component="span" variant="body2" sx={{ ml: 'auto', whiteSpace: 'nowrap' }}>
        {formatUsd(entry.balance.totalBalance)}
      </Typography>
      <Typography component="span" variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {entry.dueDate}
      </Typography>
    </Box>
  );
}

function Group({
  title,
  group,
  due,
  urgent = false,
  after,
  countsOnly = false,
}: {
  title: string;
  group: DueGroup;
  due: DueChoice;
  urgent?: boolean;
  /** List only invoices due after this date (those before are listed by the group beside it). */
  after?: string;
  /** Counts and totals only (phones list the overdue invoices alone, to keep the grid in reach). */
  countsOnly?: boolean;
}) {
  const listed = countsOnly
    ? []
    : group.entries.filter((e) => after === undefined || (e.dueDate ?? '') > after).slice(0, LISTED);
  const headingColor = urgent && group.count > 0 ? 'error' : 'text.primary';
  return (
    <Box component="section" aria-label={title} sx={{ minWidth: 0, display: 'grid', gap: 0.5, alignContent: 'start' }}>
      <Typography component="h3" variant="subtitle2" color={headingColor}>
        {title}: {plural(group.count)}
      </Typography>
      {group.count > 0 && (
        <Typography variant="body2" color="text.secondary">
          {owed(group) || 'Nothing left to pay'}
        </Typography>
      )}
      {listed.length > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 0.25 }}>
          {listed.map((entry) => (
            <InvoiceLine key={entry.entryId} entry={entry} />
          ))}
        </Box>
      )}
      {group.count > 0 && (
        <Link component={RouterLink} to={dueLink(due)} variant="body2" sx={{ justifySelf: 'start' }}>
          Show all {group.count} in the grid
        </Link>
      )}
    </Box>
  );
}

/**
 * Home's panel above the tabs (docs/decisions/1001-upcoming-and-overdue.md): unpaid invoices of active entities
 * that are overdue, due within 7 days and within 30 days, as of the user's own date. One quiet line when there
 * is nothing; nothing at all while loading or when the summary cannot be read.
 */
export function DuePanel() {
  const { data } = useDueSummary();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  if (!data) return null;
  const { overdue, next7, next30 } = data;
  if (overdue.count === 0 && next30.count === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ px: 0.5 }}>
        Nothing overdue or due in the next 30 days.
      </Typography>
    );
  }
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="due-panel-title"
      sx={{ p: { xs: 1.5, sm: 2 }, display: 'grid', gap: 1.5 }}
    >
      <Typography id="due-panel-title" component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Upcoming and overdue
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: { xs: 2, md: 3 },
          gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' },
        }}
      >
        <Group title="Overdue" group={overdue} due="overdue" urgent />
        <Group title="Due in 7 days" group={next7} due="next7" countsOnly={phone} />
        <Group title="Due in 30 days" group={next30} due="next30" after={addDays(data.today, 7)} countsOnly={phone} />
      </Box>
    </Paper>
  );
}
