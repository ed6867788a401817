import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HomePage } from '../pages/home-page.ts';
import { RecyclePage } from '../pages/recycle-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, createPayment, daysAgo } from '../support/domain.ts';
import { loginAs, signUpAndLogin, waitForPath } from '../support/session.ts';

const browser = useBrowser();
const DESKTOP = { width: 1366, height: 900 };
const LONG_NAME = 'Northern Territories Electricity & Gas Co.';

/**
 * Cells, links in cells and header titles whose content is wider than the room they have (cut, or ending in an
 * ellipsis), once the app's fonts have loaded; with this machine's fonts (Debian: DejaVu and Liberation only).
 */
async function cutCells(grid: Locator): Promise<string[]> {
  await grid.page().evaluate(() => document.fonts.ready);
  return grid.evaluate((root) => {
    const cut: string[] = [];
    for (const element of root.querySelectorAll<HTMLElement>(
      '.MuiDataGrid-cell, .MuiDataGrid-cell a, .MuiDataGrid-columnHeaderTitle',
    )) {
      const field = element.closest('[data-field]')?.getAttribute('data-field');
      // Description is free text of any length: it takes the room that is left and may end in an ellipsis.
      if (field === 'services' || field === 'details') continue;
      if (element.scrollWidth > element.clientWidth)
        cut.push(`${field}: "${element.textContent}" (${element.scrollWidth} > ${element.clientWidth})`);
    }
    return cut;
  });
}

/** A household's widest row: the largest amount, a long entity name and category, a due date. */
async function seedWideRows(api: ApiSession) {
  const entity = await createEntity(api, { name: LONG_NAME, category: 'Personal Care / Fitness' });
  const entry = await createInvoice(api, entity.id, {
    date: daysAgo(2),
    amount: 999_999_999.99,
    dueDate: daysAgo(-30),
    services: 'A long description of what was bought on this invoice, longer than any column could show',
  });
  const overdue = await createInvoice(api, entity.id, {
    date: daysAgo(20),
    amount: 888_888_888.88,
    dueDate: daysAgo(8),
    services: 'Overdue',
  });
  return { entity, entry, overdue };
}

/** Home at 1366 px, signed in as a new user with the widest rows, its first row shown. */
async function openWideHome(): Promise<{ page: Page; home: HomePage }> {
  const api = await createSignedInUser();
  await seedWideRows(api);
  const page = await browser.newPage({ viewport: DESKTOP });
  await loginAs(page, api.user);
  const home = new HomePage(page);
  await home.rows.first().waitFor();
  return { page, home };
}

async function showDueColumn(page: Page): Promise<void> {
  await page.getByRole('toolbar').getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Due' }).check();
  await page.keyboard.press('Escape');
}

async function columnWidth(grid: Locator, field: string): Promise<number> {
  const box = await grid.locator(`.MuiDataGrid-columnHeader[data-field="${field}"]`).boundingBox();
  return Math.round(box?.width ?? 0);
}

