/**
 * The server is a blind relay (DESIGN.md principle 1; STYLE.md "Tests that assert behaviour").
 *
 * Scenario: alice (a key holder, logged in with her key file) and bob (an anonymous visitor) chat
 * in the public channel: a text each, a stealth message from bob that alice reveals, and an image
 * from alice that bob opens. Everything the server receives and sends is recorded: every
 * WebSocket frame in both directions of both browsers, every HTTP request body and JSON answer,
 * every server log line, every row of every database table, the room's messages in the server's
 * memory and the bytes of the stored image.
 *
 * Then: no plaintext (in any of several encodings) and no image content appears anywhere in that
 * record; every relayed message has an empty `content` and an encrypted type; no frame field
 * outside the public-key and identifier fields carries a 32-byte value (the size of every content
 * key: sender keys, message keys, image keys); and no HTTP body names a `clientKey`.
 */
import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serializeKeyFile } from '../../shared/crypto/key-file-schema.js';
import { makeRegisteredKey } from '../support/keys.js';
import { ChatPageObject } from './pages/chat-page.js';
import { LandingPageObject } from './pages/landing-page.js';
import { SecurityStatusObject, waitForKeysFrom } from './pages/security-status.js';
import { browserSuite, newActor } from './support/browser.js';

/** One thing the server received or sent. */
interface Recorded {
  where: string;
  text: string;
  bytes?: Buffer;
}

/** Records both directions of every socket and every HTTP exchange of `page`. */
function recordTraffic(page: Page, name: string, record: Recorded[], frames: unknown[]): void {
  page.on('websocket', (socket) => {
    const keep = (direction: string) => (event: { payload: string | Buffer }) => {
      const text =
        typeof event.payload === 'string' ? event.payload : event.payload.toString('latin1');
      record.push({ where: `${name} ws ${direction}`, text });
      try {
        frames.push(JSON.parse(text));
      } catch {
        // Not JSON: kept as text for the plaintext search.
      }
    };
    socket.on('framesent', keep('sent'));
    socket.on('framereceived', keep('received'));
  });
  page.on('request', (request) => {
    const body = request.postDataBuffer();
    if (body)
      record.push({
        where: `${name} http ${request.url()}`,
        text: body.toString('latin1'),
        bytes: body,
      });
  });
  page.on('response', (response) => {
    if (!response.url().includes('/api/')) return;
    void response
      .body()
      .then((body) =>
        record.push({
          where: `${name} http answer ${response.url()}`,
          text: body.toString('latin1'),
          bytes: body,
        }),
      )
      .catch(() => undefined);
  });
}

