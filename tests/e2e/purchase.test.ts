/**
 * Buying a key in the browser on the sandbox chain (spec 001 §2, §3, §4, §9; DESIGN.md
 * "Payments").
 *
 * Scenario: carol, a visitor without an access mode, opens /get-key, picks the classified tier,
 * names her key and picks Bitcoin, and gets an address, the exact amount and a QR code; her
 * browser makes the key and sends only its public part (issue 32). She reloads the page and the
 * payment is still there (?payment=), and /get-key alone finds it again (local record). She sends
 * the exact amount on the sandbox chain, the status card climbs from 20 % through the
 * confirmations to the registered key, she saves her browser's key file (a reload then says this
 * browser no longer holds it), and logs in with it on the landing page at the tier's level.
 *
 * Scenario (issue 32): frank starts a purchase and saves his recovery code; the server goes into
 * emergency shutdown (admin route) and his network drops; the page keeps the order, says the
 * service is unreachable, and once the service is restored and the network is back he pays,
 * saves the key and logs in: his chosen name is his callsign in chat.
 *
 * Scenario (issue 32): dave opens /get-key on a server selling through NOWPayments (a local fake
 * of its API). Before he presses anything the picker disables ZEC, which the processor does not
 * quote, and XRP, whose minimum is above the 75 USD tier, each with its reason; clicking ZEC
 * chooses nothing. BTC is quoted from the processor's estimate.
 *
 * Scenario (issue 31): erin opens /get-key on a fresh install that listens on a network address
 * with PAYMENT_PROVIDER unset, so it sells no keys. The page says "Key purchases are not
 * available on this server" and sends her to the administrator; no tier, currency or GENERATE
 * PAYMENT control is there, no purchase call is made, and the payment her browser remembers
 * from earlier is left alone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKeyFileText } from '../../shared/crypto/key-file-schema.js';
import { PAYMENT_TEXT } from '../../shared/protocol/http/payments.js';
import {
  answerQuote,
  fakeServer,
  sendJson,
  testMarket,
  type FakeServer,
} from '../fixtures/fakes/nowpayments.js';
import { TEST_ADMIN_PASSWORD } from '../support/server.js';
import { browserSuite, newActor, seriousAxeViolations } from './support/browser.js';
import { ChatPageObject } from './pages/chat-page.js';
import { LandingPageObject } from './pages/landing-page.js';
import { PurchasePageObject } from './pages/purchase-page.js';
import { smallTexts } from './support/legibility.js';

/** Logs in on the landing page with a saved key file; answers the loaded chat page. */
async function logInWith(
  page: Page,
  baseUrl: string,
  file: { fileName: string; text: string },
): Promise<ChatPageObject> {
  const landing = new LandingPageObject(page, baseUrl);
  await landing.open();
  await landing.chooseKeyFile(file.fileName, file.text);
  await landing.authenticateButton().click();
  const chat = new ChatPageObject(page);
  await chat.waitUntilLoaded();
  return chat;
}

