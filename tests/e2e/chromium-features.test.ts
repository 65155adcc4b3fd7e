/**
 * The browser tests' Chromium switches (tests/e2e/support/browser.ts). Chromium keeps only the
 * last `--disable-features` it is given, so the one there must repeat every feature Playwright
 * disables; and it keeps the omnibox's WebUI popups out of every context's window, which without
 * it load in a renderer of their own (about 1.4 CPU-seconds of Chromium's a context, measured on
 * the 2-core test machine).
 */
import { chromium, type Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  DISABLED_FEATURES,
  launchBrowser,
} from './support/browser.js';

/** Each `--disable-features` on the browser's command line, in order, as its list. */
async function disabledFeatureSwitches(browser: Browser): Promise<string[][]> {
  const page = await browser.newPage();
  try {
    await page.goto('chrome://version');
    const line = await page.locator('#command_line').innerText();
    return [...line.matchAll(/--disable-features=(\S*)/g)].map((match) => match[1]!.split(','));
  } finally {
    await page.context().close();
  }
}

/** The URLs of the browser's own UI pages while one page of a context is open. */
async function browserUiPages(browser: Browser): Promise<string[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.setContent('<p>probe</p>');
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = (await session.send('Target.getTargets')) as {
      targetInfos: { type: string; url: string }[];
    };
    await session.detach();
    return targetInfos.filter((target) => target.type === 'browser_ui').map((target) => target.url);
  } finally {
    await context.close();
  }
}

describe("the browser tests' Chromium", () => {
  it("repeats Playwright's disabled features in the one switch Chromium keeps", async () => {
    const browser = await launchBrowser();
    try {
      const switches = await disabledFeatureSwitches(browser);
      // Playwright's own first, ours last: the last is the one Chromium applies.
      expect(switches.length).toBeGreaterThanOrEqual(2);
      const playwrights = switches[0]!;
      expect(playwrights).toContain('PaintHolding');
      expect(switches.at(-1)).toEqual([...DISABLED_FEATURES]);
      expect(playwrights.filter((feature) => !DISABLED_FEATURES.includes(feature))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('opens no omnibox popup pages in a context, which a launch without the switch does', async () => {
    const withSwitch = await launchBrowser();
    try {
      expect(await browserUiPages(withSwitch)).toEqual([]);
    } finally {
      await withSwitch.close();
    }
    // Without it (Playwright's defaults only), this Chromium loads them: the switch still matters.
    const without = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS.filter((arg) => !arg.startsWith('--disable-features=')),
    });
    try {
      expect((await browserUiPages(without)).some((url) => url.includes('omnibox-popup'))).toBe(
        true,
      );
    } finally {
      await without.close();
    }
  });
});
