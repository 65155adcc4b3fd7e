/**
 * End-to-end encrypted direct messages (spec 001 §4–§7): only the two participants can touch a
 * thread, the server holds ciphertext and wrapped keys only, deletion reaches the other side in
 * real time, and expiry deletes rows on the server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DmClient } from '../../client/features/dm/dm-client.js';
import { sealDirectMessage } from '../../shared/crypto/dm/message-seal.js';
import { unwrapThreadKey } from '../../shared/crypto/dm/thread-key.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { numbersToBytes } from '../../shared/crypto/bytes.js';
import { DmThreadListSchema, type DmThread } from '../../shared/protocol/http/dm.js';
import { dmHolder } from '../support/dm-client.js';
import { makeRegisteredKey } from '../support/keys.js';
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
    client: DmClient;
    call: (path: string, init?: { method?: string; body?: unknown }) => Promise<Response>;
  }
  async function holder(username: string): Promise<Holder> {
    const key = await makeRegisteredKey(server.baseUrl, { username });
    const { token, client } = await dmHolder(server.baseUrl, key, { now });
    return {
      key,
      token,
      client,
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

  /** alice opens an end-to-end thread to bob: key made, wrapped and signed by her DmClient. */
  async function openThread(alice: Holder, bob: Holder) {
    const created = await alice.client.startConversation(bob.key.keyId);
    const threadKey = await alice.client.openThread(created);
    return { threadKey, created };
  }

  /** A message body sealed by `sender` without the client (for server-side validation tests). */
  async function sealedBody(
    sender: Holder,
    thread: DmThread,
    threadKey: Uint8Array,
    expiresAt: Date,
  ) {
    return sealDirectMessage(
      'x',
      threadKey,
      {
        threadId: thread.id,
        senderKeyId: sender.key.keyId,
        counter: 1,
        timestamp: new Date(now()).toISOString(),
        expiresAt: expiresAt.toISOString(),
      },
      numbersToBytes(sender.key.dilithiumPrivateKey!),
    );
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

    await alice.client.send(created, 'the package is in locker 12', 300);
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
    const reading = await bob.client.readThread(bobThread!);
    expect(reading.threadError).toBeNull();
    expect(reading.contact.safetyNumber).toBe(
      (await alice.client.contact(bob.key.keyId)).safetyNumber,
    );
    const [message] = reading.messages;
    expect(message).toMatchObject({
      content: 'the package is in locker 12',
      status: 'ok',
      counter: 1,
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
  });

  it("keeps a third key holder out of someone else's thread entirely", async () => {
    const alice = await holder('alice-3p');
    const bob = await holder('bob-3p');
    const eve = await holder('eve-3p');
    const { created, threadKey } = await openThread(alice, bob);
    await alice.client.send(created, 'secret', 60);
    const sealed = await sealedBody(alice, created, threadKey, new Date(Date.now() + 60_000));

    expect(DmThreadListSchema.parse(await (await eve.call('/api/dm/threads')).json())).toEqual([]);
    expect((await eve.call(`/api/dm/threads/${created.id}/messages`)).status).toBe(404);
    expect(
      (
        await eve.call(`/api/dm/threads/${created.id}/messages`, {
          method: 'POST',
          body: sealed,
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
    const { created } = await openThread(alice, bob);
    await alice.client.send(created, 'gone soon', 10);
    await alice.client.send(created, 'stays a while', 3600);
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

  it('refuses wrong expiries, self-conversations, unknown recipients and unsigned threads', async () => {
    const alice = await holder('alice-val');
    const bob = await holder('bob-val');
    // A well-formed body, as a browser would send it, for each recipient.
    const body = (recipientKeyId: string) => ({
      recipientKeyId,
      threadId: crypto.randomUUID(),
      mode: 'e2e',
      wrappedKeys: { creator: 'AAAA', recipient: 'AAAA' },
      keyCommitment: 'AAAA',
      signature: { mlDsa: 'AAAA', ecdsa: 'AAAA' },
    });
    const post = async (value: unknown) =>
      (await alice.call('/api/dm/threads', { method: 'POST', body: value })).status;
    expect(await post(body(alice.key.keyId))).toBe(400);
    expect(await post(body(`SCK${'9'.repeat(32)}`))).toBe(404);
    expect(await post({ ...body(bob.key.keyId), mode: 'server-assisted' })).toBe(400);
    const { signature: _signature, ...unsigned } = body(bob.key.keyId);
    expect(await post(unsigned)).toBe(400);
    const missing = await alice.call('/api/dm/threads', {
      method: 'POST',
      body: { recipientKeyId: bob.key.keyId },
    });
    expect(missing.status).toBe(400);
    const { created, threadKey } = await openThread(alice, bob);
    for (const expiresAt of [new Date(Date.now() - 1000), new Date(Date.now() + 2 * 86_400_000)]) {
      const response = await alice.call(`/api/dm/threads/${created.id}/messages`, {
        method: 'POST',
        body: await sealedBody(alice, created, threadKey, expiresAt),
      });
      expect(response.status).toBe(400);
    }
  });

  it('refuses a conversation with a key made before encryption keys: the server never makes one', async () => {
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
    await expect(alice.client.startConversation(legacy.keyId)).rejects.toThrow('no encryption key');
    // A hand-made body naming the legacy key is refused by the server as well.
    const response = await alice.call('/api/dm/threads', {
      method: 'POST',
      body: {
        recipientKeyId: legacy.keyId,
        threadId: '3f1c2b9e-8d7a-4c6b-9e5f-1a2b3c4d5e6f',
        mode: 'e2e',
        wrappedKeys: { creator: 'AAAA', recipient: 'AAAA' },
        keyCommitment: 'AAAA',
        signature: { mlDsa: 'AAAA', ecdsa: 'AAAA' },
      },
    });
    expect(response.status).toBe(400);
    expect(
      await server.database.query('SELECT id FROM dm_threads WHERE participant2 = $1', [
        legacy.keyId,
      ]),
    ).toHaveLength(0);
  });
});
