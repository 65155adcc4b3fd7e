/**
 * Page objects: the channel dialogs of the chat screen (create channel, self-destruct timer,
 * access terminal) and the countdown banner. They select by role and label, as a person would.
 */
import type { Locator, Page } from 'playwright-core';

export class CreateChannelDialogObject {
  constructor(private readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Establish secure channel' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'CREATE', exact: true }).click();
    await this.dialog().waitFor();
  }

  /** Fills the form; `accessCode` only for non-public clearances. */
  async fill(form: {
    name: string;
    clearance: 'public' | 'restricted' | 'classified' | 'top_secret';
    accessCode?: string;
    timer?: string;
  }): Promise<void> {
    const dialog = this.dialog();
    await dialog.getByLabel('Channel name').fill(form.name);
    await dialog.getByLabel('Security clearance').selectOption(form.clearance);
    if (form.accessCode !== undefined) await dialog.getByLabel('Access code').fill(form.accessCode);
    if (form.timer !== undefined)
      await dialog.getByLabel('Self-destruct timer').selectOption(form.timer);
  }

  submitButton(): Locator {
    return this.dialog().getByRole('button', { name: 'ESTABLISH CHANNEL' });
  }

  async submit(): Promise<void> {
    await this.submitButton().click();
  }

  successCard(): Locator {
    return this.dialog().getByTestId('create-channel-success');
  }

  log(): Locator {
    return this.dialog().getByRole('log', { name: 'Channel creation log' });
  }
}

export class SelfDestructTimerDialogObject {
  constructor(private readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Self-destruct timer' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'TIMER', exact: true }).click();
    await this.dialog().waitFor();
  }

  /** Picks an option by its label (e.g. '5 MINUTES', 'NONE'). */
  async choose(label: string): Promise<void> {
    // The radio itself is visually hidden; its label is what a person clicks.
    await this.dialog().getByText(label, { exact: true }).click();
  }

  configureButton(): Locator {
    return this.dialog().getByRole('button', { name: 'CONFIGURE' });
  }

  confirmation(): Locator {
    return this.dialog().getByTestId('self-destruct-confirm');
  }

  async configure(): Promise<void> {
    await this.configureButton().click();
    await this.confirmation().waitFor();
  }

  async confirm(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'CONFIRM' }).click();
  }

  async abort(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'ABORT' }).click();
  }
}

export class AccessTerminalObject {
  constructor(private readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Secure access terminal' });
  }

  async enter(code: string): Promise<void> {
    await this.dialog().getByLabel('Access code').fill(code);
    await this.dialog().getByRole('button', { name: 'AUTHENTICATE' }).click();
  }

  log(): Locator {
    return this.dialog().getByRole('log', { name: 'Access terminal log' });
  }

  attempts(): Locator {
    return this.dialog().getByTestId('access-terminal-attempts');
  }
}

export class CountdownBannerObject {
  constructor(private readonly page: Page) {}

  banner(): Locator {
    return this.page.getByRole('region', { name: 'Channel self-destruct' });
  }

  timer(): Locator {
    return this.banner().getByRole('timer');
  }

  /** Waits until the banner shows `tone` (warning, alert, critical, expired). */
  async waitForTone(tone: string): Promise<void> {
    await this.page.locator(`[data-testid="countdown-banner"][data-tone="${tone}"]`).waitFor();
  }
}

/** The toast (rendered by ui/Toaster.tsx, which marks each with data-variant) titled `title`. */
export function toastWithTitle(page: Page, title: string): Locator {
  return page.locator('[data-variant]').filter({ hasText: title });
}

/** The invite-link panel of a private channel and this browser's own channel list. */
export class InviteLinkObject {
  constructor(private readonly page: Page) {}

  panel(): Locator {
    return this.page.getByTestId('invite-link-panel');
  }

  async open(): Promise<void> {
    const toggle = this.panel().getByTestId('invite-link-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }

  /** Ticks "put the access code in the link". */
  async includeCode(): Promise<void> {
    await this.panel().getByTestId('invite-link-code-toggle').check();
  }

  async link(): Promise<string> {
    return this.panel().getByTestId('invite-link').inputValue();
  }

  async copy(): Promise<void> {
    await this.panel().getByTestId('invite-link-copy').click();
  }
}

/** The private channels this browser created or entered, under the server's channel list. */
export function ownChannel(page: Page, name: string): Locator {
  return page.getByTestId('own-channels').getByRole('link', { name: `#${name}` });
}
