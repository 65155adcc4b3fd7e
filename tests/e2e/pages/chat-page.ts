/** Page object: the chat room screen. */
import type { Locator, Page } from 'playwright-core';

export const CHAT_URL = /\/chat\/[0-9a-f]{64}$/;

export class ChatPageObject {
  constructor(private readonly page: Page) {}

  async waitUntilLoaded(): Promise<void> {
    await this.page.waitForURL(CHAT_URL);
    await this.page.getByTestId('room-name').filter({ hasNotText: 'LOADING...' }).waitFor();
  }

  /** Waits until the room is joined: the message input is enabled. */
  async waitUntilJoined(): Promise<void> {
    await this.waitUntilLoaded();
    await this.page.locator('[data-testid="message-input"]:enabled').waitFor();
  }

  secureId(): string {
    return new URL(this.page.url()).pathname.split('/').pop() ?? '';
  }

  roomName() {
    return this.page.getByTestId('room-name');
  }

  callsign() {
    return this.page.getByTestId('auth-username');
  }

  async regenerateCallsign(): Promise<void> {
    await this.page.getByTestId('regenerate-callsign').click();
  }

  input(): Locator {
    return this.page.getByTestId('message-input');
  }

  sendButton(): Locator {
    return this.page.getByTestId('send-button');
  }

  /** Types `text` and presses Enter. */
  async send(text: string): Promise<void> {
    await this.input().fill(text);
    await this.input().press('Enter');
  }

  async toggleStealth(): Promise<void> {
    await this.page.getByTestId('stealth-toggle').click();
  }

  /** Chat messages (not system lines) whose text contains `text`. */
  message(text: string | RegExp): Locator {
    return this.page.getByTestId('chat-message').filter({ hasText: text });
  }

  /** Every chat message on screen. */
  messages(): Locator {
    return this.page.getByTestId('chat-message');
  }

  systemLine(text: string | RegExp): Locator {
    return this.page.getByTestId('system-message').filter({ hasText: text });
  }

  typingIndicator(): Locator {
    return this.page.getByTestId('typing-indicator');
  }

  connectionStatus(): Locator {
    return this.page.getByTestId('connection-status');
  }

  connectionBanner(): Locator {
    return this.page.getByTestId('connection-banner');
  }

  async reconnect(): Promise<void> {
    await this.page.getByTestId('reconnect-button').click();
  }
}
