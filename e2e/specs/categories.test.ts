import type { EntryList } from '@billfold/contract/entries';
import { describe, expect, it } from 'vitest';
import { CategoriesPage } from '../pages/categories-page.ts';
import { EditEntityPage } from '../pages/edit-entity-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { createSignedInUser } from '../support/api.ts';
import { screenshot, screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, createPayment, daysAgo } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The category column of the grid's rows, in order. */
const categoryCells = async (home: HomePage) => {
  await home.settled();
  return home.rows.locator('[data-field="category"]').allInnerTexts();
};

describe('categories of one’s own', () => {
  it('adds Salary as income, uses it on a new entity and invoice, filters Home by it, sees it in stats, renames and retires it', async () => {
    const api = await createSignedInUser();
    const power = await createEntity(api, { name: 'City Power', category: 'Utilities' });
    await createInvoice(api, power.id, { date: daysAgo(2), amount: 80, flow: 'expense' });
    const page = await browser.newPage({ viewport: DESKTOP });
    await loginAs(page, api.user);

    // Reached from the user menu.
    const menu = await new TopBar(page).openUserMenu(api.user.username);
    await menu.getByRole('menuitem', { name: 'Categories' }).click();
    const categories = new CategoriesPage(page);
    await categories.heading.waitFor();
    await page.getByText('You have no categories of your own yet.').waitFor();
    expect(await categories.builtIn.getByRole('listitem').count()).toBe(21);

    await categories.add('Salary', 'Income');
    await expect.poll(() => categories.notice.textContent()).toBe('Category added.');
    await expect.poll(() => categories.rows()).toEqual(['Salary | Income · no entities']);
    // A built-in name is refused with the server's reason, and the dialog stays open.
    await categories.add('utilities');
    await categories.dialog.getByText('"utilities" is a built-in category.').waitFor();
    await categories.dialog.getByRole('button', { name: 'Cancel' }).click();
    await categories.dialog.waitFor({ state: 'hidden' });

    // A new invoice for a new entity in Salary: the picker offers it, marked Income, and the flow starts as Income.
    const form = await new InvoiceFormPage(page).gotoNew();
    await form.entity.fill('Acme Payroll');
    await page.getByRole('option', { name: 'Add new entity "Acme Payroll"' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Entity' });
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    const salaryOption = page.getByRole('option', { name: /^Salary/ });
    await expect.poll(() => salaryOption.textContent()).toBe('SalaryIncome');
    await screenshot(page, 'categories-picker');
    await salaryOption.click();
    await dialog.getByRole('button', { name: 'Create Entity' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => form.flow('Income').isChecked()).toBe(true);
    await form.fill({ amount: '2500' });
    await form.submitButton.click();
    await page.waitForURL((url) => !url.pathname.startsWith('/invoice'));
    const salaried = await api.request<EntryList>('GET', '/entries?categoryList=Salary');
    expect(salaried.entries.map((e) => [e.name, e.category, e.flow])).toEqual([['Acme Payroll', 'Salary', 'INCOMING']]);
    await createPayment(api, salaried.entries[0]?.entryId as number, { amount: 2500, date: daysAgo(0) });

    // Home: the filter offers it among the built-in ones; filtering by it shows only its invoice.
    const home = await new HomePage(page).goto();
    expect(await categoryCells(home)).toEqual(expect.arrayContaining(['Salary', 'Utilities']));
    await home.pickOptions(home.categorySelect, ['Salary']);
    await home.searchButton.click();
    await expect.poll(() => categoryCells(home)).toEqual(['Salary']);
    await screenshotBothThemes(page, 'categories-home-filtered');

    // Stats: the income breakdown by category names it.
    await home.statsTab.click();
    const incomeCategories = page.getByRole('region', { name: 'Income Categories' });
    await expect.poll(() => incomeCategories.getByRole('listitem').allTextContents()).toEqual(['Salary$2,500.00']);
    await page.mouse.move(0, 0);
    await screenshotBothThemes(page, 'categories-stats');

    // Rename: every invoice of the category follows.
    await categories.goto();
    await expect.poll(() => categories.rows()).toEqual(['Salary | Income · 1 entity']);
    await categories.own.getByRole('button', { name: 'Edit Salary' }).click();
    await categories.submitDialog('Wages');
    await expect.poll(() => categories.notice.textContent()).toBe('Category saved.');
    await expect.poll(() => categories.rows()).toEqual(['Wages | Income · 1 entity']);
    await screenshotBothThemes(page, 'categories-desktop');

    // Retire: gone from the pickers for other entities, kept on its own entity, restorable.
    await categories.own.getByRole('button', { name: 'Retire Wages' }).click();
    await expect.poll(() => categories.notice.textContent()).toBe('Category retired: it stays on 1 entity.');
    await categories.own.getByText('Retired', { exact: true }).waitFor();
    await screenshotBothThemes(page, 'categories-retired-desktop');

    const otherEntity = await new EditEntityPage(page).goto(power.id);
    await otherEntity.category.click();
    await page.getByRole('option', { name: 'Utilities', exact: true }).waitFor();
    expect(await page.getByRole('option', { name: /^Wages/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    const payrollId = (await api.request<EntryList>('GET', '/entries?categoryList=wages')).entries[0]?.billId as number;
    const payroll = await new EditEntityPage(page).goto(payrollId);
    await expect.poll(() => payroll.category.textContent()).toBe('Wages');
    const homeAgain = await new HomePage(page).goto();
    await homeAgain.clearButton.click();
    await expect.poll(() => categoryCells(homeAgain)).toEqual(expect.arrayContaining(['Wages', 'Utilities']));

    await categories.goto();
    await categories.own.getByRole('button', { name: 'Restore Wages' }).click();
    await expect.poll(() => categories.notice.textContent()).toBe('Category restored.');
    await expect.poll(() => categories.rows()).toEqual(['Wages | Income · 1 entity']);
    expect(browser.pageErrors).toEqual([]);
  }, 120_000);

  it('reads on a phone, light and dark', async () => {
    const api = await createSignedInUser();
    await api.request('POST', '/categories', { name: 'Salary', flow: 'income' });
    await api.request('POST', '/categories', { name: 'Refunds from long-named online shops', flow: 'income' });
    const pets = await api.request<{ id: number }>('POST', '/categories', { name: 'Pet care' });
    await api.request('PATCH', `/categories/${pets.id}`, { retired: true });
    await createEntity(api, { name: 'Employer', category: 'Salary' });
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(page, api.user);
    const categories = await new CategoriesPage(page).goto();
    await expect
      .poll(() => categories.rows())
      .toEqual([
        'Pet care | Expenses · no entities',
        'Refunds from long-named online shops | Income · no entities',
        'Salary | Income · 1 entity',
      ]);
    // Nothing sideways: the page fits the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshotBothThemes(page, 'categories-phone');
    await categories.addButton.click();
    await categories.dialog.getByRole('textbox', { name: 'Name' }).waitFor();
    await screenshotBothThemes(page, 'categories-phone-dialog');
    expect(browser.pageErrors).toEqual([]);
  });
});
