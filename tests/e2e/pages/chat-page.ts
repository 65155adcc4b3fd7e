/** Page object: the chat room screen. */
import type { Page } from 'playwright-core';

export const CHAT_URL = /\/chat\/[0-9a-f]{64}$/;

export class ChatPageObject {
  constructor(private readonly page: Page) {}

  async waitUntilLoaded(): Promise<void> {
    await this.page.waitForURL(CHAT_URL);
    await this.page.getByTestId('room-name').filter({ hasNotText: 'LOADING...' }).waitFor();
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
}
