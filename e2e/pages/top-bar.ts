import type { Locator, Page } from 'playwright-core';

export class TopBar {
  readonly banner: Locator;
  readonly historyButton: Locator;

  constructor(readonly page: Page) {
    this.banner = page.getByRole('link', { name: 'Billfold' });
    this.historyButton = page.getByRole('button', { name: 'History' });
  }

  /** A page of the main navigation (a button with its name, an icon named so on a phone). */
  navLink(name: string): Locator {
    return this.page.getByRole('banner').getByRole('link', { name, exact: true });
  }

  /** The menu button named with the UPPERCASED username. */
  userButton(username: string): Locator {
    return this.page.getByRole('button', { name: username.toUpperCase(), exact: true });
  }

  async openUserMenu(username: string): Promise<Locator> {
    await this.userButton(username).click();
    return this.page.getByRole('menu');
  }

  async openHistoryMenu(): Promise<Locator> {
    await this.historyButton.click();
    return this.page.getByRole('menu');
  }

  async logout(username: string): Promise<void> {
    const menu = await this.openUserMenu(username);
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
  }

  async goToAccount(username: string): Promise<void> {
    const menu = await this.openUserMenu(username);
    await menu.getByRole('menuitem', { name: 'Account' }).click();
  }
}
