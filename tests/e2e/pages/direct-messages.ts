/** Page object: the direct-messages screen (spec 001 §2 "Direct messages screen"). */
import type { Locator, Page } from 'playwright-core';

export class DirectMessagesPageObject {
  constructor(private readonly page: Page) {}

  /** From the chat header's DIRECT MESSAGES link: a client-side move that keeps the key file. */
  async openFromChat(): Promise<void> {
    await this.page.getByTestId('direct-messages-button').click();
    await this.page.waitForURL(/\/direct-messages$/);
    await this.list().waitFor();
  }

  /** Waits until the realtime link is authenticated, so notices reach this tab. */
  async waitUntilOnline(): Promise<void> {
    await this.page.locator('[data-testid="dm-link-status"][data-state="online"]').waitFor();
  }

  list(): Locator {
    return this.page.getByTestId('dm-thread-list');
  }

  threadRow(name: string | RegExp): Locator {
    return this.page.getByTestId('dm-thread-row').filter({ hasText: name });
  }

  mySecureId(): Locator {
    return this.page.getByTestId('dm-my-secure-id-value');
  }

  // The new-conversation dialog.
  newConversationButton(): Locator {
    return this.page.getByTestId('dm-new-conversation');
  }

  recipientInput(): Locator {
    return this.page.getByLabel('Recipient Secure ID');
  }

  recipientStatus(): Locator {
    return this.page.getByTestId('dm-recipient-status');
  }

  newMessageInput(): Locator {
    return this.page.getByTestId('dm-new-dialog').getByLabel('Message');
  }

  newTimerSelect(): Locator {
    return this.page.getByTestId('dm-new-dialog').getByLabel('Auto-delete timer');
  }

  sendMessageButton(): Locator {
    return this.page.getByRole('button', { name: 'SEND MESSAGE' });
  }

  // The thread view.
  threadView(): Locator {
    return this.page.getByTestId('dm-thread-view');
  }

  message(text: string | RegExp): Locator {
    return this.page.getByTestId('dm-message').filter({ hasText: text });
  }

  replyInput(): Locator {
    return this.page.getByTestId('dm-reply-input');
  }

  async reply(text: string): Promise<void> {
    await this.replyInput().fill(text);
    await this.replyInput().press('Enter');
  }

  killSwitch(): Locator {
    return this.page.getByRole('button', { name: 'KILL SWITCH' });
  }

  /** The KILL SWITCH's confirmation: it names the other participant. */
  killConfirmation(): Locator {
    return this.page.getByTestId('dm-kill-confirm');
  }

  async confirmKill(): Promise<void> {
    await this.killConfirmation().getByRole('button', { name: 'DESTROY FOR BOTH' }).click();
  }

  async cancelKill(): Promise<void> {
    await this.killConfirmation().getByRole('button', { name: 'CANCEL' }).click();
  }

  destructOverlay(): Locator {
    return this.page.getByTestId('dm-destruct-overlay');
  }

  // The unlock step after a reload.
  unlockPanel(): Locator {
    return this.page.getByTestId('dm-unlock');
  }

  async chooseUnlockFile(name: string, contents: string): Promise<void> {
    await this.page.getByTestId('dm-unlock-input').setInputFiles({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(contents),
    });
  }

  /** A toast's (or any) text on screen. */
  text(text: string): Locator {
    return this.page.getByText(text, { exact: true }).first();
  }

  // The other party's identity: safety number, verified state, KEY CHANGED.
  identityState(): Locator {
    return this.page.getByTestId('dm-identity-state');
  }

  async openSafetyNumber(): Promise<string> {
    await this.page.getByTestId('dm-safety-toggle').click();
    const number = this.page.getByTestId('dm-safety-number');
    await number.waitFor();
    return (await number.getAttribute('data-safety-number')) ?? '';
  }

  markVerifiedButton(): Locator {
    return this.page.getByTestId('dm-mark-verified');
  }

  keyChangedWarning(): Locator {
    return this.page.getByTestId('dm-key-changed');
  }

  backButton(): Locator {
    return this.page.getByTestId('dm-thread-back');
  }
}
