import type { Ledger } from '@billfold/contract/ledgers';
import { LEDGER_READ_ONLY_MESSAGE } from '@billfold/contract/ledgers';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CategoriesPage } from '../pages/categories-page.ts';
import { CreateAccountPage } from '../pages/create-account-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { notice } from '../pages/notice.ts';
import { TopBar } from '../pages/top-bar.ts';
import { createSignedInUser, newUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, daysAgo } from '../support/domain.ts';
import { loginAs, sessionStorageOf, waitForPath } from '../support/session.ts';

const browser = useBrowser();

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** axe on the page with its fonts loaded and no tooltip left by the pointer (`expectAccessible` ends any fade). */
async function accessible(page: Page, where: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.mouse.move(0, (page.viewportSize()?.height ?? 800) - 1);
  await expectAccessible(page, where);
}

/** The top bar's ledger switcher, named after the tab's ledger (docs/decisions/0303-web-ledgers.md). */
const switcher = (page: Page) => page.getByRole('button', { name: /^Ledger: / });

async function switchTo(page: Page, name: string) {
  await switcher(page).click();
  await page.getByRole('menuitemradio', { name: new RegExp(`^${name}`) }).click();
  await expect.poll(() => switcher(page).getAttribute('aria-label')).toMatch(new RegExp(`^Ledger: ${name}`));
}

