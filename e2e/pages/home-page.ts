import type { Locator, Page } from 'playwright-core';

/** `/home`; issue 5 grows this model with the grid, the filter panel and the stats tab. */
export class HomePage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Home', level: 1 });
  }

  async goto(): Promise<this> {
    await this.page.goto('/home');
    await this.heading.waitFor();
    return this;
  }
}
