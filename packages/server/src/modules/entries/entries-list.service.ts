import { utcDate } from '@billfold/contract/dates';
import type { EntriesQuery, EntryList, SortField, SortOrder } from '@billfold/contract/entries';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import type { ReadModelRepository } from '../read-model/read-model.repository.ts';
import { toScope } from '../read-model/scope.ts';
import { DEFAULT_SORT, type EntrySort } from '../read-model/scope-sql.ts';
import { csvHeader, csvRow, exportFileName } from './entries-export.ts';
import { toEntry } from './entry.mapper.ts';

export const DEFAULT_PAGE_SIZE = 100;
/** Rows per query while exporting: bounded memory whatever the size of the ledger. */
export const EXPORT_CHUNK = 1000;

/** The list's filters and sort, without paging. */
export type ExportQuery = Omit<EntriesQuery, 'pageNum' | 'pageSize'>;

/**
 * No field and no order → newest first. A named field without an order sorts ascending, as a column
 * header does on its first click.
 */
export function resolveSort(field: SortField | undefined, order: SortOrder | undefined): EntrySort {
  if (field === undefined) return { field: DEFAULT_SORT.field, order: order ?? DEFAULT_SORT.order };
  return { field, order: order ?? 'asc' };
}

export class EntriesListService {
  constructor(
    private readonly repo: ReadModelRepository,
    private readonly now: () => number,
    private readonly exportChunk = EXPORT_CHUNK,
  ) {}

  async list(ledger: LedgerAt, query: EntriesQuery): Promise<EntryList> {
    const ledgerId = ledger.id;
    const { pageNum = 0, pageSize = DEFAULT_PAGE_SIZE, sortField, sortOrder, ...filters } = query;
    const sort = resolveSort(sortField, sortOrder);
    const categories = await this.repo.categoryBook(ledgerId, filters.categoryList);
    const scope = toScope(ledgerId, filters, { today: utcDate(this.now()), categories, version: ledger.version });
    const { total, rows, filed } = await this.repo.countAndPage(scope, sort, pageNum * pageSize, pageSize);
    const files = await this.repo.attachmentCounts(ledgerId, filed);
    return { entries: rows.map((r) => ({ ...toEntry(r), attachmentCount: files.get(r.id) ?? 0 })), total };
  }

  exportFileName(): string {
    return exportFileName(this.now());
  }

  /** CSV lines of every matching entry in list order, read in chunks so memory stays flat. */
  async *exportCsv(ledger: LedgerAt, query: ExportQuery): AsyncGenerator<string> {
    const ledgerId = ledger.id;
    const { sortField, sortOrder, ...filters } = query;
    const categories = await this.repo.categoryBook(ledgerId, filters.categoryList);
    yield csvHeader();
    for await (const rows of this.repo.exportRows(
      toScope(ledgerId, filters, { today: utcDate(this.now()), categories, version: ledger.version }),
      resolveSort(sortField, sortOrder),
      this.exportChunk,
    )) {
      yield rows.map(csvRow).join('');
    }
  }
}
