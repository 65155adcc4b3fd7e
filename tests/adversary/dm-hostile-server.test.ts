/**
 * Direct messages against a hostile server (issue 14, items 2 and 7). The real server runs on
 * 127.0.0.1; the adversary is its database (rows rewritten with SQL) and its HTTP answers
 * (rewritten by a relay between the client and the server). Against it run the REAL browser
 * classes (client/features/dm/dm-client.ts) in Node. Every attack must be refused or shown as
 * what it is — never accepted as a normal, verified message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyChangedError } from '../../client/features/dm/contact-identity.js';
import { THREAD_REJECTION, ThreadRejectedError } from '../../client/features/dm/dm-client.js';
import { bytesToBase64, numbersToBytes } from '../../shared/crypto/bytes.js';
import { signEncryptionKey } from '../../shared/crypto/dm/encryption-keys.js';
import { signThreadStatement, threadKeyCommitment } from '../../shared/crypto/dm/thread-grant.js';
import { generateThreadKey, wrapThreadKey } from '../../shared/crypto/dm/thread-key.js';
import { computeKeyFingerprint } from '../../shared/crypto/fingerprint.js';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { DmThreadListSchema, type DmThread } from '../../shared/protocol/http/dm.js';
import { dmHolder, type Fetcher, type NodeDmHolder } from '../support/dm-client.js';
import { makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';

/** A relay that lets a test rewrite any JSON answer of the real server. */
class HostileRelay {
  rewrite: ((path: string, method: string, body: unknown) => unknown) | null = null;
  readonly fetcher: Fetcher = async (url, init) => {
    const response = await fetch(url, init);
    if (!this.rewrite || !response.ok) return response;
    const path = new URL(url).pathname;
    const body: unknown = await response.json();
    const next = this.rewrite(path, init.method ?? 'GET', body);
    return new Response(JSON.stringify(next), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('direct messages against a hostile server', () => {
  let server: TestServer;
  let mallory: KeyFile;
  beforeAll(async () => {
    server = await startServer({
      deps: { loginRatePerMinute: 1000, keyLoginFailuresPerWindow: 1000 },
    });
    // The server's own identity for forgeries: a key pair it made, never registered.
    mallory = await createKeyFile({ username: 'mallory' });
  });
  afterAll(async () => {
    await server.stop();
  });

  async function pair(tag: string) {
    const relay = new HostileRelay();
    const aliceKey = await makeRegisteredKey(server.baseUrl, { username: `alice-${tag}` });
    const bobKey = await makeRegisteredKey(server.baseUrl, { username: `bob-${tag}` });
    const alice = await dmHolder(server.baseUrl, aliceKey, { fetcher: relay.fetcher });
    const bob = await dmHolder(server.baseUrl, bobKey, { fetcher: relay.fetcher });
    return { relay, alice, bob };
  }

  /** The thread as the (possibly hostile) server lists it to `holder`. */
  async function threadOf(
    holder: NodeDmHolder,
    threadId: string,
    fetcher: Fetcher = (url, init) => fetch(url, init),
  ): Promise<DmThread> {
    const response = await fetcher(`${server.baseUrl}/api/dm/threads`, {
      headers: { authorization: `Bearer ${holder.token}` },
    });
    const thread = DmThreadListSchema.parse(await response.json()).find((t) => t.id === threadId);
    if (!thread) throw new Error('thread not listed');
    return thread;
  }

  /** Mallory's keys presented as `victim`'s, self-consistently signed: a substituted identity. */
  function substitutedKeyAnswer(victim: KeyFile, body: unknown) {
    return {
      ...(body as object),
      keyId: victim.keyId,
      fingerprint: mallory.fingerprint,
      dilithiumPublicKey: mallory.dilithiumPublicKey,
      ecdsaPublicKey: mallory.ecdsaPublicKey,
      encryptionPublicKey: mallory.encryptionPublicKey,
      encryptionKeySignature: Array.from(
        signEncryptionKey(
          victim.keyId,
          mallory.encryptionPublicKey!,
          numbersToBytes(mallory.dilithiumPrivateKey!),
        ),
      ),
    };
  }

  const statuses = (reading: { messages: { status: string; content: string }[] }) =>
    reading.messages.map((m) => m.status);

  it('a substituted recipient key is KEY CHANGED: nothing is wrapped or sent to it', async () => {
    const { relay, alice, bob } = await pair('subst');
    const thread = await alice.client.startConversation(bob.key.keyId);
    await alice.client.send(thread, 'first contact', 600);

    relay.rewrite = (path, _method, body) =>
      path === `/api/dm/keys/${bob.key.keyId}` ? substitutedKeyAnswer(bob.key, body) : body;
    const contact = await alice.client.contact(bob.key.keyId);
    expect(contact.trust).toBe('changed');
    expect(alice.pins.get(bob.key.keyId)).toBe(bob.key.fingerprint);
    await expect(alice.client.send(thread, 'to mallory?', 600)).rejects.toBeInstanceOf(
      KeyChangedError,
    );
    await expect(alice.client.startConversation(bob.key.keyId)).rejects.toBeInstanceOf(
      KeyChangedError,
    );
    const rows = await server.database.query('SELECT id FROM dm_messages WHERE thread_id = $1', [
      thread.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('a key substituted on first use shows a safety number that differs from the real one', async () => {
    const { relay, alice, bob } = await pair('first');
    relay.rewrite = (path, _method, body) =>
      path === `/api/dm/keys/${bob.key.keyId}` ? substitutedKeyAnswer(bob.key, body) : body;
    const seenByAlice = await alice.client.contact(bob.key.keyId);
    relay.rewrite = null;
    const seenByBob = await bob.client.contact(alice.key.keyId);
    expect(seenByAlice.trust).toBe('first-use');
    expect(seenByAlice.safetyNumber).not.toBe(seenByBob.safetyNumber);
    // Without the substitution both sides see the same number.
    const honest = await dmHolder(server.baseUrl, alice.key);
    expect((await honest.client.contact(bob.key.keyId)).safetyNumber).toBe(seenByBob.safetyNumber);
  });

  it('a thread key the server wrapped itself "from alice" is refused', async () => {
    const { alice, bob } = await pair('forged');
    await bob.client.contact(alice.key.keyId); // bob has met alice: her key is pinned.
    const serverKey = generateThreadKey();
    const threadId = crypto.randomUUID();
    const wrap = (holder: KeyFile) =>
      wrapThreadKey(
        serverKey,
        { keyId: holder.keyId, publicKey: holder.encryptionPublicKey! },
        alice.key.keyId,
      );
    const statement = {
      threadId,
      mode: 'e2e',
      creatorKeyId: alice.key.keyId,
      creatorFingerprint: alice.key.fingerprint,
      recipientKeyId: bob.key.keyId,
      recipientFingerprint: bob.key.fingerprint,
      keyCommitment: threadKeyCommitment(serverKey, threadId),
    };
    // Signed by the server's own identity keys: it has no way to sign with alice's.
    const signature = await signThreadStatement(statement, {
      dilithiumPrivateKey: numbersToBytes(mallory.dilithiumPrivateKey!),
      ecdsaPrivateKey: numbersToBytes(mallory.ecdsaPrivateKey!),
    });
    await server.database.query(
      `INSERT INTO dm_threads (id, participant1, participant2, mode, wrapped_key1, wrapped_key2,
         key_commitment, signature_ml_dsa, signature_ecdsa, created_at, expires_at)
       VALUES ($1, $2, $3, 'e2e', $4, $5, $6, $7, $8, now(), now() + interval '1 hour')`,
      [
        threadId,
        alice.key.keyId,
        bob.key.keyId,
        await wrap(alice.key),
        await wrap(bob.key),
        statement.keyCommitment,
        signature.mlDsa,
        signature.ecdsa,
      ],
    );
    const thread = await threadOf(bob, threadId);
    const reading = await bob.client.readThread(thread);
    expect(reading.threadError).toBe(THREAD_REJECTION.signature);
    await expect(bob.client.openThread(thread)).rejects.toBeInstanceOf(ThreadRejectedError);
    await expect(bob.client.send(thread, 'hello?', 600)).rejects.toBeInstanceOf(
      ThreadRejectedError,
    );
  });

  it("a server key slipped under alice's genuine signature is refused by the key commitment", async () => {
    const { alice, bob } = await pair('swap');
    const thread = await alice.client.startConversation(bob.key.keyId);
    const serverWrap = await wrapThreadKey(
      generateThreadKey(),
      { keyId: bob.key.keyId, publicKey: bob.key.encryptionPublicKey! },
      alice.key.keyId,
    );
    await server.database.query('UPDATE dm_threads SET wrapped_key2 = $1 WHERE id = $2', [
      serverWrap,
      thread.id,
    ]);
    const reading = await bob.client.readThread(await threadOf(bob, thread.id));
    expect(reading.threadError).toBe(THREAD_REJECTION.commitment);
  });

  it('a thread whose mode the server flips is refused, never opened with a server key', async () => {
    const { relay, alice, bob } = await pair('mode');
    const thread = await alice.client.startConversation(bob.key.keyId);
    await alice.client.send(thread, 'still private', 600);
    relay.rewrite = (path, _method, body) =>
      path === '/api/dm/threads'
        ? (body as DmThread[]).map((t) => ({
            ...t,
            mode: 'server-assisted',
            encryptionKey: bytesToBase64(generateThreadKey()),
          }))
        : body;
    const flipped = await threadOf(bob, thread.id, relay.fetcher);
    expect(flipped.mode).toBe('server-assisted');
    const reading = await bob.client.readThread(flipped);
    expect(reading.threadError).toBe(THREAD_REJECTION.mode);
    expect(statuses(reading)).toEqual(['no-thread-key']);
    await expect(bob.client.send(flipped, 'reply', 600)).rejects.toBeInstanceOf(
      ThreadRejectedError,
    );
  });

  it('a replayed message is shown as REPLAYED, and a reordered one as OUT OF ORDER', async () => {
    const { alice, bob } = await pair('replay');
    const thread = await alice.client.startConversation(bob.key.keyId);
    for (const text of ['one', 'two', 'three']) await alice.client.send(thread, text, 600);
    const bobThread = await threadOf(bob, thread.id);
    expect(statuses(await bob.client.readThread(bobThread))).toEqual(['ok', 'ok', 'ok']);

    // Replay: the server stores message 1 again under a new id, delivered last.
    await server.database.query(
      `INSERT INTO dm_messages (id, thread_id, sender_key_id, encrypted, iv, counter, signed_at,
         signature, sent_at, expires_at)
       SELECT gen_random_uuid(), thread_id, sender_key_id, encrypted, iv, counter, signed_at,
         signature, now() + interval '1 second', expires_at
       FROM dm_messages WHERE thread_id = $1 AND counter = 1`,
      [thread.id],
    );
    const replayed = await bob.client.readThread(bobThread);
    expect(statuses(replayed)).toEqual(['ok', 'ok', 'ok', 'replayed']);
    expect(replayed.messages[3]!.content).toBe('one');

    // Reorder: message 3 is delivered before message 2.
    const fresh = await dmHolder(server.baseUrl, bob.key);
    await server.database.query(
      `UPDATE dm_messages SET sent_at = sent_at - interval '1 hour'
       WHERE thread_id = $1 AND counter = 3`,
      [thread.id],
    );
    const reordered = await fresh.client.readThread(bobThread);
    expect(reordered.messages.map((m) => [m.counter, m.status])).toEqual([
      [3, 'ok'],
      [1, 'out-of-order'],
      [2, 'out-of-order'],
      [1, 'replayed'],
    ]);
  });

  it('a withheld message shows as MISSING before the next one', async () => {
    const { alice, bob } = await pair('gap');
    const thread = await alice.client.startConversation(bob.key.keyId);
    for (const text of ['one', 'two', 'three']) await alice.client.send(thread, text, 600);
    await server.database.query('DELETE FROM dm_messages WHERE thread_id = $1 AND counter = 2', [
      thread.id,
    ]);
    const reading = await bob.client.readThread(await threadOf(bob, thread.id));
    expect(reading.messages.map((m) => [m.counter, m.missingBefore])).toEqual([
      [1, 0],
      [3, 1],
    ]);
  });

  it('a re-attributed, renumbered, moved or unsigned message is SIGNATURE INVALID', async () => {
    const { relay, alice, bob } = await pair('attrib');
    const thread = await alice.client.startConversation(bob.key.keyId);
    const other = await dmHolder(
      server.baseUrl,
      await makeRegisteredKey(server.baseUrl, { username: 'carol-attrib' }),
    );
    const otherThread = await alice.client.startConversation(other.key.keyId);
    for (const text of ['mine', 'also mine', 'moved', 'stripped']) {
      await alice.client.send(thread, text, 600);
    }
    // Message 1 "from bob", message 2 renumbered, message 3 moved in from another thread.
    await server.database.query(
      'UPDATE dm_messages SET sender_key_id = $1 WHERE thread_id = $2 AND counter = 1',
      [bob.key.keyId, thread.id],
    );
    await server.database.query(
      'UPDATE dm_messages SET counter = 7 WHERE thread_id = $1 AND counter = 2',
      [thread.id],
    );
    await alice.client.send(otherThread, 'for carol', 600);
    await server.database.query('UPDATE dm_messages SET thread_id = $1 WHERE thread_id = $2', [
      thread.id,
      otherThread.id,
    ]);
    relay.rewrite = (path, _method, body) =>
      path === `/api/dm/threads/${thread.id}/messages`
        ? (body as { counter: number; signature: string | null }[]).map((m) =>
            m.counter === 4 ? { ...m, signature: null } : m,
          )
        : body;
    const reading = await bob.client.readThread(await threadOf(bob, thread.id));
    const byCounter = new Map(reading.messages.map((m) => [`${m.senderKeyId}:${m.counter}`, m]));
    expect(byCounter.get(`${bob.key.keyId}:1`)!.status).toBe('signature-invalid');
    expect(byCounter.get(`${alice.key.keyId}:7`)!.status).toBe('signature-invalid');
    expect(byCounter.get(`${alice.key.keyId}:4`)!.status).toBe('signature-invalid');
    expect(byCounter.get(`${alice.key.keyId}:1`)!.status).toBe('signature-invalid');
    expect(reading.messages.find((m) => m.content === 'for carol')).toBeUndefined();
    expect(reading.messages.filter((m) => m.status === 'ok').map((m) => m.content)).toEqual([
      'moved',
    ]);
    for (const message of reading.messages) {
      if (message.status !== 'ok') expect(message.content).not.toMatch(/mine|stripped|carol/);
    }
  });

  it("the fingerprint the client pins is its own hash of the keys, not the server's claim", async () => {
    const { relay, alice, bob } = await pair('fp');
    relay.rewrite = (path, _method, body) =>
      path === `/api/dm/keys/${bob.key.keyId}`
        ? { ...(body as object), fingerprint: mallory.fingerprint }
        : body;
    await expect(alice.client.contact(bob.key.keyId)).rejects.toThrow(/signature check/);
    expect(alice.pins.get(bob.key.keyId)).toBeNull();
    relay.rewrite = null;
    const contact = await alice.client.contact(bob.key.keyId);
    expect(contact.fingerprint).toBe(
      computeKeyFingerprint(
        numbersToBytes(bob.key.dilithiumPublicKey),
        numbersToBytes(bob.key.ecdsaPublicKey),
      ),
    );
  });
});
