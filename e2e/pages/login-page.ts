import type { Locator, Page } from 'playwright-core';
import { notice } from './notice.ts';

export class LoginPage {
  readonly heading: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly submitButton: Locator;
  readonly createUserButton: Locator;
  readonly notice: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Login or Create User' });
    this.username = page.getByLabel('Username');
    this.password = page.getByLabel('Password', { exact: true });
    this.submitButton = page.getByRole('button', { name: 'Submit' });
    this.createUserButton = page.getByRole('button', { name: 'Create User' });
    this.notice = notice(page);
  }

  async goto(): Promise<this> {
    await this.page.goto('/');
    await this.heading.waitFor();
    return this;
  }

  async fill(username: string, password: string): Promise<void> {
    // The create form also has a Username field: fill this page's only once it shows.
    await this.heading.waitFor();
    await this.username.fill(username);
    await this.password.fill(password);
  }

  /** Fills the form and submits; does not wait for the outcome. */
  async login(username: string, password: string): Promise<void> {
    await this.fill(username, password);
    await this.submitButton.click();
  }
}