describe('key purchase in the browser', () => {
  // One confirmation a second: BTC's three arrive within one 10 s polling interval.
  const suite = browserSuite({ env: { SANDBOX_CONFIRMATION_SECONDS: '1' } });

  it('buys a key with Bitcoin on the sandbox chain, made in her browser, saves it and logs in with it', async () => {
    const carol = await newActor(suite.browser, 'carol');
    suite.actors.push(carol);
    const { page } = carol;
    const purchase = new PurchasePageObject(page, suite.server.baseUrl);
    await purchase.open();
    expect(await smallTexts(page, 12), 'tiers').toEqual([]);
    expect(await page.getByTestId('tier-general').innerText()).toContain('$75');
    expect(await page.getByTestId('tier-restricted').innerText()).toContain('$250');
    expect(await page.getByTestId('tier-classified').innerText()).toContain('$1000');

    // The cards say what differs between the tiers: only the recorded level.
    expect(await purchase.text('tiers-note')).toContain('same features');
    expect(await purchase.text('tier-restricted-difference')).toContain('OBSERVER level');

    await purchase.chooseTier('classified');
    expect(await page.getByRole('radio').count()).toBe(26);
    // The sandbox invoices every currency from a price table it labels as simulated.
    await page.getByTestId('prices-simulated').waitFor();
    expect(await page.locator('[role="radio"][disabled]').count()).toBe(0);
    expect(await smallTexts(page, 12), 'currencies').toEqual([]);
    await purchase.chooseUsername('Carol Classified');
    await purchase.chooseCurrency('BTC');
    await purchase.generatePayment();
    expect(await purchase.text('order-username')).toBe('Carol Classified');

    const address = await purchase.text('payment-address');
    const amount = await purchase.text('payment-amount');
    expect(address).toMatch(/^sandbox-btc-[0-9a-f]{40}$/);
    // 1000 USD at the fallback minimum (0.0005 BTC per 75 USD), rounded up to 8 places.
    expect(amount).toBe('0.00666667');
    expect(await purchase.text('exact-amount-warning')).toContain('The exact amount must be sent.');
    const qr = page.getByTestId('payment-qr').locator('img');
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(200);
    await purchase.waitForStatus('pending');
    expect(await purchase.text('payment-progress')).toBe('20%');
    expect(await purchase.text('payment-confirmations')).toBe('CONFIRMATIONS 0/3');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await smallTexts(page, 12), 'payment').toEqual([]);
    expect(page.url()).toMatch(/\/get-key\?payment=pay_[0-9a-f]{64}$/);
    const stored = await page.evaluate(() => localStorage.getItem('securechannel_payment_session'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ address, amount, currency: 'BTC' });

    // A reload finds the payment again.
    await page.reload();
    await purchase.waitForStatus('pending');
    expect(await purchase.text('payment-address')).toBe(address);
    // So does a visit to /get-key without the query: the local record names the payment.
    const paymentUrl = page.url();
    await page.goto(`${suite.server.baseUrl}/get-key`);
    await page.waitForURL(paymentUrl);
    await purchase.waitForStatus('pending');

    await purchase.waitForKeySent();
    await page.getByTestId('sandbox-send').click();
    await purchase.waitForStatus('confirming');
    expect(await purchase.text('payment-progress')).toBe('40%');
    await purchase.waitForStatus('ready');
    expect(await purchase.text('payment-progress')).toBe('100%');
    expect(await purchase.text('payment-confirmations')).toBe('CONFIRMATIONS 3/3');

    const file = await purchase.downloadKey();
    expect(file.fileName).toBe('Carol_Classified.sck');
    await page.getByTestId('download-done').waitFor();
    const parsed = parseKeyFileText(file.text);
    if (!parsed.ok) throw new Error('the downloaded key file does not parse');
    expect(parsed.keyFile.permissions.level).toBe('user');
    expect(parsed.keyFile.username).toBe('Carol Classified');
    // The purchase is complete: the local record and the stored key are gone.
    expect(
      await page.evaluate(() =>
        Object.keys(localStorage).filter(
          (key) => key.includes('payment') || key.includes('purchase'),
        ),
      ),
    ).toEqual([]);

    // After a reload this browser no longer holds the file, and the server never did.
    await page.reload();
    await purchase.waitForStatus('ready');
    expect(await purchase.text('key-gone')).toContain('does not hold the key file');
    expect(await page.getByTestId('download-key').count()).toBe(0);

    // The key logs in, at the classified tier's level.
    const chat = await logInWith(page, suite.server.baseUrl, file);
    expect(await chat.callsign().textContent()).toBe('Carol Classified');
    expect(await page.getByTestId('sec-level').textContent()).toBe('USER');
    expect(carol.errors).toEqual([]);
    // The page polls every 10 s as the spec says, so the whole purchase takes a few polls.
  }, 180_000);

  it('keeps an order through an emergency shutdown and a network drop, then saves the key and logs in under the chosen name', async () => {
    const frank = await newActor(suite.browser, 'frank');
    suite.actors.push(frank);
    const { page } = frank;
    const purchase = new PurchasePageObject(page, suite.server.baseUrl);
    const admin = (path: string, body: unknown) =>
      fetch(`${suite.server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await purchase.open();
    await purchase.chooseTier('restricted');
    await purchase.chooseUsername('Frank Restricted');
    await purchase.chooseCurrency('USDT');
    await purchase.generatePayment();
    await purchase.waitForKeySent();
    const paymentId = new URL(page.url()).searchParams.get('payment');
    expect(paymentId).toMatch(/^pay_[0-9a-f]{64}$/);
    expect(await purchase.text('recovery-code')).toBe(paymentId);

    const down = await admin('/api/admin/emergency-shutdown', {
      password: TEST_ADMIN_PASSWORD,
      reason: 'Drill during a purchase',
    });
    expect(down.status).toBe(200);
    // The next poll meets the shutdown: the order is kept, the page says why it waits.
    await page
      .locator('[data-testid="purchase-unreachable"], [data-testid="emergency-shutdown-notice"]')
      .first()
      .waitFor({ timeout: 30_000 });
    const kept = () =>
      page.evaluate(() => ({
        record: localStorage.getItem('securechannel_payment_session'),
        key: Object.keys(localStorage).some((name) =>
          name.startsWith('securechannel_purchase_key:'),
        ),
      }));
    expect(await kept()).toMatchObject({ key: true, record: expect.stringContaining('pay_') });
    expect(page.url()).toContain(`payment=${paymentId}`);

    const up = await admin('/api/admin/restore-service', { password: TEST_ADMIN_PASSWORD });
    expect(up.status).toBe(200);
    // The page comes back by itself: the next poll finds the order where it was.
    await page.getByTestId('purchase-unreachable').waitFor({ state: 'detached', timeout: 60_000 });
    await purchase.waitForStatus('pending', 60_000);
    expect(new URL(page.url()).searchParams.get('payment')).toBe(paymentId);

    // The network drops: the page says the service is unreachable and keeps the order. The last
    // poll has just answered, so the next is 10 s away: the browser's offline event says it now.
    await page.context().setOffline(true);
    await page.getByTestId('purchase-unreachable').waitFor({ timeout: 4_000 });
    expect(await purchase.text('purchase-unreachable')).toContain('(no connection)');
    expect(await purchase.text('purchase-unreachable')).toContain('Your order is kept');
    expect(await kept()).toMatchObject({ key: true });
    // Offline polls back off (2 s, 4 s, 8 s): once the next is 8 s away, coming back online asks
    // at once instead.
    await page
      .getByTestId('purchase-unreachable')
      .filter({ hasText: 'asking again in 8 s' })
      .waitFor({ timeout: 30_000 });
    await page.context().setOffline(false);
    await page.getByTestId('purchase-unreachable').waitFor({ state: 'detached', timeout: 5_000 });

    await page.getByTestId('sandbox-send').click();
    await purchase.waitForStatus('ready');
    const file = await purchase.downloadKey();
    expect(file.fileName).toBe('Frank_Restricted.sck');
    const parsed = parseKeyFileText(file.text);
    if (!parsed.ok) throw new Error('the saved key file does not parse');
    expect(parsed.keyFile.permissions.level).toBe('observer');

    const chat = await logInWith(page, suite.server.baseUrl, file);
    expect(await chat.callsign().textContent()).toBe('Frank Restricted');
  }, 240_000);

  it('refuses a malformed recovery code and a taken username with clear messages', async () => {
    const gina = await newActor(suite.browser, 'gina');
    suite.actors.push(gina);
    const purchase = new PurchasePageObject(gina.page, suite.server.baseUrl);
    await purchase.open();
    await gina.page.getByTestId('resume-code').fill('pay_not-a-code');
    await gina.page.getByTestId('resume-submit').click();
    expect(await purchase.text('resume-error')).toContain('This is not a recovery code');
    await purchase.chooseTier('general');
    await purchase.chooseUsername('Carol Classified');
    await purchase.chooseCurrency('ETH');
    await gina.page.getByTestId('payment-create').click();
    await gina.page
      .getByTestId('purchase-username-hint')
      .filter({ hasText: PAYMENT_TEXT.usernameTaken })
      .waitFor();
  });

  it('forgets an unknown payment in the address and returns to the first step', async () => {
    const dave = await newActor(suite.browser, 'dave');
    suite.actors.push(dave);
    const purchase = new PurchasePageObject(dave.page, suite.server.baseUrl);
    await purchase.open(`?payment=pay_${'0'.repeat(64)}`);
    await dave.page.getByTestId('purchase-notice').waitFor();
    expect(await purchase.text('purchase-notice')).toBe('Payment not found');
    await dave.page.waitForURL(/\/get-key$/);
    await dave.page.getByTestId('choose-general').waitFor();
    expect(await seriousAxeViolations(dave.page)).toEqual([]);
    await purchase.chooseTier('general');
    await purchase.chooseCurrency('XMR');
    expect(await seriousAxeViolations(dave.page)).toEqual([]);
  });
});

describe('the currency picker with NOWPayments', () => {
  // The processor refuses to quote ZEC, and its XRP minimum (300 XRP, 150 USD) is above 75 USD.
  const market = testMarket();
  const env: Record<string, string> = {
    PAYMENT_PROVIDER: 'nowpayments',
    PAYMENT_API_KEY: 'np-e2e-api-key',
    PAYMENT_IPN_SECRET: 'np-e2e-ipn-secret',
  };
  let fake: FakeServer | undefined;
  beforeAll(async () => {
    fake = await fakeServer((request, response) => {
      if (!answerQuote(market, request, response)) sendJson(response, 404, { message: 'no' });
    });
    env.PAYMENT_API_URL = `${fake.url}/v1`;
  });
  afterAll(async () => {
    await fake?.close();
  });
  const suite = browserSuite({ env });

  it('disables a currency the processor cannot invoice, shows the reason, and it cannot be chosen', async () => {
    const dave = await newActor(suite.browser, 'dave');
    suite.actors.push(dave);
    const { page } = dave;
    const purchase = new PurchasePageObject(page, suite.server.baseUrl);
    await purchase.open();
    await purchase.chooseTier('general');
    await purchase.chooseUsername('Dave Picker');
    const zec = page.getByTestId('currency-ZEC');
    await page.getByTestId('currency-ZEC-reason').waitFor();
    expect(await purchase.text('currency-ZEC-reason')).toBe(PAYMENT_TEXT.processorCannotQuote);
    expect(await zec.isDisabled()).toBe(true);
    expect(await purchase.text('currency-XRP-reason')).toBe(
      "Below the payment processor's minimum for XRP (about 150 USD)",
    );
    // A click on a disabled currency chooses nothing, and nothing can be generated.
    await zec.click({ force: true });
    expect(await zec.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByTestId('currency-estimate').count()).toBe(0);
    expect(await page.getByTestId('payment-create').isDisabled()).toBe(true);
    // No simulated prices with a real processor; BTC is quoted from its estimate.
    expect(await page.getByTestId('prices-simulated').count()).toBe(0);
    await purchase.chooseCurrency('BTC');
    expect(await purchase.text('currency-estimate')).toContain('≈ 0.00075000 BTC');
    expect(await page.getByTestId('payment-create').isDisabled()).toBe(false);
    expect(dave.errors).toEqual([]);
  });
});

describe('key purchase on a server that sells no keys', () => {
  // A fresh install on a network address: PAYMENT_PROVIDER unset, so purchases are off. The
  // browser still reaches it on 127.0.0.1.
  const suite = browserSuite({ env: { HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: '1' } });

  it('says that key purchases are not available, points to the administrator and offers no payment control', async () => {
    const remembered = {
      paymentId: `pay_${'c'.repeat(64)}`,
      address: 'sandbox-btc-0000000000000000000000000000000000000000',
      amount: '0.001',
      currency: 'BTC',
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    };
    const erin = await newActor(suite.browser, 'erin', {
      storage: { securechannel_payment_session: JSON.stringify(remembered) },
    });
    suite.actors.push(erin);
    const { page } = erin;
    const purchaseCalls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/crypto/')) purchaseCalls.push(pathname);
    });
    const purchase = new PurchasePageObject(page, suite.server.baseUrl);
    await purchase.open();

    await page.getByTestId('purchases-unavailable').waitFor();
    const notice = await purchase.text('purchases-unavailable');
    expect(notice).toContain(`${PAYMENT_TEXT.purchasesUnavailable}.`);
    expect(notice).toContain('administrator');
    expect(await page.getByTestId('payment-create').count()).toBe(0);
    expect(await page.getByRole('button', { name: /GENERATE PAYMENT/ }).count()).toBe(0);
    expect(await page.getByTestId('choose-general').count()).toBe(0);
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('link', { name: /BACK TO LANDING/ }).count()).toBe(1);
    // Only the question; the remembered payment was not looked up, nor forgotten.
    expect(purchaseCalls).toEqual(['/api/crypto/availability']);
    expect(page.url()).toBe(`${suite.server.baseUrl}/get-key`);
    expect(
      await page.evaluate(() => localStorage.getItem('securechannel_payment_session')),
    ).not.toBeNull();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(erin.errors).toEqual([]);
  });
});
