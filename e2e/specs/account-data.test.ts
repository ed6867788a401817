import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCOUNT_FILE_VERSION, type AccountFile } from '@billfold/contract/account-file';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { type ApiSession, apiLogin } from '../support/api.ts';
import { screenshot, screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { attachFile, createEntity, createInvoice, createPayment } from '../support/domain.ts';
import { signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();

/** The ledger archive's `ledger.json` and file names, as the system's tar reads them. */
function unpack(archive: string): { file: AccountFile; names: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'billfold-e2e-untar-'));
  try {
    const names = execFileSync('tar', ['-tf', archive], { encoding: 'utf8' }).trim().split('\n');
    execFileSync('tar', ['-xf', archive, '-C', dir, 'ledger.json']);
    return { file: JSON.parse(readFileSync(join(dir, 'ledger.json'), 'utf8')) as AccountFile, names };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `GET /account/export` as the bytes the server sends. */
async function exportBytes(api: ApiSession): Promise<Buffer> {
  const res = await fetch(`${api.origin}/api/v1/account/export`, {
    headers: { authorization: `Bearer ${api.accessToken}` },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('account data', () => {
  it('downloads the account file with its attached file and loads it into another, empty account, preview and all', async () => {
    const page = await browser.newPage();
    const owner = await signUpAndLogin(page);
    const api = await apiLogin(owner);
    const power = await createEntity(api, { name: `Power ${Date.now()}` });
    const rent = await createEntity(api, { name: `Rent ${Date.now()}`, category: 'Mortgage / Rent' });
    const bill = await createInvoice(api, power.id, { amount: 82.4 });
    await createInvoice(api, rent.id, { amount: 1500 });
    await createInvoice(api, rent.id, { amount: 1500, date: '2026-02-15' });
    await createPayment(api, bill.entryId, { amount: 82.4 });
    await attachFile(api, 'entries', bill.entryId, 'Power bill March.pdf');
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
    // A ledger with a file downloads as the ledger archive: ledger.json, then the file under its SHA-256.
    expect(download.suggestedFilename()).toMatch(/^billfold-account-\d{4}-\d{2}-\d{2}\.tar$/);
    const path = await download.path();
    const { file, names } = unpack(path);
    expect(file).toMatchObject({ format: 'billfold-account', version: ACCOUNT_FILE_VERSION });
    expect(file.attachments.map((a) => [a.invoice, a.fileName, a.contentType])).toEqual([
      [1, 'Power bill March.pdf', 'application/pdf'],
    ]);
    expect(names).toEqual(['ledger.json', `files/${file.attachments[0]?.sha256}`]);
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
      .filter({ hasText: 'This file is not an account file: it is neither JSON nor a Billfold .tar archive.' })
      .waitFor();

    // The picker offers .tar files; the file goes up as it is.
    expect(await input.getAttribute('accept')).toContain('.tar');
    await input.setInputFiles(path);
    await other
      .getByRole('alert')
      .filter({ hasText: 'Imported 2 entities, 3 invoices, 1 payment, 1 schedule and 1 file.' })
      .waitFor();
    await screenshotBothThemes(other, 'account-data-imported');
    const newcomerApi = await apiLogin(newcomer);
    const copyPath = join(mkdtempSync(join(tmpdir(), 'billfold-e2e-copy-')), 'copy.tar');
    writeFileSync(copyPath, await exportBytes(newcomerApi));
    const copy = unpack(copyPath);
    expect({ ...copy.file, exportedAt: null }).toEqual({ ...file, exportedAt: null });
    expect(copy.names).toEqual(names);

    // The imported invoice shows its file, previewed from the bytes that came with the archive.
    const [imported] = (
      await newcomerApi.request<{ entries: { entryId: number; attachmentCount: number }[] }>(
        'GET',
        '/entries?pageSize=10',
      )
    ).entries.filter((e) => e.attachmentCount === 1);
    await other.goto(`/entries/${imported?.entryId}`);
    const card = other.getByTestId('attachments').getByTestId('attachment').filter({ hasText: 'Power bill March.pdf' });
    const preview = card.getByTestId('attachment-preview');
    await preview.waitFor();
    await expect
      .poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await screenshotBothThemes(other, 'account-data-imported-file');
    await new AccountPage(other).goto();

    await input.setInputFiles(path);
    await other
      .getByRole('alert')
      .filter({ hasText: 'Import needs an empty account: this account already has entities or invoices' })
      .waitFor();
    await screenshot(other, 'account-data-refused');
    expect(browser.pageErrors).toEqual([]);
  });
});
