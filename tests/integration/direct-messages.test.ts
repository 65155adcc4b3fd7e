/**
 * End-to-end encrypted direct messages (spec 001 §4–§7): only the two participants can touch a
 * thread, the server holds ciphertext and wrapped keys only, deletion reaches the other side in
 * real time, and expiry deletes rows on the server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  encryptDirectMessage,
  decryptDirectMessage,
  generateThreadKey,
  unwrapThreadKey,
  wrapThreadKey,
} from '../../shared/crypto/dm/thread-key.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import {
  CreateDmThreadResponseSchema,
  DirectMessageListSchema,
  DmRecipientKeySchema,
  DmThreadListSchema,
} from '../../shared/protocol/http/dm.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

describe('direct messages', () => {
  let server: TestServer;
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startServer({
      deps: { now, loginRatePerMinute: 1000, keyLoginFailuresPerWindow: 1000 },
    });
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    clockOffset = 0;
  });

  interface Holder {
    key: KeyFile;
    token: string;
    call: (path: string, init?: { method?: string; body?: unknown }) => Promise<Response>;
  }
  async function holder(username: string): Promise<Holder> {
    const key = await makeRegisteredKey(server.baseUrl, { username });
    const token = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body).sessionToken;
    return {
      key,
      token,
      call: (path, init = {}) =>
        fetch(`${server.baseUrl}${path}`, {
          method: init.method ?? 'GET',
          headers: {
            authorization: `Bearer ${token}`,
            ...(init.body ? { 'content-type': 'application/json' } : {}),
          },
          body: init.body ? JSON.stringify(init.body) : undefined,
        }),
    };
  }

  /** alice opens an end-to-end thread to bob, wrapping a fresh thread key in her browser. */
  async function openThread(alice: Holder, bob: Holder) {
    const recipient = DmRecipientKeySchema.parse(
      await (await alice.call(`/api/dm/keys/${bob.key.keyId}`)).json(),
    );
    expect(recipient.encryptionPublicKey).not.toBeNull();
    const threadKey = generateThreadKey();
    const wrappedKeys = {
      creator: await wrapThreadKey(
        threadKey,
        { keyId: alice.key.keyId, publicKey: alice.key.encryptionPublicKey! },
        alice.key.keyId,
      ),
      recipient: await wrapThreadKey(
        threadKey,
        { keyId: bob.key.keyId, publicKey: recipient.encryptionPublicKey! },
        alice.key.keyId,
      ),
    };
    const response = await alice.call('/api/dm/threads', {
      method: 'POST',
      body: { recipientKeyId: bob.key.keyId, wrappedKeys },
    });
    expect(response.status).toBe(200);
    return { threadKey, created: CreateDmThreadResponseSchema.parse(await response.json()) };
  }

  async function listen(holderToListen: Holder) {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({ type: 'session_auth', sessionToken: holderToListen.token });
    await socket.nextOfType('session_authenticated');
    return socket;
  }

  it('lets two key holders exchange messages that only they can decrypt', async () => {
    const alice = await holder('alice-dm');
    const bob = await holder('bob-dm');
    const bobSocket = await listen(bob);
    const { threadKey, created } = await openThread(alice, bob);
    expect(created.mode).toBe('e2e');
    expect(
      await unwrapThreadKey(
        created.encryptionKey,
        alice.key.keyId,
        alice.key.encryptionPrivateKey!,
      ),
    ).toEqual(threadKey);

    const sealed = await encryptDirectMessage('the package is in locker 12', threadKey);
    const sent = await alice.call(`/api/dm/threads/${created.id}/messages`, {
      method: 'POST',
      body: { ...sealed, expiresAt: new Date(Date.now() + 300_000).toISOString() },
    });
    expect(sent.status).toBe(200);
    const aliceSocket = await listen(alice);
    aliceSocket.send({
      type: 'dm_send_message',
      threadId: created.id,
      recipientKeyId: bob.key.keyId,
    });
    expect(await bobSocket.nextOfType('dm_message_received')).toMatchObject({
      threadId: created.id,
      fromKeyId: alice.key.keyId,
    });

    const [bobThread] = DmThreadListSchema.parse(await (await bob.call('/api/dm/threads')).json());
    expect(bobThread).toMatchObject({
      id: created.id,
      otherParticipantUsername: 'alice-dm',
      mode: 'e2e',
    });
    const bobKey = await unwrapThreadKey(
      bobThread!.encryptionKey,
      bob.key.keyId,
      bob.key.encryptionPrivateKey!,
    );
    const [message] = DirectMessageListSchema.parse(
      await (await bob.call(`/api/dm/threads/${created.id}/messages`)).json(),
    );
    expect(
      await decryptDirectMessage({ encrypted: message!.encryptedContent, iv: message!.iv }, bobKey),
    ).toBe('the package is in locker 12');
    expect(message).toMatchObject({
      senderKeyId: alice.key.keyId,
      senderUsername: 'alice-dm',
      senderSecureId: `SCK_${alice.key.keyId.slice(3, 11).toUpperCase()}`,
    });

    // The database holds ciphertext and wrapped keys, never the text or the thread key.
    const dump = JSON.stringify([
      await server.database.query('SELECT * FROM dm_threads'),
      await server.database.query('SELECT * FROM dm_messages'),
    ]);
    expect(dump).not.toContain('locker 12');
    expect(dump).not.toContain(Buffer.from(threadKey).toString('base64'));
    expect(dump).not.toContain(Buffer.from(threadKey).toString('hex'));
    const [row] = await server.database.query<{ server_key: unknown }>(
      'SELECT server_key FROM dm_threads WHERE id = $1',
      [created.id],
    );
    expect(row?.server_key).toBeNull();
  });

  it("keeps a third key holder out of someone else's thread entirely", async () => {
    const alice = await holder('alice-3p');
    const bob = await holder('bob-3p');
    const eve = await holder('eve-3p');
    const { created, threadKey } = await openThread(alice, bob);
    const sealed = await encryptDirectMessage('secret', threadKey);
    await alice.call(`/api/dm/threads/${created.id}/messages`, {
      method: 'POST',
      body: { ...sealed, expiresAt: new Date(Date.now() + 60_000).toISOString() },
    });

    expect(DmThreadListSchema.parse(await (await eve.call('/api/dm/threads')).json())).toEqual([]);
    expect((await eve.call(`/api/dm/threads/${created.id}/messages`)).status).toBe(404);
    expect(
      (
        await eve.call(`/api/dm/threads/${created.id}/messages`, {
          method: 'POST',
          body: { ...sealed, expiresAt: new Date(Date.now() + 60_000).toISOString() },
        })
      ).status,
    ).toBe(404);
    expect((await eve.call(`/api/dm/threads/${created.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    const eveSocket = await listen(eve);
    eveSocket.send({
      type: 'dm_send_message',
      threadId: created.id,
      recipientKeyId: bob.key.keyId,
    });
    expect((await eveSocket.nextOfType('error')).message).toBe('Conversation not found');
    expect((await alice.call(`/api/dm/threads/${created.id}/messages`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/dm/threads`)).status).toBe(401);
  });

  it('tells the other participant at once when a thread is destroyed', async () => {
    const alice = await holder('alice-kill');
    const bob = await holder('bob-kill');
    const { created } = await openThread(alice, bob);
    const bobSocket = await listen(bob);
    expect((await alice.call(`/api/dm/threads/${created.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(await bobSocket.nextOfType('dm_thread_deleted')).toEqual({
      type: 'dm_thread_deleted',
      threadId: created.id,
      reason: 'deleted',
    });
    expect(
      await server.database.query('SELECT id FROM dm_threads WHERE id = $1', [created.id]),
    ).toEqual([]);
  });

  it('deletes expired messages and threads on the server', async () => {
    const alice = await holder('alice-exp');
    const bob = await holder('bob-exp');
    const { created, threadKey } = await openThread(alice, bob);
    const short = await encryptDirectMessage('gone soon', threadKey);
    await alice.call(`/api/dm/threads/${created.id}/messages`, {
      method: 'POST',
      body: { ...short, expiresAt: new Date(Date.now() + 10_000).toISOString() },
    });
    const long = await encryptDirectMessage('stays a while', threadKey);
    await alice.call(`/api/dm/threads/${created.id}/messages`, {
      method: 'POST',
      body: { ...long, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    // The housekeeping timer (every second) deletes each message once its time has passed; the
    // times noted on sending wake it, with no direct call here.
    clockOffset = 11_000;
    await expect
      .poll(
        async () =>
          (
            await server.database.query<{ id: string }>(
              'SELECT id FROM dm_messages WHERE thread_id = $1',
              [created.id],
            )
          ).length,
        { timeout: 3000, interval: 100 },
      )
      .toBe(1);

    const bobSocket = await listen(bob);
    clockOffset = 24 * 3_600_000 + 60_000;
    expect(await bobSocket.nextOfType('dm_thread_deleted')).toMatchObject({
      threadId: created.id,
      reason: 'expired',
    });
    expect(
      await server.database.query('SELECT id FROM dm_messages WHERE thread_id = $1', [created.id]),
    ).toEqual([]);
  });

  it('refuses wrong expiries, self-conversations, unknown recipients and missing wrapped keys', async () => {
    const alice = await holder('alice-val');
    const bob = await holder('bob-val');
    expect(
      (
        await alice.call('/api/dm/threads', {
          method: 'POST',
          body: { recipientKeyId: alice.key.keyId },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await alice.call('/api/dm/threads', {
          method: 'POST',
          body: { recipientKeyId: `SCK${'9'.repeat(32)}` },
        })
      ).status,
    ).toBe(404);
    const missing = await alice.call('/api/dm/threads', {
      method: 'POST',
      body: { recipientKeyId: bob.key.keyId },
    });
    expect(missing.status).toBe(400);
    const { created, threadKey } = await openThread(alice, bob);
    const sealed = await encryptDirectMessage('x', threadKey);
    for (const expiresAt of [new Date(Date.now() - 1000), new Date(Date.now() + 2 * 86_400_000)]) {
      const response = await alice.call(`/api/dm/threads/${created.id}/messages`, {
        method: 'POST',
        body: { ...sealed, expiresAt: expiresAt.toISOString() },
      });
      expect(response.status).toBe(400);
    }
  });

  it('falls back to a server-assisted thread for a key made before encryption keys', async () => {
    const alice = await holder('alice-old');
    const { createKeyFile } = await import('../../shared/crypto/key-file.js');
    const { publicPart } = await import('../../shared/crypto/key-file-schema.js');
    const { adminToken } = await import('../support/keys.js');
    const legacy = await createKeyFile({ username: 'legacy' });
    const {
      encryptionPublicKey: _pub,
      encryptionPrivateKey: _priv,
      encryptionKeySignature: _sig,
      ...old
    } = legacy;
    const admin = await adminToken(server.baseUrl);
    const registered = await fetch(`${server.baseUrl}/api/keys/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify(publicPart(old)),
    });
    expect(registered.status).toBe(200);
    const response = await alice.call('/api/dm/threads', {
      method: 'POST',
      body: { recipientKeyId: legacy.keyId },
    });
    const created = CreateDmThreadResponseSchema.parse(await response.json());
    expect(created.mode).toBe('server-assisted');
    expect(Buffer.from(created.encryptionKey, 'base64')).toHaveLength(32);
  });
});
