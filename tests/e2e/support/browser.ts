/**
 * Headless Chromium (Debian's /usr/bin/chromium) through playwright-core, and the real server on
 * an ephemeral port serving the built client. Each named actor gets its own browser context.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startServer, type StartOptions, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const ARTIFACTS = path.join(ROOT, 'test-results');

/**
 * The features Playwright turns off in every Chromium it launches. Chromium keeps only the last
 * `--disable-features` on its command line, so the switch below repeats them;
 * `tests/e2e/chromium-features.test.ts` reads Playwright's own from a launched browser and fails
 * when one is missing here (after an upgrade of playwright-core).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The omnibox's popups as WebUI pages. Every browser context is a window of its own, and this
 * Chromium loads two WebUI pages for its omnibox popup into each, in a renderer of their own:
 * about 1.1 CPU-seconds a context, and 0.3 more in the browser process, for a popup no test opens
 * (ten contexts: 19.8 CPU-seconds of Chromium's without this, 5.2 with it). The pages under test
 * do not change.
 */
const OWN_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const DISABLED_FEATURES: readonly string[] = [
  ...PLAYWRIGHT_DISABLED_FEATURES,
  ...OWN_DISABLED_FEATURES,
];

/** Debian's Chromium, or the one `CHROMIUM_PATH` names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

export interface LaunchOptions {
  /** Fake microphone and camera, granted without asking. */
  media?: boolean;
  /** More Chromium switches, e.g. `--allow-loopback-in-peer-connection` for calls. */
  args?: readonly string[];
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const media = options.media
    ? ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']
    : [];
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...media, ...(options.args ?? [])],
  });
}

/**
 * One Chromium per test worker and launch options, kept from one browser file to the next (the
 * files share their worker: vitest.config.ts); a launch costs about 1.7 CPU-seconds. Files still
 * share nothing else: each suite closes every context left open when it ends, and a browser that
 * has gone away is launched again. Playwright closes the browsers when the worker exits.
 */
const keptBrowsers = new Map<string, Promise<Browser>>();

async function sharedBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const key = JSON.stringify([options.media === true, options.args ?? []]);
  const kept = await keptBrowsers.get(key)?.catch(() => undefined);
  if (kept?.isConnected()) return kept;
  const launching = launchBrowser(options);
  keptBrowsers.set(key, launching);
  return launching;
}

/** The server for browser tests; requires `npm run build` to have produced dist/client. */
export async function startAppServer(options: StartOptions = {}): Promise<TestServer> {
  if (!existsSync(path.join(ROOT, 'dist/client/index.html'))) {
    throw new Error('dist/client is missing: run `npm run build` before the browser tests');
  }
  return startServer({ ...options, env: { CLIENT_DIST: 'dist/client', ...options.env } });
}

/** A describe block's server, browser and actors, with the hooks every browser suite needs. */
export interface BrowserSuite {
  readonly server: TestServer;
  readonly browser: Browser;
  /** Actors of the running test: closed after it, and kept as evidence when it fails. */
  readonly actors: Actor[];
  /**
   * Actors kept from one test to the next (two visitors already talking in the public channel,
   * say): `make` runs when a test first asks, and pushes the actors it opens to the list it is
   * given. They stay open for the tests after it and close when the describe block ends; a test
   * that fails closes them, after keeping them as evidence, so the next test makes them afresh
   * instead of inheriting a broken state. Opening the chat is most of a browser test's CPU (four
   * visitors entering the public channel one after the other: about 30 CPU-seconds of Chromium's
   * on the 2-core CI machine), so tests that only talk there share their visitors.
   */
  kept<T>(make: (actors: Actor[]) => Promise<T>): () => Promise<T>;
}

/**
 * Starts the app server and takes the worker's Chromium before the describe block's tests, and
 * after them stops the server and closes the contexts left open;
 * after each test, keeps the evidence of a failure and closes that test's actors. Call it at the
 * top of a `describe`.
 */
