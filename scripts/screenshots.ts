/**
 * `npm run screenshots [-- --out DIR]`: starts the server on an in-memory database and takes
 * screenshots of the main screens in every theme, at desktop and phone widths, for review.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connect.js';

const outIndex = process.argv.indexOf('--out');
const outDir = path.resolve(
  outIndex > 0 ? (process.argv[outIndex + 1] ?? 'screenshots') : 'screenshots',
);
mkdirSync(outDir, { recursive: true });

const config = loadConfig(
  { PORT: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'screenshots-only-password' },
  process.cwd(),
);
const database = await openDatabase({ databaseUrl: null, dataDir: '', inMemory: true });
const server = await buildServer(config, { database, announce: () => undefined });
const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
const { secureId } = await server.rooms.defaultRoom();

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const pages: { name: string; path: string; mode: string | null; ready: string }[] = [
  { name: 'landing', path: '/landing', mode: null, ready: 'text=ENTER PUBLIC CHANNEL' },
  {
    name: 'chat',
    path: `/chat/${secureId}`,
    mode: 'public',
    ready: '[data-testid="auth-username"]',
  },
  { name: 'themes', path: '/themes', mode: 'public', ready: 'text=SecureChannel Themes' },
  { name: 'destroyed', path: '/channel-destroyed', mode: 'public', ready: 'text=ALL DATA PURGED' },
  { name: 'key-auth', path: '/', mode: 'authenticated', ready: 'text=KEY AUTHENTICATION' },
];
const themeIds = ['classic', 'matrix', 'cyberpunk', 'neon', 'cia', 'nsa'];
for (const themeId of themeIds) {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    const context = await browser.newContext({ viewport });
    await context.addInitScript(
      ([theme, mode]) => {
        localStorage.setItem('secure-channel-theme', theme!);
        if (mode) localStorage.setItem('securechannel_access_mode', mode);
        localStorage.setItem('chat-username', 'Ghost4242');
      },
      [themeId, ''] as const,
    );
    for (const page of pages) {
      const tab = await context.newPage();
      await tab.addInitScript((mode) => {
        if (mode) localStorage.setItem('securechannel_access_mode', mode);
        else localStorage.removeItem('securechannel_access_mode');
      }, page.mode);
      await tab.goto(`${baseUrl}${page.path}`);
      await tab.waitForSelector(page.ready, { timeout: 10_000 });
      await tab.waitForTimeout(500);
      await tab.screenshot({
        path: path.join(outDir, `${page.name}-${themeId}-${viewport.width}.png`),
        fullPage: page.name !== 'chat',
      });
      await tab.close();
    }
    await context.close();
  }
}
await browser.close();
await server.app.close();
await database.close();
process.stdout.write(`Screenshots in ${outDir}\n`);
