import { FORECAST_MONTHS, type Forecast } from '@billfold/contract/forecast';
import { formatAmount, formatUsd, fromCents, parseSignedAmountText } from '@billfold/contract/money';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { type FormEvent, useId, useState } from 'react';
import { useForecast } from '../../api/forecast/get-forecast.ts';
import { useSetForecastBalance } from '../../api/forecast/set-forecast-balance.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { ChartTable, LEGEND_BELOW, MONEY_AXIS, moneyValue } from '../../components/charts.tsx';
import { ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';

const HORIZONS = [
  { value: '3', label: '3 months' },
  { value: '6', label: '6 months' },
  { value: '12', label: '12 months' },
  { value: '24', label: '24 months' },
] as const;
type Horizon = (typeof HORIZONS)[number]['value'];
const SAVE_FAILED = {
  failed: 'Failed to save the starting balance.',
  error: 'Error saving the starting balance. Please try again.',
};

/** `lowest: 2027-02-03, -120.00`: the day the balance is lowest and the balance then. */
export const lowestText = (f: Forecast) => `lowest: ${f.lowest.date}, ${formatAmount(f.lowest.balance)}`;

/**
 * The cash-flow forecast on Home (docs/product.md, Home (/home); docs/decisions/1014-forecast.md): the balance day by
 * day from open invoices and the schedules' coming invoices, its lowest point marked, the starting balance the
 * ledger's writers set, and a table of the days with money in or out for screen readers.
 */
export function ForecastCard() {
  const [expanded, setExpanded] = useState(false);
  const [horizon, setHorizon] = useState<Horizon>(String(FORECAST_MONTHS.default) as Horizon);
  const { data, isError } = useForecast(Number(horizon));
  const summaryId = useId();
  return (
    <Accordion
      expanded={expanded}
      onChange={(_event, open) => setExpanded(open)}
      variant="outlined"
      disableGutters
      slotProps={{ heading: { component: 'h2' } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`${summaryId}-details`} id={summaryId}>
        <Typography component="span" sx={{ fontWeight: 500 }}>
          Cash-flow forecast
          {data && (
            <Typography component="span" color={data.lowest.balance < 0 ? 'error' : 'text.secondary'} sx={{ ml: 1 }}>
              {lowestText(data)}
            </Typography>
          )}
        </Typography>
      </AccordionSummary>
      <AccordionDetails id={`${summaryId}-details`} sx={{ display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-end' }}>
          <ChoiceGroup label="Horizon" options={HORIZONS} value={horizon} onChange={(v) => v && setHorizon(v)} />
          <StartingBalance current={data?.startingBalance ?? null} />
        </Box>
        {isError ? (
          <Typography color="text.secondary" role="status">
            The forecast could not be loaded.
          </Typography>
        ) : data ? (
          <ForecastChart forecast={data} />
        ) : (
          <Skeleton variant="rectangular" height={280} />
        )}
      </AccordionDetails>
    </Accordion>
  );
}

function StartingBalance({ current }: { current: number | null }) {
  const { readOnlyReason } = useLedgerAccess();
  const save = useSetForecastBalance();
  const notify = useNotice();
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? (current === null ? '' : formatAmount(current));
  const cents = shown.trim() === '' ? null : parseSignedAmountText(shown);
  const invalid = cents !== null && !Number.isFinite(cents);
  const unreadable = shown.trim() !== '' && cents === null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid || unreadable) return;
    const outcome = await save.mutateAsync({ balance: cents === null ? null : fromCents(cents) });
    if (!outcome.ok) notify(failureMessage(outcome, SAVE_FAILED), { severity: 'error' });
    else setText(null);
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        size="small"
        label="Starting balance"
        value={shown}
        onChange={(event) => setText(event.target.value)}
        disabled={readOnlyReason !== null}
        error={invalid || unreadable}
        helperText={invalid || unreadable ? 'An amount such as -120.50' : 'Empty starts at 0'}
        sx={{ width: 180 }}
      />
      <ReadOnlyTip reason={readOnlyReason}>
        <Button type="submit" variant="outlined" disabled={readOnlyReason !== null || save.isPending}>
          Save
        </Button>
      </ReadOnlyTip>
    </Box>
  );
}

function ForecastChart({ forecast }: { forecast: Forecast }) {
  const theme = useTheme();
  const headingId = useId();
  const dates = forecast.days.map((d) => new Date(`${d.date}T00:00:00Z`));
  const lowestIndex = forecast.days.findIndex((d) => d.date === forecast.lowest.date);
  const busy = forecast.days.filter((d) => d.income !== 0 || d.expenses !== 0);
  const title = `Balance by day, ${forecast.today} to ${forecast.endDate}`;
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Typography variant="body2" color={forecast.lowest.balance < 0 ? 'error' : 'text.secondary'}>
        {lowestText(forecast)} · in {formatUsd(forecast.income)} · out {formatUsd(forecast.expenses)}
      </Typography>
      <Box data-testid="forecast-chart">
        <LineChart
          height={280}
          xAxis={[
            {
              scaleType: 'time',
              data: dates,
              valueFormatter: (d: Date) => d.toISOString().slice(0, 10),
              tickNumber: 6,
            },
          ]}
          yAxis={[MONEY_AXIS]}
          series={[
            {
              label: 'Balance',
              data: forecast.days.map((d) => d.balance),
              color: theme.palette.primary.main,
              curve: 'stepAfter',
              // The lowest point only: the day the money runs lowest.
              showMark: ({ index }) => index === lowestIndex,
              valueFormatter: moneyValue,
            },
          ]}
          slotProps={LEGEND_BELOW}
        />
      </Box>
      <ChartTable
        caption="Days with money in or out"
        columns={['Date', 'In', 'Out', 'Balance', 'From']}
        rows={busy.map((d) => ({
          key: d.date,
          head: d.date,
          cells: [
            formatUsd(d.income),
            formatUsd(d.expenses),
            formatUsd(d.balance),
            [
              ...d.items.map((i) => `${i.name} ${formatUsd(i.amount)}${i.kind === 'occurrence' ? ' (scheduled)' : ''}`),
              ...(d.more > 0 ? [`and ${d.more} more`] : []),
            ].join('; '),
          ],
        }))}
      />
    </Box>
  );
}
