/** Page object: the Pong screen (/pong). */
import type { Page } from 'playwright-core';

export class PongPageObject {
  constructor(private readonly page: Page) {}

  async waitUntilConnected(): Promise<void> {
    await this.page.waitForURL(/\/pong/);
    await this.page
      .getByTestId('pong-connection')
      .filter({ hasText: /^connected$/ })
      .waitFor();
  }

  side() {
    return this.page.getByTestId('pong-side');
  }

  status() {
    return this.page.getByTestId('pong-status');
  }

  slot(side: 'left' | 'right') {
    return this.page.getByTestId(`pong-slot-${side}`);
  }

  score(side: 'left' | 'right') {
    return this.page.getByTestId(`pong-score-${side}`);
  }

  startButton() {
    return this.page.getByRole('button', { name: /^Start (Game|Practice Mode)$/ });
  }

  /** The drawn top edge of a paddle. */
  async paddleY(side: 'left' | 'right'): Promise<number> {
    const value = await this.page
      .getByTestId('pong-canvas')
      .getAttribute(side === 'left' ? 'data-left-y' : 'data-right-y');
    return Number(value);
  }

  /** Waits until the drawn paddle's top edge is within `min`..`max`. */
  async waitForPaddle(side: 'left' | 'right', min: number, max: number): Promise<void> {
    const attribute = side === 'left' ? 'data-left-y' : 'data-right-y';
    await this.page.waitForFunction(
      ([name, low, high]) => {
        const value = document.querySelector('[data-testid="pong-canvas"]')?.getAttribute(name);
        return typeof value === 'string' && Number(value) >= low && Number(value) <= high;
      },
      [attribute, min, max] as const,
      { timeout: 15_000 },
    );
  }
}
