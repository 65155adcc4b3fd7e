/**
 * `npm run screenshots [-- --out DIR]`: starts the server on an in-memory database and takes
 * screenshots of the main screens in every theme, at desktop and phone widths, for review. Before
 * each chat screenshot a second operative (a plain WebSocket client) posts a few messages, the
 * viewer posts one of their own, and the other operative starts typing.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import WebSocket from 'ws';
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
const defaultRoom = await server.rooms.defaultRoom();
const { secureId } = defaultRoom;

const wsUrl = `${baseUrl.replace(/^http/, 'ws')}/chat-ws`;

/**
 * The other operative in the room, a plain WebSocket client. A fresh one speaks before each chat
 * screenshot: the server's bot detector challenges a connection that repeats itself.
 */
class Operative {
  private constructor(private readonly socket: WebSocket) {}

  static async join(username: string): Promise<Operative> {
    const socket = new WebSocket(wsUrl);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const operative = new Operative(socket);
    const joined = operative.nextFrame('room_joined');
    operative.send({ type: 'join_room', roomId: defaultRoom.id, username });
    await joined;
    return operative;
  }

  send(frame: object): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** Resolves on the next frame of `type`; fails after 10 s rather than hang the run. */
  nextFrame(type: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.socket.off('message', onMessage);
        reject(new Error(`operative: no ${type} frame within 10 s`));
      }, 10_000);
      const onMessage = (data: WebSocket.RawData) => {
        const frame = JSON.parse(data.toString()) as { type?: string };
        if (frame.type !== type) return;
        clearTimeout(timer);
        this.socket.off('message', onMessage);
        resolve();
      };
      this.socket.on('message', onMessage);
    });
  }

  async say(content: string, isStealthMode = false): Promise<void> {
    const echoed = this.nextFrame('new_message');
    this.send({ type: 'send_message', content, encryptionType: 'PLAINTEXT', isStealthMode });
    await echoed;
  }

  close(): void {
    this.socket.close(1000);
  }
}

const OPERATIVE_LINES: { content: string; isStealthMode?: boolean }[] = [
  { content: 'Link established. Drop point confirmed for 0300.' },
  {
    content:
      'Package is in locker 42. Use the side entrance, the cameras on the east wall were rotated last week so stay close to the fence line.',
  },
  { content: 'Burn this after reading.', isStealthMode: true },
];

/** Empties the room and lets a fresh operative post its lines before the viewer opens it. */
async function prepareRoom(): Promise<Operative> {
  await server.messages.purgeRoom(defaultRoom.id);
  const operative = await Operative.join('Cipher77');
  for (const line of OPERATIVE_LINES) await operative.say(line.content, line.isStealthMode);
  return operative;
}

/** The viewer posts a line of their own, then the operative starts typing. */
async function stageConversation(tab: Page, operative: Operative): Promise<void> {
  await tab.locator('[data-testid="message-input"]:enabled').waitFor({ timeout: 10_000 });
  await tab.getByTestId('message-input').fill('Copy that. Moving out.');
  await tab.getByTestId('message-input').press('Enter');
  await tab.getByTestId('chat-message').filter({ hasText: 'Moving out' }).waitFor();
  operative.send({ type: 'typing_start' });
  await tab.getByTestId('typing-indicator').filter({ hasText: 'is typing' }).waitFor();
}

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
/** `--themes a,b` and `--pages a,b` narrow a run to some themes or screens. */
function listArgument(name: string): string[] | null {
  const index = process.argv.indexOf(name);
  const value = index > 0 ? process.argv[index + 1] : undefined;
  return value ? value.split(',') : null;
}
const onlyThemes = listArgument('--themes');
const onlyPages = listArgument('--pages');
const themeIds = ['classic', 'matrix', 'cyberpunk', 'neon', 'cia', 'nsa'].filter(
  (id) => !onlyThemes || onlyThemes.includes(id),
);
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
    for (const page of pages.filter((item) => !onlyPages || onlyPages.includes(item.name))) {
      const tab = await context.newPage();
      await tab.addInitScript((mode) => {
        if (mode) localStorage.setItem('securechannel_access_mode', mode);
        else localStorage.removeItem('securechannel_access_mode');
      }, page.mode);
      const operative = page.name === 'chat' ? await prepareRoom() : null;
      await tab.goto(`${baseUrl}${page.path}`);
      await tab.waitForSelector(page.ready, { timeout: 10_000 });
      if (operative) await stageConversation(tab, operative);
      await tab.waitForTimeout(500);
      await tab.screenshot({
        path: path.join(outDir, `${page.name}-${themeId}-${viewport.width}.png`),
        fullPage: page.name !== 'chat',
      });
      operative?.close();
      await tab.close();
    }
    await context.close();
  }
}
await browser.close();
await server.app.close();
await database.close();
process.stdout.write(`Screenshots in ${outDir}\n`);
