import { readFileSync } from 'node:fs';
import { ACCOUNT_FILE_VERSION, type AccountFile } from '@billfold/contract/account-file';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, createPayment } from '../support/domain.ts';
import { signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();

describe('account data', () => {
  it('downloads the account file and loads it into another, empty account', async () => {
    const page = await browser.newPage();
    const owner = await signUpAndLogin(page);
    const api = await apiLogin(owner);
    const power = await createEntity(api, { name: `Power ${Date.now()}` });
    const rent = await createEntity(api, { name: `Rent ${Date.now()}`, category: 'Mortgage / Rent' });
    const bill = await createInvoice(api, power.id, { amount: 82.4 });
    await createInvoice(api, rent.id, { amount: 1500 });
    await createInvoice(api, rent.id, { amount: 1500, date: '2026-02-15' });
    await createPayment(api, bill.entryId, { amount: 82.4 });
    await api.request('POST', `/bills/${rent.id}/schedules`, {
      cadence: 'monthly',
      firstDate: '2099-01-15',
      amount: 1500,
      flow: 'expense',
      description: 'Rent {month} {year}',
    });

    await new AccountPage(page).goto();
    await page.getByRole('heading', { name: 'Your Data' }).waitFor();
    await screenshot(page, 'account-data');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download My Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^billfold-account-\d{4}-\d{2}-\d{2}\.json$/);
    const path = await download.path();
    const file = JSON.parse(readFileSync(path, 'utf8')) as AccountFile;
    expect(file).toMatchObject({ format: 'billfold-account', version: ACCOUNT_FILE_VERSION });
    expect(file.schedules.map((s) => [s.entity, s.nextDate, s.description])).toEqual([
      [2, '2099-01-15', 'Rent {month} {year}'],
    ]);
    expect(file.invoices.map((i) => i.amount)).toEqual(['82.40', '1500.00', '1500.00']);

    const other = await browser.newPage();
    const newcomer = await signUpAndLogin(other);
    await new AccountPage(other).goto();
    const input = other.getByTestId('account-file-input');
    await input.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('hello') });
    await other
      .getByRole('alert')
      .filter({ hasText: 'This file is not an account file: it is not valid JSON.' })
      .waitFor();

    await input.setInputFiles(path);
    await other
      .getByRole('alert')
      .filter({ hasText: 'Imported 2 entities, 3 invoices, 1 payment and 1 schedule.' })
      .waitFor();
    await screenshot(other, 'account-data-imported');
    const copy = await (await apiLogin(newcomer)).request<AccountFile>('GET', '/account/export');
    expect({ ...copy, exportedAt: null }).toEqual({ ...file, exportedAt: null });

    await input.setInputFiles(path);
    await other
      .getByRole('alert')
      .filter({ hasText: 'Import needs an empty account: this account already has entities or invoices' })
      .waitFor();
    await screenshot(other, 'account-data-refused');
    expect(browser.pageErrors).toEqual([]);
  });
});
