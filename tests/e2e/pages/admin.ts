/** Page objects: the admin panel, the emergency admin panel and the bot-check dialog. */
import type { Download, Locator, Page } from 'playwright-core';

export type AdminTabName = 'keys' | 'tor' | 'users' | 'console' | 'audit';

export class AdminPanelObject {
  constructor(private readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId('admin-panel');
  }

  async waitUntilOpen(): Promise<void> {
    await this.root().getByRole('heading', { name: 'Admin panel' }).waitFor();
  }

  async openTab(name: AdminTabName): Promise<void> {
    await this.page.getByTestId(`admin-tab-${name}`).click();
    await this.page.getByTestId(`admin-panel-${name}`).waitFor();
  }

  tabPanel(name: AdminTabName): Locator {
    return this.page.getByTestId(`admin-panel-${name}`);
  }

  /** The key table row of `username`. */
  keyRow(username: string): Locator {
    return this.page.getByTestId('admin-key-row').filter({ hasText: username });
  }

  /** Fills the generation form and submits it; resolves with the browser's download. */
  async generateKey(options: {
    username: string;
    level?: string;
    days?: string;
  }): Promise<Download> {
    await this.page.getByTestId('key-generate-username').fill(options.username);
    if (options.level)
      await this.page.getByTestId('key-generate-level').selectOption(options.level);
    if (options.days !== undefined)
      await this.page.getByTestId('key-generate-days').fill(options.days);
    const [download] = await Promise.all([
      this.page.waitForEvent('download', { timeout: 30_000 }),
      this.page.getByTestId('key-generate-submit').click(),
    ]);
    return download;
  }

  generatedNotice(): Locator {
    return this.page.getByTestId('key-generated-notice');
  }

  async revoke(username: string): Promise<void> {
    const row = this.keyRow(username);
    await row.getByTestId('admin-key-revoke').click();
    await row.getByTestId('admin-key-confirm-revoke').click();
  }

  /** Console authentication: the admin password opens the ten-minute console session. */
  async unlockConsole(password: string): Promise<void> {
    await this.page.getByTestId('admin-console-locked').waitFor();
    await this.page.getByTestId('console-password').fill(password);
    await this.page.getByTestId('console-password').press('Enter');
    await this.page.getByTestId('admin-console-input').waitFor();
  }

  async runConsole(line: string): Promise<void> {
    await this.page.getByTestId('admin-console-input').fill(line);
    await this.page.getByTestId('admin-console-input').press('Enter');
  }

  consoleOutput(): Locator {
    return this.page.getByTestId('admin-console-output');
  }

  async openEmergencyPanel(): Promise<EmergencyPanelObject> {
    await this.page.getByTestId('open-emergency-panel').click();
    const panel = new EmergencyPanelObject(this.page);
    await panel.root().waitFor();
    return panel;
  }
}

export class EmergencyPanelObject {
  constructor(private readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId('emergency-panel');
  }

  passwordInput(): Locator {
    return this.page.getByTestId('emergency-password');
  }

  /** Types the password and presses Enter (the gate submits on Enter). */
  async authenticate(password: string): Promise<void> {
    await this.passwordInput().fill(password);
    await this.passwordInput().press('Enter');
  }

  authError(): Locator {
    return this.page.getByTestId('emergency-auth-error');
  }

  systemStatus(): Locator {
    return this.page.getByTestId('emergency-system-status');
  }

  async waitForStatus(status: 'operational' | 'emergency' | 'unknown'): Promise<void> {
    await this.systemStatus()
      .filter({ hasText: new RegExp(`^${status}$`, 'i') })
      .waitFor();
  }

  /** Fills the reason, arms and confirms the shutdown. */
  async shutdown(reason: string): Promise<void> {
    await this.page.getByTestId('emergency-reason').fill(reason);
    await this.page.getByTestId('emergency-shutdown').click();
    await this.page.getByTestId('emergency-confirm-shutdown').click();
  }

  async restore(): Promise<void> {
    await this.page.getByTestId('emergency-restore').click();
  }
}

export class BotChallengeObject {
  constructor(private readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId('bot-challenge-dialog');
  }

  question(): Locator {
    return this.page.getByTestId('bot-challenge-question');
  }

  error(): Locator {
    return this.root().getByTestId('bot-challenge-error');
  }

  /** The progress bar of the browser's proof-of-work search. */
  progress(): Locator {
    return this.root().getByRole('progressbar');
  }
}
