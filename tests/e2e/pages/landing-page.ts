/** Page object: the landing page. */
import type { Page } from 'playwright-core';

export class LandingPageObject {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/landing`);
    await this.page.getByRole('button', { name: /ENTER PUBLIC CHANNEL/ }).waitFor();
  }

  async enterPublicChannel(): Promise<void> {
    await this.page.getByRole('button', { name: /ENTER PUBLIC CHANNEL/ }).click();
  }

  /** Chooses a file in the key-file input. */
  async chooseKeyFile(name: string, contents: string): Promise<void> {
    await this.page.locator('input[type="file"]').setInputFiles({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(contents),
    });
  }

  authenticateButton() {
    return this.page.getByRole('button', { name: /^AUTHENTICATE/ });
  }
}
