import { BILL_PAGE_SIZES } from '@billfold/contract/bills';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useEntityOverview } from '../../api/entities/entity-overview.ts';
import { useCategoryFilterOptions } from '../../components/CategorySelect.tsx';
import { ChipSelect } from '../../components/ChipSelect.tsx';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { FilterForm } from '../../components/FilterForm.tsx';
import { todayIso } from '../../lib/dates.ts';
import { FILTER_DEBOUNCE_MS } from '../../lib/timing.ts';
import { EntitiesGrid } from './EntitiesGrid.tsx';
import { EntitiesList } from './EntitiesList.tsx';
import {
  ARCHIVES_OPTIONS,
  defaultEntitiesView,
  type EntitiesView,
  type EntityFilters,
  type EntitySort,
  loadEntitiesView,
  NO_ENTITY_FILTERS,
  saveEntitiesView,
  toOverviewParams,
} from './entities-view.ts';
import { EntityActionDialogs, useEntityActions } from './entity-actions.tsx';

/**
 * The bills search filter panel (docs/product.md, Entities (/entities)): the parts of the filter panel that describe an
 * entity — its name, categories and the Archives choice — with Search and Clear Filters.
 */
function EntityFilterPanel({
  draft,
  onChange,
  onSearch,
  onClear,
}: {
  draft: EntityFilters;
  onChange: (filters: EntityFilters) => void;
  onSearch: () => void;
  onClear: () => void;
}) {
  const categoryOptions = useCategoryFilterOptions(draft.categories);
  return (
    <FilterForm onSearch={onSearch} sx={{ p: 2, mb: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-end' }}>
        <TextField
          size="small"
          label="Entity Name"
          type="search"
          value={draft.name}
          onChange={(event) => onChange({ ...draft, name: event.target.value })}
          sx={{ width: { xs: '100%', sm: 200 } }}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <ChipSelect
          label="Select Categories"
          options={categoryOptions}
          value={draft.categories}
          onChange={(categories) => onChange({ ...draft, categories })}
        />
        <ChoiceGroup
          label="Archives"
          options={ARCHIVES_OPTIONS}
          value={draft.archives}
          onChange={(archives) => onChange({ ...draft, archives })}
        />
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button type="submit" variant="contained">
            Search
          </Button>
          <Button onClick={onClear}>Clear Filters</Button>
        </Box>
      </Box>
    </FilterForm>
  );
}

/**
 * `/entities` (docs/product.md, Entities (/entities)): every entity with its category, invoices, open balance, next
 * due date and schedules, searched, sorted and paged on the server (`GET /bills/overview`); archive, restore and
 * delete from each row. A grid from 900 px up, a list on phones and small tablets (decision 0801).
 */
export default function EntitiesPage() {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const [view, setView] = useState<EntitiesView>(loadEntitiesView);
  const [draft, setDraft] = useState<EntityFilters>(() => view.filters);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const actions = useEntityActions();

  useEffect(() => saveEntitiesView(view), [view]);

  /** Applies filters: a new search starts at the first page. */
  const apply = (filters: EntityFilters) =>
    setView((current) =>
      JSON.stringify(current.filters) === JSON.stringify(filters) ? current : { ...current, filters, page: 0 },
    );
  // The filters apply by themselves 500 ms after the last change (docs/product.md, Filter panel).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `apply` only sets state
  useEffect(() => {
    timer.current = setTimeout(() => apply(draft), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer.current);
  }, [draft]);

  const today = todayIso();
  const params = useMemo(() => toOverviewParams(view.filters, view, today), [view, today]);
  const overview = useEntityOverview(params);
  // A page that could not be loaded shows as no entities (docs/product.md, Calls and failures).
  const rows = overview.isError ? [] : overview.data?.bills;
  const total = overview.isError ? 0 : (overview.data?.total ?? -1);

  const onPage = (page: number, pageSize: number) =>
    setView((current) => ({ ...current, page: pageSize === current.pageSize ? page : 0, pageSize }));
  const onSort = (sortModel: EntitySort[]) => setView((current) => ({ ...current, page: 0, sortModel }));
  const list = {
    rows,
    total,
    loading: overview.isFetching,
    view,
    pageSizeOptions: BILL_PAGE_SIZES,
    actions,
    onPage,
    onSort,
  };

  return (
    <Container maxWidth="xl" sx={{ py: { xs: 2, sm: 3 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2, fontWeight: 500 }}>
        Entities
      </Typography>
      <EntityFilterPanel
        draft={draft}
        onChange={setDraft}
        onSearch={() => {
          clearTimeout(timer.current);
          apply(draft);
          void overview.refetch();
        }}
        onClear={() => {
          clearTimeout(timer.current);
          setDraft(NO_ENTITY_FILTERS);
          setView(defaultEntitiesView());
        }}
      />
      {narrow ? <EntitiesList {...list} /> : <EntitiesGrid {...list} />}
      <EntityActionDialogs actions={actions} />
    </Container>
  );
}
