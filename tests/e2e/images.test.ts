/**
 * Encrypted, self-destructing images between two browsers (spec 000 §2, §4 "Image" and "Upload",
 * §5, §7, §8).
 *
 * Scenario: alice and bob enter the public channel. A text file alice picks is silently ignored.
 * Her PNG is previewed, encrypted in her browser and uploaded; bob sees the decrypted thumbnail
 * with its mm:ss countdown and opens the full view. Nothing alice's browser sends carries the
 * PNG's bytes, its name or size, or a field that would carry its key (`clientKey` and the like):
 * the upload is ciphertext and the image frame is end-to-end encrypted. When the message expires
 * both screens show IMAGE DESTROYED for 30 s, then the row goes; the server's image store is empty. An image the server has
 * already destroyed shows IMAGE DESTROYED.
 *
 * The server runs with MESSAGE_TTL_SECONDS=8, so expiry is observed without long waits.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_UPLOAD_FIELDS } from '../../shared/protocol/http/images.js';
import { browserSuite, newActor, seriousAxeViolations } from './support/browser.js';
import { ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';
import { ImagesPageObject, testCardPng, type UploadFile } from './pages/images.js';

const PUBLIC = { securechannel_access_mode: 'public' };

describe('encrypted images in the browser', () => {
  const suite = browserSuite({ env: { MESSAGE_TTL_SECONDS: '8' } });

  /** What one browser sent: HTTP request bodies by path, and WebSocket frames. */
  interface Outgoing {
    requests: { path: string; body: Buffer }[];
    frames: string[];
  }

  /**
   * A visitor in the public channel, joined and ready. With `sent`, everything the browser sends
   * from the first request on is kept there.
   */
  async function enter(name: string, sent: Outgoing | null = null) {
    const actor = await newActor(suite.browser, name, { storage: PUBLIC });
    suite.actors.push(actor);
    if (sent) {
      // Routed, so that multipart bodies with files are captured too.
      await actor.page.route('**/api/**', async (route) => {
        const body = route.request().postDataBuffer();
        if (body) sent.requests.push({ path: new URL(route.request().url()).pathname, body });
        await route.continue();
      });
      actor.page.on('websocket', (socket) => {
        socket.on('framesent', ({ payload }) => sent.frames.push(payload.toString()));
      });
    }
    await actor.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(actor.page);
    await chat.waitUntilJoined();
    return { actor, chat, images: new ImagesPageObject(actor.page) };
  }

  let serial = 0;

  /** alice says something and bob reads it: the room's keys are agreed before an image goes. */
  async function warmUp(alice: ChatPageObject, bob: ChatPageObject, bobPage: Page): Promise<void> {
    await waitForKeysFrom(bobPage, alice);
    const text = `keys check #${(serial += 1)}-${Date.now().toString(36)}`;
    await alice.send(text);
    await bob.message(text).getByText(text).waitFor({ timeout: 15_000 });
  }

  const png: UploadFile = {
    name: 'safehouse-map.png',
    mimeType: 'image/png',
    buffer: testCardPng(),
  };

  it('silently ignores a file that is not an image, explains an image over 10 MB, and stays without a file', async () => {
    const { images } = await enter('alice');
    await images.openUpload();
    expect(await images.status().textContent()).toBe('NO FILE');

    await images.choose({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    expect(await images.preview().count()).toBe(0);
    expect(await images.status().textContent()).toBe('NO FILE');
    expect(await images.sendButton().isDisabled()).toBe(true);
    expect(await images.modal().getByRole('alert').count()).toBe(0);

    // An image over 10 MB is not taken either, and the modal says why before anything is sent.
    await images.chooseGenerated('huge.png', 'image/png', 11 * 1024 * 1024);
    await images
      .modal()
      .getByTestId('image-size-error')
      .getByText('Image too large: 11.0 MB (maximum 10 MB)')
      .waitFor();
    expect(await images.status().textContent()).toBe('NO FILE');
    expect(await images.sendButton().isDisabled()).toBe(true);

    await images.choose(png);
    await images.preview().waitFor();
    expect(await images.isDecoded(images.preview())).toBe(true);
    expect(await images.status().textContent()).toBe('READY');
    expect(await images.modal().getByTestId('image-size-error').count()).toBe(0);
    await images.cancel();
    await images.modal().waitFor({ state: 'detached' });
    // Cancelled: opening again starts without a file.
    await images.openUpload();
    expect(await images.status().textContent()).toBe('NO FILE');
  });

  it("delivers alice's PNG encrypted: bob sees the thumbnail and the full view, then both lose it at expiry", async () => {
    const sent: Outgoing = { requests: [], frames: [] };
    const { chat: aliceChat, images: alice } = await enter('alice', sent);
    const { actor: bobActor, chat: bobChat, images: bob } = await enter('bob');
    await warmUp(aliceChat, bobChat, bobActor.page);
    const before = await bob.messages().count();

    await alice.openUpload();
    await alice.choose(png);
    await alice.preview().waitFor();
    await alice.send();
    await alice.modal().waitFor({ state: 'detached', timeout: 15_000 });

    // bob: the decrypted thumbnail with its countdown, then the full image.
    const thumbnail = bob.thumbnail().last();
    await thumbnail.waitFor({ timeout: 15_000 });
    // alice sees her own image too, while it lives (8 s here: the full view and the accessibility
    // check below can outlast it on a loaded machine).
    await alice.thumbnail().last().waitFor();
    expect(await bob.messages().count()).toBe(before + 1);
    expect(await bob.isDecoded(thumbnail)).toBe(true);
    expect(await bob.messages().last().getByTestId('image-countdown').textContent()).toMatch(
      /^Image destroyed in 00:0\d$/,
    );
    await bob.openFullView();
    await bob.fullImage().waitFor();
    expect(await bob.isDecoded(bob.fullImage())).toBe(true);
    expect(
      await bob
        .fullImage()
        .evaluate((image) => (image instanceof HTMLImageElement ? image.naturalWidth : 0)),
    ).toBe(96);
    expect(await seriousAxeViolations(bobActor.page)).toEqual([]);
    await bobActor.page.keyboard.press('Escape');
    await bob.fullView().waitFor({ state: 'detached' });

    // What left alice's browser: ciphertext only, and nothing that would open it.
    const uploads = sent.requests.filter((request) => request.path === '/api/secure-upload');
    expect(uploads).toHaveLength(1);
    const fieldNames = [...uploads[0]!.body.toString('latin1').matchAll(/; name="([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(fieldNames.sort()).toEqual(['encryptedImage', 'encryptedThumbnail', 'roomId'].sort());
    for (const field of FORBIDDEN_UPLOAD_FIELDS) expect(fieldNames).not.toContain(field);
    const imageFrames = sent.frames
      .map((frame) => JSON.parse(frame) as Record<string, unknown>)
      .filter((frame) => frame.type === 'send_message' && frame.hasImage === true);
    expect(imageFrames).toHaveLength(1);
    expect(imageFrames[0]).not.toHaveProperty('imageOriginalName');
    expect(imageFrames[0]).not.toHaveProperty('imageFileSize');
    expect(imageFrames[0]!.encryptionType).not.toBe('PLAINTEXT');
    const everything = Buffer.concat([
      ...sent.requests.map((request) => request.body),
      ...sent.frames.map((frame) => Buffer.from(frame)),
    ]);
    expect(everything.includes(png.buffer)).toBe(false);
    expect(everything.includes(png.buffer.subarray(png.buffer.length - 60))).toBe(false);
    expect(everything.includes(Buffer.from(png.buffer.toString('base64').slice(0, 40)))).toBe(
      false,
    );
    expect(everything.includes(Buffer.from('safehouse-map.png'))).toBe(false);

    // Expiry: the image is destroyed on both screens, shows IMAGE DESTROYED for 30 s and then
    // leaves; the server keeps nothing.
    const bobRow = bob.messages().nth(before);
    const aliceRow = alice.messages().last();
    await bobRow.getByTestId('image-destroyed').waitFor({ timeout: 15_000 });
    await aliceRow.getByTestId('image-destroyed').waitFor({ timeout: 15_000 });
    const destroyedAt = Date.now();
    expect(await bobRow.getByTestId('image-destroyed').textContent()).toContain('IMAGE DESTROYED');
    expect(await bobRow.getByTestId('image-thumbnail').count()).toBe(0);
    expect(await bobRow.getByTestId('image-countdown').count()).toBe(0);
    await expect.poll(() => suite.server.images.bytes(), { timeout: 5_000 }).toBe(0);
    // Gone after its 30 s, not before (a little slack for the 1 s tick and the waits).
    await bobRow.waitFor({ state: 'detached', timeout: 45_000 });
    expect(Date.now() - destroyedAt).toBeGreaterThanOrEqual(27_000);
    await aliceRow.waitFor({ state: 'detached', timeout: 5_000 });
  }, 120_000);

  it('shows IMAGE DESTROYED when the server no longer has the image', async () => {
    const { chat: aliceChat, images: alice } = await enter('alice');
    const { actor: bobActor, chat: bobChat, images: bob } = await enter('bob');
    await warmUp(aliceChat, bobChat, bobActor.page);

    await alice.openUpload();
    await alice.choose(png);
    await alice.send();
    await alice.modal().waitFor({ state: 'detached', timeout: 15_000 });
    await bob.thumbnail().last().waitFor({ timeout: 15_000 });

    await suite.server.images.purgeRoom((await suite.server.rooms.defaultRoom()).id);
    await bobActor.page.getByTestId('image-open').last().click();
    await bob.destroyed().waitFor();
    expect(await bob.destroyed().textContent()).toContain('IMAGE DESTROYED');
    await bob.fullView().waitFor({ state: 'detached' });
  });
});
