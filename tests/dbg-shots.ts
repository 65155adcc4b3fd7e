import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, startAppServer } from './e2e/support/browser.js';
const a = await startAppServer();
const b = await startAppServer();
const profile = mkdtempSync(path.join(tmpdir(), 'dbg-'));
async function launch(server: typeof a) {
  const port = new URL(server.baseUrl).port;
  return chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', viewport: { width: 1100, height: 700 }, args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP chat.securechannel.test:80 127.0.0.1:${port}`, '--unsafely-treat-insecure-origin-as-secure=http://chat.securechannel.test'] });
}
let ctx = await launch(a);
let page = ctx.pages()[0] ?? await ctx.newPage();
await page.addInitScript(() => { window.localStorage.setItem('securechannel_access_mode', 'public'); });
await page.goto('http://chat.securechannel.test/');
await page.locator('[data-testid="message-input"]:enabled').waitFor({ timeout: 60000 });
await ctx.close();
for (const theme of ['matrix', 'cia']) {
  ctx = await launch(b);
  page = ctx.pages()[0] ?? await ctx.newPage();
  await page.addInitScript((t) => { window.localStorage.setItem('secure-channel-theme', t); }, theme);
  await page.goto('http://chat.securechannel.test/');
  await page.getByTestId('certificate-alert').waitFor({ timeout: 60000 });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shot-mismatch-${theme}.png` });
  await ctx.close();
}
await a.stop(); await b.stop();
