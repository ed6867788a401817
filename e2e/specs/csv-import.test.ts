import type { EntryList } from '@billfold/contract/entries';
import type { RecycleList } from '@billfold/contract/recycle';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice } from '../support/domain.ts';
import { signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();

/** A CSV file for the file input. */
const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

/** A new user's Import CSV page at `viewport` (the browser's default when not given); its file input. */
async function openImport(viewport?: { width: number; height: number }): Promise<{ page: Page; input: Locator }> {
  const page = await browser.newPage(viewport ? { viewport, mobile: true } : {});
  await signUpAndLogin(page);
  await page.goto('/import');
  return { page, input: page.getByTestId('csv-file-input') };
}

const BANK = [
  'Posted,Payee,Details,Out,In',
  '01/05/2026,Power Co,January bill,"$1,234.56",',
  '01/06/2026,ACME Payroll,Salary,,"$2,500.00"',
  '01/07/2026,Water Works,January water,64.37,',
  '01/07/2026,Water Works,January water,64.37,',
].join('\n');

describe('CSV import', () => {
  it('uploads, previews, maps, imports and undoes the import as a unit', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const power = await createEntity(api, { name: 'Power Co' });
    await createInvoice(api, power.id, { date: '2025-12-05', amount: 99 });

    await page.goto('/import');
    await page.getByRole('heading', { name: 'Import CSV' }).waitFor();
    const input = page.getByTestId('csv-file-input');
    await input.setInputFiles(csvFile('bank.csv', BANK));
    const summary = page.getByText(/^4 rows · /);
    await summary.waitFor();
    // Payee and Details map themselves; "Posted", "Out" and "In" are not names the detector knows: the user maps them.
    await page.getByText('Choose the column that holds the date.').waitFor();
    await page.getByText('Choose the column that holds the amount, or the debit and credit columns.').waitFor();
    await screenshot(page, 'csv-import-unmapped');

    const pick = async (field: string, column: string) => {
      await page.getByLabel(field, { exact: true }).click();
      await page.getByRole('option', { name: column, exact: true }).click();
      await page.getByRole('listbox').waitFor({ state: 'hidden' });
    };
    await pick('Date', 'Posted');
    await page.getByText('Choose the column that holds the date.').waitFor({ state: 'hidden' });
    await pick('Debit (expense)', 'Out');
    await page.getByText('Choose the column that holds the amount').waitFor({ state: 'hidden' });
    await pick('Credit (income)', 'In');
    await page.getByText('4 rows · 0 rows with errors · 1 likely duplicate · 2 new entities').waitFor();
    const table = page.getByRole('table', { name: 'Rows to import' });
    await expect(table.getByRole('row').nth(1).textContent()).resolves.toContain('$1,234.56');
    await table.getByText('Likely duplicate of an earlier row: import anyway').waitFor();
    await screenshot(page, 'csv-import-preview');

    // The button says what happens: all of them together, or none.
    const importButton = page.getByRole('button', { name: 'Import All 3 Invoices' });
    await page
      .getByText(
        'All or nothing: the 3 invoices are saved together, or none of them if anything fails. 1 likely duplicate is left out. Undo Import removes them all again.',
      )
      .waitFor();
    expect(await importButton.getAttribute('aria-describedby')).toBe('import-all-or-nothing');
    await importButton.click();
    await page.getByText('Imported 3 invoices, 2 new entities. 1 duplicate skipped.').waitFor();
    await page.getByRole('list', { name: 'Recent imports' }).getByText('bank.csv').waitFor();
    await page.getByText(/· 3 invoices · 1 duplicate skipped$/).waitFor();
    await screenshot(page, 'csv-import-done');
    const listed = await api.request<EntryList>('GET', '/entries?startDate=2026-01-01&endDate=2026-01-31');
    expect(listed.total).toBe(3);

    // Undo asks first, with what it takes away; Cancel leaves the import as it is.
    await page.getByRole('button', { name: 'Undo Import' }).click();
    const confirm = page.getByRole('dialog', { name: 'Undo the import of 3 invoices?' });
    await confirm
      .getByText(
        'The 3 invoices and 2 new entities of bank.csv go to the recycle bin, where they can be restored for 14 days.',
        { exact: false },
      )
      .waitFor();
    await screenshot(page, 'csv-import-undo-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await api.request<EntryList>('GET', '/entries?startDate=2026-01-01&endDate=2026-01-31')).total).toBe(3);
    await page.locator('.MuiDialog-root').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Undo Import' }).click();
    await confirm.getByRole('button', { name: 'Undo Import' }).click();
    await page.getByText('Import undone: its invoices are in the recycle bin.').waitFor();
    const after = await api.request<EntryList>('GET', '/entries?startDate=2026-01-01&endDate=2026-01-31');
    expect(after.total).toBe(0);
    const bin = await api.request<RecycleList>('GET', '/recycle');
    expect(bin.recycleItems.map((i) => `${i.entityType} ${i.partyName}`).sort()).toEqual([
      'Entity ACME Payroll',
      'Entity Water Works',
      'Invoice Power Co',
    ]);

    // The mapping is remembered for this header set: the same file maps itself next time.
    await input.setInputFiles(csvFile('bank.csv', BANK));
    await page.getByText('4 rows · 0 rows with errors · 1 likely duplicate · 2 new entities').waitFor();
    await screenshot(page, 'csv-import-remembered');
    expect(browser.pageErrors).toEqual([]);
  });

  it('says what is wrong with a bad file and imports nothing', async () => {
    const { page, input } = await openImport();
    await input.setInputFiles(csvFile('mixed.csv', 'Date,Entity,Amount\n2026-01-05,Power,-12\n01/06/2026,Power,-13\n'));
    await page
      .getByText(
        'The dates mix formats: 1 row like "2026-01-05" (YYYY-MM-DD) on line 2; 1 row like "01/06/2026" (MM/DD/YYYY or DD/MM/YYYY) on line 3.',
        { exact: false },
      )
      .waitFor();
    await expect(
      page.getByRole('button', { name: /^(Import All|Import 1|Nothing to Import)/ }).isDisabled(),
    ).resolves.toBe(true);
    await input.setInputFiles(
      csvFile('bad.csv', 'Date,Entity,Amount\n2026-01-05,Power,lots\n2026-01-06,Power,"$1,000,000,000.00"\n'),
    );
    await page.getByText('Amount "lots" is not an amount.').waitFor();
    await page.getByText('Amount "$1,000,000,000.00" is out of range (the most is 999,999,999.99).').waitFor();
    await screenshot(page, 'csv-import-errors');
    await input.setInputFiles(csvFile('data.csv', '2026-01-05,Power,12\n'));
    await page.getByText('The first line holds data, not column names.', { exact: false }).waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it('names the rows and the format of every date problem', async () => {
    const { page, input } = await openImport();
    const lines = ['Date,Entity,Amount', '2026-01-05,Power,-12', '2026-01-06,Power,-12'];
    for (let day = 10; day <= 13; day++) lines.push(`01/${day}/2026,Water,-3`);
    await input.setInputFiles(csvFile('mixed.csv', lines.join('\n')));
    await page
      .getByText(
        'The dates mix formats: 2 rows like "2026-01-05" (YYYY-MM-DD) on lines 2 and 3; 4 rows like "01/10/2026" (MM/DD/YYYY or DD/MM/YYYY) on lines 4, 5, 6 and 7. Use one date format throughout the file.',
      )
      .waitFor();
    await screenshot(page, 'csv-import-mixed-dates');
    // One layout, but some dates the file's format cannot read: which lines, which format.
    await input.setInputFiles(
      csvFile('days.csv', 'Date,Entity,Amount\n01/05/2026,Power,-1\n05/13/2026,Power,-2\n13/05/2026,Power,-3\n'),
    );
    await page
      .getByText(
        '1 date is not in the format MM/DD/YYYY on line 4. Fix it in the file, or choose another date format in the mapping.',
      )
      .waitFor();
    await page.getByText('Date "13/05/2026" is not a date in the format MM/DD/YYYY.').waitFor();
    await expect(page.getByRole('button', { name: 'Nothing to Import' }).isDisabled()).resolves.toBe(true);
    expect(await page.getByText('All or nothing:', { exact: false }).isVisible()).toBe(false);
    await screenshot(page, 'csv-import-unread-dates');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'csv-import-unread-dates-dark');
  });

  it('asks before undoing an import from the list, with its count; on a phone too', async () => {
    const { page, input } = await openImport({ width: 390, height: 844 });
    const file = 'Date,Payee,Amount\n2026-02-01,Phone Co,-40\n2026-02-02,Phone Co,-41\n';
    await input.setInputFiles(csvFile('phone.csv', file));
    await page.getByRole('button', { name: 'Import All 2 Invoices' }).click();
    await page.getByText('Imported 2 invoices, 1 new entity.').waitFor();
    await screenshot(page, 'csv-import-phone-done');
    const list = page.getByRole('list', { name: 'Recent imports' });
    await list.getByRole('button', { name: 'Undo' }).click();
    const confirm = page.getByRole('dialog', { name: 'Undo the import of 2 invoices?' });
    await confirm
      .getByText('The 2 invoices and 1 new entity of phone.csv go to the recycle bin', { exact: false })
      .waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'csv-import-phone-undo-confirm-dark');
    await confirm.getByRole('button', { name: 'Undo Import' }).click();
    await list.getByText('Undone').waitFor();
  });

  it('shows the real progress of a large import: checking, then the share written, then the result', async () => {
    const { page, input } = await openImport();
    const rows = 20_000;
    const lines = ['Date,Payee,Memo,Amount'];
    for (let i = 0; i < rows; i++)
      lines.push(`2026-${String((i % 12) + 1).padStart(2, '0')}-15,Payee ${i % 50},Row ${i},-${i + 1}.25`);
    await input.setInputFiles(csvFile('large.csv', lines.join('\n')));
    await page.getByRole('button', { name: 'Import All 20,000 Invoices' }).waitFor();
    // Every state the progress bar passes through, recorded in the page as it changes.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[aria-label="Import progress"]');
        if (!bar) return;
        const state = `${bar.getAttribute('aria-valuenow') ?? 'checking'} ${bar.parentElement?.textContent ?? ''}`;
        if (seen.at(-1) !== state) seen.push(state);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Import All 20,000 Invoices' }).click();
    await page.getByText('Imported 20,000 invoices, 50 new entities.').waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen[0]).toBe('checking Checking the file…');
    const shares = seen.filter((s) => s !== seen[0]).map((s) => Number(s.split(' ')[0]));
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(shares.some((v) => v > 0 && v < 95)).toBe(true);
    for (const s of seen.slice(1)) expect(s).toMatch(/^(\d+) Importing… \1%$/);
    expect(browser.pageErrors).toEqual([]);
  });
});