export function browserSuite(
  options: StartOptions = {},
  launchOptions: LaunchOptions = {},
): BrowserSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const actors: Actor[] = [];
  const keptSets: { actors: Actor[]; made?: Promise<unknown> }[] = [];
  beforeAll(async () => {
    server = await startAppServer(options);
    browser = await sharedBrowser(launchOptions);
  });
  afterAll(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
    await server?.stop();
  });
  afterEach(async (context) => {
    const failed = context.task.result?.state === 'fail';
    if (failed && server) {
      const keptActors = keptSets.flatMap((set) => set.actors);
      await keepEvidence(context.task.name, [...actors, ...keptActors], server);
    }
    for (const actor of actors.splice(0)) await actor.context.close();
    if (!failed) return;
    for (const set of keptSets) {
      delete set.made;
      for (const actor of set.actors.splice(0)) await actor.context.close();
    }
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the browser suite has not started');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    actors,
    kept<T>(make: (keptActors: Actor[]) => Promise<T>) {
      const set: { actors: Actor[]; made?: Promise<unknown> } = { actors: [] };
      keptSets.push(set);
      return () => (set.made ??= make(set.actors)) as Promise<T>;
    },
  };
}

/**
 * Starts waiting for something shown only for a moment (a 5-second toast, a 2-second animation)
 * before the action that shows it: a wait begun after the step before it ended could start too
 * late on a loaded machine. Await the result where the test needs it; a failure is kept until then.
 */
export function watchFor(
  locator: Locator,
  options?: Parameters<Locator['waitFor']>[0],
): Promise<void> {
  const seen = locator.waitFor(options);
  seen.catch(() => undefined);
  return seen;
}

export interface Actor {
  name: string;
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen by this actor. */
  errors: string[];
}

export interface ActorOptions {
  /** localStorage entries set before any page script runs (first navigation only). */
  storage?: Record<string, string>;
  viewport?: { width: number; height: number };
  /** The visitor's system asks for reduced motion (`prefers-reduced-motion: reduce`). */
  reducedMotion?: boolean;
}

export async function newActor(
  browser: Browser,
  name: string,
  options: ActorOptions = {},
): Promise<Actor> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.reducedMotion ? { reducedMotion: 'reduce' as const } : {}),
  });
  if (options.storage) {
    // Seeded once per context: later reloads see what the app itself stored.
    await context.addInitScript((entries: Record<string, string>) => {
      if (window.sessionStorage.getItem('__seeded')) return;
      window.sessionStorage.setItem('__seeded', '1');
      for (const [key, value] of Object.entries(entries)) window.localStorage.setItem(key, value);
    }, options.storage);
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { name, context, page, errors };
}

/** Saves a screenshot and the server log of a failed test under test-results/. */
export async function keepEvidence(
  testName: string,
  actors: Actor[],
  server: TestServer | null,
): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const stem = testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
  for (const actor of actors) {
    await actor.page
      .screenshot({ path: path.join(ARTIFACTS, `${stem}-${actor.name}.png`), fullPage: true })
      .catch(() => undefined);
  }
  if (server) writeFileSync(path.join(ARTIFACTS, `${stem}-server.log`), server.logs.text());
}

const requireFromHere = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(requireFromHere.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page; returns serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // evaluate() runs through the DevTools protocol, so the page's CSP does not block axe.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (context: object, options: object) => Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    // An entrance or exit (a toast sliding in, a dialog fading) lowers contrast for a moment: axe
    // checks the page once those that end within two seconds are over. Endless animations (a
    // pulsing dot) and long fades are not waited for.
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          const timing = animation.effect?.getComputedTiming();
          const left = Number(timing?.endTime ?? Infinity) - Number(timing?.localTime ?? 0);
          return Number.isFinite(left) && left <= 2000;
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    );
    // A message in its last seconds fades out on purpose (MessageRow's data-fading): it is meant
    // to lose contrast, so it is left out; everything else on the page is checked.
    const result = await axe.run(
      { include: [['html']], exclude: [['[data-fading]']] },
      { resultTypes: ['violations'] },
    );
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
