/** Page object: the key purchase page /get-key (spec 001 §2). */
import type { Page } from 'playwright-core';

export class PurchasePageObject {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(query = ''): Promise<void> {
    await this.page.goto(`${this.baseUrl}/get-key${query}`);
    await this.page.getByRole('heading', { name: 'OBTAIN A SECURE KEY' }).waitFor();
  }

  async chooseTier(tier: 'general' | 'restricted' | 'classified'): Promise<void> {
    await this.page.getByTestId(`choose-${tier}`).click();
    await this.page.getByRole('heading', { name: /STEP 2/ }).waitFor();
  }

  /** Names the key (issue 32: chosen before payment). */
  async chooseUsername(username: string): Promise<void> {
    await this.page.getByTestId('purchase-username').fill(username);
  }

  async chooseCurrency(currency: string): Promise<void> {
    await this.page.getByTestId(`currency-${currency}`).click();
    await this.page.getByTestId('currency-estimate').waitFor();
  }

  async generatePayment(): Promise<void> {
    await this.page.getByTestId('payment-create').click();
    await this.page.getByRole('heading', { name: /STEP 3/ }).waitFor();
  }

  text(testId: string): Promise<string> {
    return this.page.getByTestId(testId).innerText();
  }

  /** Waits until the status card shows `status`. */
  async waitForStatus(status: string, timeout = 60_000): Promise<void> {
    await this.page
      .locator(`[data-testid="payment-status"][data-status="${status}"]`)
      .waitFor({ timeout });
  }

  /** Waits until this browser's key was made and its public part accepted by the server. */
  async waitForKeySent(timeout = 60_000): Promise<void> {
    await this.page.getByTestId('key-submitted').waitFor({ timeout });
  }

  /** Clicks the save button and returns the saved file's name and text. */
  async downloadKey(): Promise<{ fileName: string; text: string }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId('download-key').click(),
    ]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { fileName: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
  }
}