/** The forms a text could take if a client or the server encoded it instead of encrypting it. */
function encodingsOf(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const forms = [text, JSON.stringify(text).slice(1, -1), bytes.toString('hex')];
  // base64 of the text at each of the three alignments, minus the edge characters that depend on
  // what surrounds it.
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    forms.push(encoded.slice(4, -4));
    forms.push(encoded.slice(4, -4).replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms.filter((form) => form.length >= 12);
}

/** A valid 16×16 PNG with `marker` in a tEXt chunk, so its content is recognisable anywhere. */
function pngWithMarker(marker: string): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(16, 0);
  header.writeUInt32BE(16, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  const rows = Buffer.alloc(16 * (1 + 16 * 3));
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) rows[y * 49 + 1 + x * 3] = x * 16;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('tEXt', Buffer.from(`Comment\0${marker}`, 'latin1')),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Fields whose 32-byte values are no content key: key fingerprints and room ids (public), and a
 * key holder's session token (a credential the server itself issued and stores only hashed).
 */
const ALLOWED_32_BYTE_FIELDS = new Set(['fingerprint', 'roomId', 'secureId', 'sessionToken']);

/** True when `value` is exactly 32 bytes as hex, padded base64 or unpadded base64url. */
function isThirtyTwoBytes(value: string): boolean {
  return (
    /^[0-9a-fA-F]{64}$/.test(value) ||
    /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/.test(value) ||
    /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(value)
  );
}

/** Paths of string leaves in `value` that carry 32 bytes outside the public fields. */
function thirtyTwoByteLeaves(value: unknown, path: string[] = []): string[] {
  if (typeof value === 'string') {
    const field = path.at(-1) ?? '';
    return isThirtyTwoBytes(value) && !ALLOWED_32_BYTE_FIELDS.has(field) ? [path.join('.')] : [];
  }
  if (Array.isArray(value))
    return value.flatMap((item, index) => thirtyTwoByteLeaves(item, [...path, String(index)]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      thirtyTwoByteLeaves(item, [...path, key]),
    );
  }
  return [];
}

/** JSON of database rows, byte columns as hex, base64 and latin1 so any encoding is searchable. */
function dumpRows(rows: unknown[]): string {
  return JSON.stringify(rows, (_key, value: unknown) => {
    if (value instanceof Uint8Array) {
      const buffer = Buffer.from(value);
      return `${buffer.toString('hex')} ${buffer.toString('base64')} ${buffer.toString('latin1')}`;
    }
    return typeof value === 'bigint' ? value.toString() : value;
  });
}

describe('the server is a blind relay', () => {
  const suite = browserSuite({ env: { LOG_LEVEL: 'trace' } });

  it('never receives, stores, logs or relays a plaintext or a content key during a chat', async () => {
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const secrets = {
      aliceText: `rendezvous at pier nine ${stamp}`,
      bobText: `bring the blue folder ${stamp}`,
      stealth: `vault combination 7-3-1 ${stamp}`,
      imageMarker: `IMAGE-CONTENT-MARKER-${stamp}`,
    };
    const record: Recorded[] = [];
    const frames: unknown[] = [];

    // alice logs in with her key file; bob is anonymous. Both are recorded from the first request.
    const keyFile = await makeRegisteredKey(suite.server.baseUrl, {
      username: `relay${Date.now() % 100000}`,
    });
    const alice = await newActor(suite.browser, 'alice');
    const bob = await newActor(suite.browser, 'bob', {
      storage: { securechannel_access_mode: 'public' },
    });
    suite.actors.push(alice, bob);
    recordTraffic(alice.page, 'alice', record, frames);
    recordTraffic(bob.page, 'bob', record, frames);
    const landing = new LandingPageObject(alice.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile('alice.sck', serializeKeyFile(keyFile));
    await landing.authenticateButton().click();
    const aliceChat = new ChatPageObject(alice.page);
    await aliceChat.waitUntilJoined();
    await bob.page.goto(`${suite.server.baseUrl}/`);
    const bobChat = new ChatPageObject(bob.page);
    await bobChat.waitUntilJoined();
    await new SecurityStatusObject(alice.page).waitUntilEncrypting();
    await new SecurityStatusObject(bob.page).waitUntilEncrypting();
    await waitForKeysFrom(bob.page, aliceChat);

    await aliceChat.send(secrets.aliceText);
    await bobChat.message(secrets.aliceText).waitFor();
    await bobChat.send(secrets.bobText);
    await aliceChat.message(secrets.bobText).waitFor();
    await bobChat.toggleStealth();
    await bobChat.send(secrets.stealth);
    const redacted = alice.page.getByTestId('stealth-redacted').last();
    await redacted.waitFor();
    await redacted.click();
    await aliceChat.message(secrets.stealth).waitFor();

    // alice sends an image; bob's browser fetches and decrypts it.
    await alice.page.getByTestId('image-upload-button').click();
    await alice.page.getByTestId('image-file-input').setInputFiles({
      name: 'map.png',
      mimeType: 'image/png',
      buffer: pngWithMarker(secrets.imageMarker),
    });
    await alice.page.getByTestId('image-upload-send').click();
    await bob.page.getByTestId('image-thumbnail').first().waitFor();

    // Everything the server holds right now.
    const room = await suite.server.rooms.defaultRoom();
    const history = await suite.server.messages.history(room.id);
    const tables = await suite.server.database.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) {
      const rows = await suite.server.database.query(
        `SELECT * FROM "${table.table_schema}"."${table.table_name}"`,
      );
      record.push({
        where: `database ${table.table_schema}.${table.table_name}`,
        text: dumpRows(rows),
      });
    }
    record.push({ where: 'server memory: room messages', text: JSON.stringify(history) });
    const imageUrls = history.flatMap((message) => [message.imageUrl, message.thumbnailUrl]);
    const fileIds = [...new Set(imageUrls.flatMap((url) => (url ? [url.split('/')[3]!] : [])))];
    expect(fileIds.length).toBe(1);
    for (const fileId of fileIds) {
      const stored = await suite.server.images.get(fileId, Date.now());
      expect(stored).not.toBeNull();
      for (const part of [stored!.image, stored!.thumbnail]) {
        if (part)
          record.push({
            where: `image store ${fileId}`,
            text: part.toString('latin1'),
            bytes: part,
          });
      }
    }
    // Answers still in flight are part of the record too.
    await new Promise((resolve) => setTimeout(resolve, 500));
    record.push({ where: 'server log', text: suite.server.logs.text() });
    expect(suite.server.logs.lines.length).toBeGreaterThan(10);

    // 1. No plaintext, in any encoding, anywhere.
    const leaks: string[] = [];
    for (const secret of Object.values(secrets)) {
      for (const form of encodingsOf(secret)) {
        for (const entry of record)
          if (entry.text.includes(form)) leaks.push(`${entry.where}: ${secret}`);
      }
    }
    expect(leaks).toEqual([]);

    // 2. Every relayed message is ciphertext only.
    type Frame = {
      type?: string;
      message?: { content: string; encryptionType: string };
      content?: string;
      encryptionType?: string;
    };
    const typed = frames as Frame[];
    const relayed = typed
      .filter((frame) => frame.type === 'new_message')
      .map((frame) => frame.message!);
    const sent = typed.filter((frame) => frame.type === 'send_message');
    expect(relayed.length).toBeGreaterThanOrEqual(2 * 4);
    expect(sent.length).toBe(4);
    for (const message of [
      ...relayed,
      ...sent.map((frame) => ({ content: frame.content!, encryptionType: frame.encryptionType! })),
    ]) {
      expect(message.content).toBe('');
      expect(['PLAINTEXT', 'none']).not.toContain(message.encryptionType);
    }
    for (const message of history) {
      expect(message.content).toBe('');
      expect(message.encryptionType).not.toBe('PLAINTEXT');
    }

    // 3. No content key in any frame: no 32-byte value outside the public fields.
    expect(frames.flatMap((frame) => thirtyTwoByteLeaves(frame))).toEqual([]);
    // The key agreement did happen through these frames.
    expect(typed.some((frame) => frame.type === 'sender_key')).toBe(true);
    expect(typed.some((frame) => frame.type === 'key_announce')).toBe(true);

    // 4. No HTTP body hands the server an image key.
    const bodies = record.filter((entry) => entry.where.includes(' http '));
    expect(bodies.length).toBeGreaterThan(0);
    expect(
      bodies.filter((entry) => /clientKey(?!Id)|clientIV|clientAuthTag/.test(entry.text)),
    ).toEqual([]);
  });
});