/** A write the screens never offer a viewer, sent from the viewer's own tab with its token and ledger. */
function forcedWrite(page: Page) {
  return page.evaluate(async () => {
    const choice = JSON.parse(sessionStorage.getItem('ledger') ?? 'null') as { id: number } | null;
    const res = await fetch('/api/v1/bills', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sessionStorage.getItem('accessToken')}`,
        'content-type': 'application/json',
        ...(choice ? { 'Billfold-Ledger': String(choice.id) } : {}),
      },
      body: JSON.stringify({ name: 'Sneaky', status: 1, category: 'Uncategorized', internal: false }),
    });
    return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
  });
}

describe('shared ledgers in the browser (issue 27)', () => {
  it('invite → accept in a second browser → switch → a viewer cannot write → removal ends access in the open tab', async () => {
    const owner = await createSignedInUser();
    const memberApi = await createSignedInUser();
    const member = memberApi.user;
    // The member's own ledger has an invoice of its own, so a switch visibly changes what Home lists.
    const own = await createEntity(memberApi, { name: 'My Gym' });
    const ownInvoice = await createInvoice(memberApi, own.id, { date: daysAgo(1), amount: 30, flow: 'expense' });

    // ---- The owner makes a ledger and an invitation link for a viewer.
    const ownerPage = await browser.newPage({ viewport: DESKTOP });
    await loginAs(ownerPage, owner.user);
    await expect.poll(() => switcher(ownerPage).getAttribute('aria-label')).toBe('Ledger: Personal');
    await switcher(ownerPage).click();
    await ownerPage.getByRole('menuitem', { name: 'Manage ledgers' }).click();
    await ownerPage.getByRole('heading', { name: 'Ledgers' }).waitFor();
    await ownerPage.getByRole('button', { name: 'New Ledger' }).click();
    await ownerPage.getByRole('dialog').getByLabel('Name').fill('Household');
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await ownerPage.getByRole('heading', { name: 'Household' }).waitFor();
    // The new ledger is the tab's now, and the tab remembers it.
    await expect.poll(() => switcher(ownerPage).getAttribute('aria-label')).toBe('Ledger: Household');
    const ledgerId = Number(new URL(ownerPage.url()).pathname.split('/').pop());
    expect(JSON.parse((await sessionStorageOf(ownerPage)).ledger ?? 'null')).toMatchObject({ id: ledgerId });

    const household = owner.inLedger(ledgerId);
    const water = await createEntity(household, { name: 'City Water' });
    const shared = await createInvoice(household, water.id, { date: daysAgo(2), amount: 45.5, flow: 'expense' });

    const invitations = ownerPage.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('Role').click();
    await ownerPage.getByRole('option', { name: 'Viewer' }).click();
    await invitations.getByRole('button', { name: 'Create Invitation Link' }).click();
    const linkBox = invitations.getByLabel('Invitation link');
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(/\/invite#[A-Za-z0-9_-]{20,}$/);
    await invitations
      .getByText('Whoever opens this link first can join as a viewer. It works once, within 7 days,', { exact: false })
      .waitFor();
    await invitations.getByText(/^Viewer · invited by /).waitFor();
    await accessible(ownerPage, 'members page (owner)');
    await screenshotBothThemes(ownerPage, 'ledgers-members-desktop');

    // ---- The member, signed out in another browser, opens the link, signs in and comes back to it.
    const memberPage = await browser.newPage({ viewport: DESKTOP });
    await memberPage.goto(new URL(link).pathname + new URL(link).hash);
    const login = new LoginPage(memberPage);
    await login.heading.waitFor();
    await login.login(member.username, member.password);
    await waitForPath(memberPage, '/invite');
    await memberPage.getByText(/invited you to the ledger “Household” as a viewer\./).waitFor();
    await memberPage.getByText(/^The invitation expires /).waitFor();
    await accessible(memberPage, 'accept page');
    await screenshotBothThemes(memberPage, 'ledgers-accept-desktop');
    await memberPage.getByRole('button', { name: 'Accept' }).click();
    await waitForPath(memberPage, '/home');
    // The token leaves the address bar once used.
    expect(new URL(memberPage.url()).hash).toBe('');
    await expect.poll(() => notice(memberPage).textContent()).toBe('You joined “Household” as a viewer.');
    await expect.poll(() => switcher(memberPage).getAttribute('aria-label')).toBe('Ledger: Household (read only)');
    const home = new HomePage(memberPage);
    await expect.poll(() => home.invoiceNumbers()).toEqual([shared.invoiceId]);

    // ---- Switching: the personal ledger shows only the member's own invoice, Household only the shared one.
    await switchTo(memberPage, 'Personal');
    await expect.poll(() => home.invoiceNumbers()).toEqual([ownInvoice.invoiceId]);
    expect((await sessionStorageOf(memberPage)).ledger).toBeUndefined();
    await switchTo(memberPage, 'Household');
    await expect.poll(() => home.invoiceNumbers()).toEqual([shared.invoiceId]);
    // The choice is this tab's and survives a reload.
    await memberPage.reload();
    await expect.poll(() => switcher(memberPage).getAttribute('aria-label')).toBe('Ledger: Household (read only)');
    await expect.poll(() => home.invoiceNumbers()).toEqual([shared.invoiceId]);

    // ---- A viewer cannot write: the controls are disabled and say why; a forced write is refused.
    const newInvoice = memberPage.getByRole('link', { name: 'New Invoice' });
    expect(await newInvoice.getAttribute('aria-disabled')).toBe('true');
    await newInvoice.hover({ force: true });
    await expect.poll(() => memberPage.getByRole('tooltip').textContent()).toBe(LEDGER_READ_ONLY_MESSAGE);
    await accessible(memberPage, 'home of a viewer');
    await screenshotBothThemes(memberPage, 'ledgers-viewer-home-desktop');
    await switcher(memberPage).click();
    await memberPage.getByRole('menu').waitFor();
    await accessible(memberPage, 'ledger switcher menu');
    await screenshotBothThemes(memberPage, 'ledgers-switcher-desktop');
    await memberPage.keyboard.press('Escape');

    await memberPage.goto(`/entries/${shared.entryId}`);
    await memberPage.getByRole('heading', { name: `Invoice #${shared.invoiceId}` }).waitFor();
    for (const name of ['Edit Invoice', 'Edit Entity', 'Delete Invoice', 'Add Payment']) {
      const control = memberPage.getByRole(name.startsWith('Edit') ? 'link' : 'button', { name, exact: true });
      expect(
        await control.evaluate((el) => el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true'),
        name,
      ).toBe(true);
    }
    await memberPage.getByRole('heading', { name: 'History' }).waitFor();
    await accessible(memberPage, 'invoice page of a viewer');
    await screenshotBothThemes(memberPage, 'ledgers-viewer-invoice-desktop');
    await memberPage.setViewportSize(PHONE);
    await accessible(memberPage, 'invoice page of a viewer (phone)');
    await screenshotBothThemes(memberPage, 'ledgers-viewer-invoice-phone');
    expect(await memberPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await memberPage.setViewportSize(DESKTOP);
    const refused = await forcedWrite(memberPage);
    expect(refused).toEqual({
      status: 403,
      body: expect.objectContaining({ code: 'LEDGER_READ_ONLY', message: LEDGER_READ_ONLY_MESSAGE }),
    });
    expect(
      (await household.request<{ billDTOList: { name: string }[] }>('GET', '/bills')).billDTOList.map((b) => b.name),
    ).toEqual(['City Water']);

    // ---- The owner removes the member; the member's open tab loses the ledger at its next action.
    await ownerPage.reload();
    const members = ownerPage.getByRole('region', { name: 'Members' });
    await members.getByText(member.username, { exact: true }).waitFor();
    await members.getByRole('button', { name: `Remove ${member.username}` }).click();
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => notice(ownerPage).textContent()).toBe(`${member.username} was removed from the ledger.`);
    await members.getByText(member.username, { exact: true }).waitFor({ state: 'detached' });

    // Still on the invoice page of Household: the next action is a call the server now refuses.
    await memberPage.getByRole('link', { name: 'City Water' }).click();
    await expect
      .poll(() => notice(memberPage).textContent())
      .toBe('You no longer have access to “Household”. Showing your personal ledger.');
    await expect.poll(() => switcher(memberPage).getAttribute('aria-label')).toBe('Ledger: Personal');
    await waitForPath(memberPage, '/home');
    expect((await sessionStorageOf(memberPage)).ledger).toBeUndefined();
    await expect.poll(() => home.invoiceNumbers()).toEqual([ownInvoice.invoiceId]);
    // Only the personal ledger is left in the switcher.
    await switcher(memberPage).click();
    expect(await memberPage.getByRole('menuitemradio').allInnerTexts()).toEqual([expect.stringMatching(/^Personal/)]);
    const ledgers = await memberApi.request<{ ledgers: Ledger[] }>('GET', '/ledgers');
    expect(ledgers.ledgers.map((l) => l.name)).toEqual(['Personal']);
  }, 180_000);

  it('a visitor without an account signs up from the link, joins as an editor, and a role lowered under the open tab refuses the next write and disables the controls', async () => {
    const owner = await createSignedInUser();
    const ledger = await owner.request<Ledger>('POST', '/ledgers', { name: 'Flat share' });
    const invitation = await owner.request<{ link: string }>('POST', `/ledgers/${ledger.id}/invitations`, {
      role: 'editor',
    });
    const page = await browser.newPage({ viewport: DESKTOP });
    const url = new URL(invitation.link);
    await page.goto(url.pathname + url.hash);
    const login = new LoginPage(page);
    await login.heading.waitFor();
    await login.createUserButton.click();
    const user = newUser();
    await new CreateAccountPage(page).submit({ ...user, confirmPassword: user.password });
    await login.heading.waitFor();
    await login.login(user.username, user.password);
    await waitForPath(page, '/invite');
    expect(new URL(page.url()).hash).toBe(url.hash);
    await page.getByText(/invited you to the ledger “Flat share” as an editor\./).waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();
    await waitForPath(page, '/home');
    await expect.poll(() => switcher(page).getAttribute('aria-label')).toBe('Ledger: Flat share');
    // An editor writes: New Invoice is a live link.
    expect(await page.getByRole('link', { name: 'New Invoice' }).getAttribute('aria-disabled')).toBeNull();

    // The owner lowers the role while the tab is open: the next write is refused with the server's sentence, and
    // the tab reads its role again, so the controls follow.
    const joined = (
      await owner.request<{ members: { userId: number; you: boolean }[] }>('GET', `/ledgers/${ledger.id}/members`)
    ).members.find((m) => !m.you);
    const categories = new CategoriesPage(page);
    const menu = await new TopBar(page).openUserMenu(user.username);
    await menu.getByRole('menuitem', { name: 'Categories' }).click();
    await categories.heading.waitFor();
    await owner.request('PATCH', `/ledgers/${ledger.id}/members/${joined?.userId}`, { role: 'viewer' });
    await categories.add('Rent share', 'Expenses');
    await expect.poll(() => notice(page).textContent()).toBe(`Failed to add category. ${LEDGER_READ_ONLY_MESSAGE}`);
    // The dialog stays open with the reason, as every refused dialog does; closing it shows the page as it now is.
    await categories.dialog.getByText(LEDGER_READ_ONLY_MESSAGE).waitFor();
    await categories.dialog.getByRole('button', { name: 'Cancel' }).click();
    await categories.dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => switcher(page).getAttribute('aria-label')).toBe('Ledger: Flat share (read only)');
    expect(await categories.addButton.isDisabled()).toBe(true);
    // The link is used: opening it again says so.
    await page.goto(url.pathname + url.hash);
    await page.getByText(/^This invitation link is not valid/).waitFor();
  }, 120_000);

  it('an invalid link says so, and the screens fit a phone in both themes', async () => {
    const owner = await createSignedInUser();
    const ledger = await owner.request<Ledger>('POST', '/ledgers', { name: 'Smith family household ledger' });
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(page, owner.user);
    await page.goto(`/invite#${'x'.repeat(40)}`);
    await page
      .getByText(
        'This invitation link is not valid: it may have expired, been revoked or already been used. Ask for a new one.',
      )
      .waitFor();
    await accessible(page, 'accept page, invalid link (phone)');
    await screenshotBothThemes(page, 'ledgers-accept-invalid-phone');

    await page.goto(`/ledgers/${ledger.id}`);
    await page.getByRole('heading', { name: 'Smith family household ledger' }).waitFor();
    await page.getByRole('button', { name: 'Create Invitation Link' }).click();
    await page.getByLabel('Invitation link').waitFor();
    await accessible(page, 'members page (phone)');
    await screenshotBothThemes(page, 'ledgers-members-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.getByRole('button', { name: 'Open in this tab' }).click();
    await waitForPath(page, '/home');
    await switcher(page).click();
    await page.getByRole('menu').waitFor();
    await accessible(page, 'ledger switcher (phone)');
    await screenshotBothThemes(page, 'ledgers-switcher-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }, 120_000);
});