describe('grid columns at 1366 px, on this machine’s fonts', () => {
  it('home: dates, due dates, 999,999,999.99, long entity names and headers are never cut, light and dark', async () => {
    const { page, home } = await openWideHome();
    await showDueColumn(page);
    await screenshot(page, 'grid-home-1366-light');
    await expect(cutCells(home.grid)).resolves.toEqual([]);
    // Description, free text, gives way first; it keeps a readable minimum and shows the full text on hover.
    expect(await columnWidth(home.grid, 'services')).toBeGreaterThanOrEqual(100);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(cutCells(home.grid)).resolves.toEqual([]);
    await screenshot(page, 'grid-home-1366-dark');
    // Sorted by a column, its header has room for the arrow too.
    for (const header of ['Date', 'Amount', 'Entity', 'Invoice #']) {
      await home.sortBy(header);
      await home.settled();
      // Off the header: a hovered header also shows its menu button, for as long as the pointer stays.
      await page.mouse.move(0, 0);
      await expect(cutCells(home.grid)).resolves.toEqual([]);
    }
  });

  it('home: a column dragged wider keeps its width after a reload and a visit elsewhere', async () => {
    const { page, home } = await openWideHome();
    const before = await columnWidth(home.grid, 'date');
    const separator = home.grid.locator('.MuiDataGrid-columnHeader[data-field="date"] .MuiDataGrid-columnSeparator');
    const box = await separator.boundingBox();
    if (!box) throw new Error('no column separator');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => columnWidth(home.grid, 'date')).toBeGreaterThanOrEqual(before + 55);
    const dragged = await columnWidth(home.grid, 'date');
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('columnWidths'))) ?? '{}')).toEqual({
      date: dragged,
    });

    await page.reload();
    await home.rows.first().waitFor();
    expect(await columnWidth(home.grid, 'date')).toBe(dragged);
    await page.goto('/account');
    await page.goto('/home');
    await home.rows.first().waitFor();
    expect(await columnWidth(home.grid, 'date')).toBe(dragged);
  });

  it('recycle bin: deletion dates, names, amounts and headers are never cut', async () => {
    const api = await createSignedInUser();
    const { entry, overdue } = await seedWideRows(api);
    const payment = await createPayment(api, overdue.entryId, { amount: 999_999_999.99, date: daysAgo(1) });
    await api.request('PUT', '/payments', { paymentId: payment.paymentId, recycle: true });
    await api.request('PUT', '/entries/edit', { entryId: entry.entryId, recycle: true });
    const other = await createEntity(api, { name: 'Southern Coastal Water & Sewer Authority' });
    await api.request('PUT', '/bills', { id: other.id, recycle: true });
    const page = await browser.newPage({ viewport: DESKTOP });
    await loginAs(page, api.user);
    const recycle = await new RecyclePage(page).goto();
    await recycle.rows.nth(2).waitFor();
    await screenshot(page, 'grid-recycle-1366-light');
    await expect(cutCells(recycle.grid)).resolves.toEqual([]);
    // Restore is in sight, not scrolled off to the right.
    const restore = await recycle.rows
      .first()
      .getByRole('button', { name: /^Restore/ })
      .boundingBox();
    expect(restore && restore.x + restore.width).toBeLessThanOrEqual(DESKTOP.width);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'grid-recycle-1366-dark');
  });
});

const PHONE = { width: 360, height: 740 };

/**
 * Rows that wrap (flex-wrap) whose later lines start at another edge than their first: a wrapped button
 * indented by the spacing of the one before it. Each as `<classes>: <first line's left> vs <line's left>`.
 */
function misalignedWrappedRows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const row of document.querySelectorAll<HTMLElement>('body *')) {
      const style = getComputedStyle(row);
      if (!style.display.includes('flex') || style.flexWrap !== 'wrap' || style.flexDirection !== 'row') continue;
      const boxes = [...row.children]
        .filter((child) => (child as HTMLElement).offsetParent !== null)
        .map((child) => child.getBoundingClientRect())
        .filter((box) => box.width > 0);
      // A child left of the one before it starts a new line.
      const starts = boxes.filter((box, i) => i === 0 || box.left < (boxes[i - 1]?.left ?? 0)).map((box) => box.left);
      for (const start of starts.slice(1)) {
        if (Math.abs(start - (starts[0] ?? start)) > 1)
          found.push(`${row.className.toString().slice(0, 60)}: ${starts[0]} vs ${start}`);
      }
    }
    return found;
  });
}

/** Elements of the top bar whose text is cut (wider than their box). */
function cutInTopBar(page: Page): Promise<string[]> {
  return page
    .getByRole('banner')
    .evaluate((bar) =>
      [...bar.querySelectorAll<HTMLElement>('*')]
        .filter((element) => element.scrollWidth > element.clientWidth + 1 && element.textContent?.trim())
        .map((element) => element.textContent ?? ''),
    );
}

