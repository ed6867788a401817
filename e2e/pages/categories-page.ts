import type { Locator, Page } from 'playwright-core';
import { notice } from './notice.ts';

/** `/categories`: the user's own categories and the built-in ones. */
export class CategoriesPage {
  readonly heading: Locator;
  readonly addButton: Locator;
  readonly own: Locator;
  readonly builtIn: Locator;
  readonly dialog: Locator;
  readonly notice: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Categories', level: 1 });
    this.addButton = page.getByRole('button', { name: 'Add Category' });
    this.own = page.getByRole('list', { name: 'Your categories' });
    this.builtIn = page.getByRole('list', { name: 'Built-in categories' });
    this.dialog = page.getByRole('dialog');
    this.notice = notice(page);
  }

  async goto(): Promise<this> {
    await this.page.goto('/categories');
    await this.heading.waitFor();
    await this.addButton.waitFor();
    return this;
  }

  /** The rows of the user's own categories as "name · usage" lines. */
  async rows(): Promise<string[]> {
    const items = await this.own.getByRole('listitem').all();
    const out: string[] = [];
    for (const item of items) out.push(((await item.locator('p').allInnerTexts()).join(' | ') ?? '').trim());
    return out;
  }

  /** Fills the add or edit dialog and submits it. */
  async submitDialog(name: string, flow?: 'Income' | 'Expenses'): Promise<void> {
    await this.dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    if (flow) await this.dialog.getByRole('radio', { name: flow }).check();
    await this.dialog.getByRole('button', { name: /^(Add Category|Save)$/ }).click();
  }

  async add(name: string, flow?: 'Income' | 'Expenses'): Promise<void> {
    await this.addButton.click();
    await this.submitDialog(name, flow);
  }
}
