import type { Locator, Page } from 'playwright-core';
import { notice } from './notice.ts';

export class AccountPage {
  readonly heading: Locator;
  readonly dialog: Locator;
  readonly dialogError: Locator;
  readonly notice: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Account Information' });
    this.dialog = page.getByRole('dialog');
    this.dialogError = this.dialog.getByRole('alert');
    this.notice = notice(page);
  }

  async goto(): Promise<this> {
    await this.page.goto('/account');
    await this.heading.waitFor();
    await this.value('Username').waitFor();
    return this;
  }

  /** The value shown next to a label (Username, Email, User Role, Account Created, Last Login). */
  value(label: string): Locator {
    return this.page
      .locator('dt', { hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]/*[1]');
  }

  async changeEmail(newEmail: string, password: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Change', exact: true }).click();
    await this.dialog.getByLabel('New Email').fill(newEmail);
    await this.dialog.getByLabel('Password', { exact: true }).fill(password);
    await this.dialog.getByRole('button', { name: 'Save' }).click();
  }

  async changePassword(current: string, next: string, confirm = next): Promise<void> {
    await this.page.getByRole('button', { name: 'Change Password' }).click();
    await this.changePasswordFields(current, next, confirm);
  }

  /** Fills the open Change Password dialog and submits it. */
  async changePasswordFields(current: string, next: string, confirm = next): Promise<void> {
    await this.dialog.getByLabel('Current Password').fill(current);
    await this.dialog.getByLabel('New Password', { exact: true }).fill(next);
    await this.dialog.getByLabel('Confirm New Password').fill(confirm);
    await this.dialog.getByRole('button', { name: 'Change Password' }).click();
  }

  async deactivate(password: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Deactivate Account' }).click();
    await this.dialog.getByLabel('Password', { exact: true }).fill(password);
    await this.dialog.getByRole('button', { name: 'Deactivate' }).click();
  }
}