async function inWindow(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

describe('top bar', () => {
  it('reaches Import CSV from the main navigation, not from History (desktop)', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const user = await signUpAndLogin(page);
    const topBar = new TopBar(page);
    const history = await topBar.openHistoryMenu();
    await expect(history.getByRole('menuitem').allTextContents()).resolves.toEqual(['Archives', 'Recycle Bin']);
    await page.keyboard.press('Escape');
    await expect(topBar.navLink('Import CSV').textContent()).resolves.toBe('Import CSV');
    await topBar.navLink('Import CSV').click();
    await waitForPath(page, '/import');
    await page.getByRole('heading', { name: 'Import CSV' }).waitFor();
    await expect(topBar.userButton(user.username).textContent()).resolves.toBe(user.username.toUpperCase());
    await screenshot(page, 'top-bar-desktop');
  });

  it('on a phone: nothing is cut, the username is whole in its menu, Import CSV is one tap away; light and dark', async () => {
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    const user = await signUpAndLogin(page, { username: `homeowner${Date.now().toString(36)}` });
    const topBar = new TopBar(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(cutInTopBar(page)).resolves.toEqual([]);
      for (const control of [topBar.navLink('Import CSV'), topBar.historyButton, topBar.userButton(user.username)])
        expect(await inWindow(page, control)).toBe(true);
      await screenshot(page, `top-bar-phone-${theme}`);
    }
    const menu = await topBar.openUserMenu(user.username);
    await menu.getByText('Signed in as').waitFor();
    await menu.getByText(user.username.toUpperCase(), { exact: true }).waitFor();
    await screenshot(page, 'top-bar-phone-user-menu');
    await page.keyboard.press('Escape');
    await topBar.navLink('Import CSV').click();
    await waitForPath(page, '/import');
    await expect(misalignedWrappedRows(page)).resolves.toEqual([]);
  });

  it('/home on a phone in the dark theme: every control is named with what it shows (axe, Label in Name)', async () => {
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await signUpAndLogin(page);
    await page.getByRole('button', { name: 'Filters, none active' }).waitFor();
    await page.evaluate(() => document.fonts.ready);
    await expectAccessible(page, '/home (dark, phone)');
  });
});

describe('phone pages', () => {
  it('the invoice page puts the payments’ edit and delete first, in sight; wrapped button rows stay aligned', async () => {
    const api = await createSignedInUser();
    const { entity, overdue } = await seedWideRows(api);
    await createPayment(api, overdue.entryId, { amount: 12.5, date: daysAgo(1), notes: 'first part' });
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(page, api.user);
    await page.goto(`/entries/${overdue.entryId}`);
    const payments = page.getByRole('table', { name: 'Payments' });
    await payments.getByRole('cell', { name: '12.50' }).waitFor();
    const headers = await payments.getByRole('columnheader').allInnerTexts();
    expect(headers[0]).toBe('Actions');
    for (const name of ['Edit payment', 'Delete payment'])
      expect(await inWindow(page, payments.getByRole('button', { name }))).toBe(true);
    await expect(misalignedWrappedRows(page)).resolves.toEqual([]);
    await screenshot(page, 'phone-invoice-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'phone-invoice-dark');
    for (const path of [`/entities/${entity.id}`, `/bills/${entity.id}`, '/account', '/archives', '/recycle']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.evaluate(() => document.fonts.ready);
      await expect(misalignedWrappedRows(page), path).resolves.toEqual([]);
    }
    await page.goto(`/entities/${entity.id}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await screenshot(page, 'phone-entity-dark');
  });

  it('on a desktop the payments’ actions stay last', async () => {
    const api = await createSignedInUser();
    const { overdue } = await seedWideRows(api);
    await createPayment(api, overdue.entryId, { amount: 12.5, date: daysAgo(1) });
    const page = await browser.newPage({ viewport: DESKTOP });
    await loginAs(page, api.user);
    await page.goto(`/entries/${overdue.entryId}`);
    const payments = page.getByRole('table', { name: 'Payments' });
    await payments.getByRole('cell', { name: '12.50' }).waitFor();
    expect((await payments.getByRole('columnheader').allInnerTexts()).at(-1)).toBe('Actions');
  });
});
