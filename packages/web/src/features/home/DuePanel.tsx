import type { DueGroup, ScheduledInvoice } from '@billfold/contract/due';
import type { Entry } from '@billfold/contract/entries';
import { formatUsd } from '@billfold/contract/money';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useDueSummary } from '../../api/due/due-summary.ts';
import { type DueChoice, dueLink } from '../../lib/due-links.ts';
import { countOf, owedParts } from '../../lib/format.ts';

/** Lines each group lists (invoices and scheduled ones together, soonest due first); the rest are in the grid. */
const LISTED = 5;

/** "$1,234.00 to pay · $50.00 to collect", leaving out a side with nothing owed. */
const owed = (sums: { toPay: number; toCollect: number }) => owedParts(sums).join(' · ');

/** "2 invoices · 1 scheduled": what the group holds. */
function counted(group: DueGroup): string {
  const parts = [countOf(group.count, 'invoice', 'invoices')];
  if (group.scheduled.count > 0) parts.push(`${group.scheduled.count} scheduled`);
  return parts.join(' · ');
}

const lineSx = { display: 'flex', gap: 1, alignItems: 'baseline', minWidth: 0 } as const;
const nameSx = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

function InvoiceLine({ entry }: { entry: Entry }) {
  return (
    <Box component="li" sx={lineSx}>
      <Link component={RouterLink} to={`/entries/${entry.entryId}`} sx={nameSx}>
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

/** An invoice a schedule will create on `date`: it links to its entity (there is no invoice yet). */
function ScheduledLine({ item }: { item: ScheduledInvoice }) {
  return (
    <Box component="li" sx={lineSx}>
      <Chip label="Scheduled" size="small" variant="outlined" sx={{ height: 20, flexShrink: 0, alignSelf: 'center' }} />
      <Link
        component={RouterLink}
        to={`/entities/${item.entityId}`}
        sx={nameSx}
        title={`Created on ${item.date}: ${item.description}`}
      >
        {item.name}
      </Link>
      <Typography component="span" variant="body2" sx={{ ml: 'auto', whiteSpace: 'nowrap' }}>
        {formatUsd(item.amount)}
      </Typography>
      <Typography component="span" variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {item.dueDate}
      </Typography>
    </Box>
  );
}

type Line = { dueDate: string; node: ReactNode };

function Group({
  title,
  group,
  due,
  showAll,
  urgent = false,
}: {
  title: string;
  group: DueGroup;
  due: DueChoice;
  /** The words of the link to the grid. */
  showAll: string;
  urgent?: boolean;
}) {
  const lines: Line[] = [
    ...group.entries.map((entry) => ({
      dueDate: entry.dueDate ?? '',
      node: <InvoiceLine key={`e${entry.entryId}`} entry={entry} />,
    })),
    ...group.scheduled.invoices.map((item) => ({
      dueDate: item.dueDate,
      node: <ScheduledLine key={`s${item.scheduleId}-${item.date}`} item={item} />,
    })),
  ]
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate))
    .slice(0, LISTED);
  const headingColor = urgent && group.count > 0 ? 'error' : 'text.primary';
  const scheduledOwed = owed(group.scheduled);
  return (
    <Box component="section" aria-label={title} sx={{ minWidth: 0, display: 'grid', gap: 0.5, alignContent: 'start' }}>
      <Typography component="h3" variant="subtitle2" color={headingColor}>
        {title}: {counted(group)}
      </Typography>
      {group.count > 0 && (
        <Typography variant="body2" color="text.secondary">
          {owed(group) || 'Nothing left to pay'}
        </Typography>
      )}
      {scheduledOwed && (
        <Typography variant="body2" color="text.secondary">
          Scheduled: {scheduledOwed}
        </Typography>
      )}
      {lines.length > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 0.25 }}>
          {lines.map((line) => line.node)}
        </Box>
      )}
      {group.count > 0 && (
        <Link component={RouterLink} to={dueLink(due)} variant="body2" sx={{ justifySelf: 'start' }}>
          {showAll}
        </Link>
      )}
    </Box>
  );
}

/**
 * Home's panel above the tabs (docs/decisions/1001-upcoming-and-overdue.md): unpaid invoices of active entities
 * that are overdue, due within 7 days and due in the 8 to 30 days after (the groups never overlap), each with
 * what schedules will create in it (docs/decisions/1012-scheduled-occurrences-in-upcoming.md), as of the user's
 * own date. On a phone it is one summary line until opened, so the grid stays on the first screen. One quiet
 * line when there is nothing; nothing at all while loading or when the summary cannot be read.
 */
export function DuePanel() {
  const { data } = useDueSummary();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  const groupsId = useId();
  if (!data) return null;
  const { overdue, next7, later } = data;
  const total = (g: DueGroup) => g.count + g.scheduled.count;
  if (total(overdue) + total(next7) + total(later) === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ px: 0.5 }}>
        Nothing overdue or due in the next 30 days.
      </Typography>
    );
  }
  const expanded = !phone || open;
  const summary = [`${overdue.count} overdue`, `${total(next7)} in 7 days`, `${total(later)} in 8–30 days`].join(' · ');
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="due-panel-title"
      sx={{ p: { xs: 1.5, sm: 2 }, display: 'grid', gap: expanded ? 1.5 : 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography id="due-panel-title" component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
            Upcoming and overdue
          </Typography>
          {phone && (
            <Typography
              variant="body2"
              color={overdue.count > 0 ? 'error' : 'text.secondary'}
              data-testid="due-panel-summary"
            >
              {summary}
            </Typography>
          )}
        </Box>
        {phone && (
          <Button
            size="small"
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            aria-controls={groupsId}
            endIcon={open ? <ExpandLess /> : <ExpandMore />}
            sx={{ ml: 'auto', flexShrink: 0 }}
          >
            {open ? 'Hide' : 'Details'}
          </Button>
        )}
      </Box>
      <Box
        id={groupsId}
        hidden={!expanded}
        sx={{
          display: expanded ? 'grid' : 'none',
          gap: { xs: 2, md: 3 },
          gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' },
        }}
      >
        <Group title="Overdue" group={overdue} due="overdue" urgent showAll={`Show all ${overdue.count} in the grid`} />
        <Group title="Due in 7 days" group={next7} due="next7" showAll={`Show all ${next7.count} in the grid`} />
        <Group
          title="Due in 8–30 days"
          group={later}
          due="next30"
          showAll={`Show the ${data.next30.count} due in 30 days in the grid`}
        />
      </Box>
    </Paper>
  );
}
