/**
 * Page object: the chat screen's security status bar, its details panel, the crypto log and the
 * per-message encryption and signature tags (client/features/e2ee).
 */
import type { Locator, Page } from 'playwright-core';
import type { ChatPageObject } from './chat-page.js';

export class SecurityStatusObject {
  constructor(private readonly page: Page) {}

  bar(): Locator {
    return this.page.getByTestId('security-status-bar');
  }

  level(): Locator {
    return this.page.getByTestId('security-level');
  }

  /** Waits until this browser's messages leave encrypted (E2E: ACTIVE). */
  async waitUntilEncrypting(): Promise<void> {
    await this.page.getByTestId('e2e-state').filter({ hasText: 'ACTIVE' }).waitFor();
  }

  async openDetails(): Promise<Locator> {
    const toggle = this.page.getByTestId('security-details-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    return this.page.getByTestId('security-details');
  }

  async closeDetails(): Promise<void> {
    const toggle = this.page.getByTestId('security-details-toggle');
    if ((await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click();
  }

  async openLog(): Promise<Locator> {
    const toggle = this.page.getByTestId('crypto-log-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    return this.page.getByTestId('crypto-log');
  }

  /** A member's line in the details panel. */
  member(username: string): Locator {
    return this.page.getByTestId('member-trust').filter({ hasText: username });
  }

  /** Waits until the member named `username` has handed this browser their sender keys. */
  async waitForSenderKeysOf(username: string): Promise<void> {
    await this.openDetails();
    await this.member(username).filter({ hasText: 'sender keys received' }).waitFor();
  }
}

/** The signature tag of a message row. */
export function signatureOf(message: Locator): Locator {
  return message.getByTestId('message-signature');
}

/**
 * Waits until `reader`'s browser holds the sender keys of the member behind `writer`, then closes
 * the details panel again. The writer has then seen the reader's bundle, so what it sends next is
 * under a chain the reader has; a message sent earlier may read as sent before the reader joined.
 */
export async function waitForKeysFrom(reader: Page, writer: ChatPageObject): Promise<void> {
  const writerName = (await writer.callsign().textContent())?.trim() ?? '';
  const security = new SecurityStatusObject(reader);
  await security.waitForSenderKeysOf(writerName);
  await security.closeDetails();
}
