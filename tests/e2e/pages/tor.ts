/** Page objects: the admin Tor tab and the chat-room admin overlay (Tor and bridges). */
import type { Locator, Page } from 'playwright-core';

export class TorTabObject {
  constructor(private readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId('admin-panel-tor');
  }

  runningBadge(): Locator {
    return this.root().getByTestId('tor-running');
  }

  flag(name: 'running' | 'socksPortOpen' | 'controlPortOpen' | 'hiddenServiceReady'): Locator {
    return this.root().getByTestId(`tor-flag-${name}`);
  }

  onionAddress(): Locator {
    return this.root().getByTestId('tor-admin-onion');
  }

  async click(action: 'start' | 'stop' | 'restart'): Promise<void> {
    await this.root().getByTestId(`tor-${action}`).click();
  }

  logs(): Locator {
    return this.root().getByTestId('tor-logs');
  }
}

export class TorOverlayObject {
  constructor(private readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId('tor-admin-overlay');
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'More options' }).click();
    await this.page.getByTestId('menu-tor-admin').click();
    await this.root().waitFor();
  }

  async authenticate(password: string): Promise<void> {
    await this.root().getByLabel('Admin password').fill(password);
    await this.root().getByLabel('Admin password').press('Enter');
  }

  state(): Locator {
    return this.root().getByTestId('tor-state');
  }

  async command(label: string): Promise<void> {
    await this.root().locator('button', { hasText: label }).first().click();
  }

  output(): Locator {
    return this.root().getByTestId('tor-command-output');
  }

  bridgeCard(): Locator {
    return this.root().getByTestId('bridge-card');
  }
}
