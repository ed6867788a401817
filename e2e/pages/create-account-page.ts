import type { Locator, Page } from 'playwright-core';

export interface AccountForm {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export class CreateAccountPage {
  readonly heading: Locator;
  readonly error: Locator;
  readonly submitButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Create Account' });
    this.error = page.locator('form').getByRole('alert');
    this.submitButton = page.getByRole('button', { name: 'Create Account' });
  }

  async goto(): Promise<this> {
    await this.page.goto('/user');
    await this.heading.waitFor();
    return this;
  }

  async fill(form: Partial<AccountForm>): Promise<void> {
    // Coming from the login page, whose Username field is still there until the route changes: filling it would
    // lose the text when the create form mounts.
    await this.heading.waitFor();
    const fields: [keyof AccountForm, string][] = [
      ['username', 'Username'],
      ['email', 'Email'],
      ['password', 'Password'],
      ['confirmPassword', 'Confirm Password'],
    ];
    for (const [key, label] of fields) {
      await this.page.getByLabel(label, { exact: true }).fill(form[key] ?? '');
    }
  }

  async submit(form: Partial<AccountForm>): Promise<void> {
    await this.fill(form);
    await this.submitButton.click();
  }
}
