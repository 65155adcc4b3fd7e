/**
 * The room's end-to-end encryption against an active server and hostile members (issue 14,
 * SECURITY.md "Room messages"). Each test names what it proves. The server is the real one
 * (tests/support/startServer); a hostile relay (support/hostile-relay.ts) sits in front of it
 * when the server itself is the adversary, rewriting, dropping, replaying and injecting frames;
 * members are the real browser classes in Node (support/node-member.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { identitySignerFromKeyFile } from '../../client/features/e2ee/bundle-identity.js';
import { signPlaintext } from '../../client/features/e2ee/room-message-io.js';
import { SessionKeys } from '../../client/features/e2ee/session-keys.js';
import { signBundle } from '../../client/features/e2ee/bundle-identity.js';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import { type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { type Message } from '../../shared/protocol/ws/chat.js';
import { loadConfig } from '../../server/config.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { messageFixture } from '../support/message-fixture.js';
import { HostileRelay } from './support/hostile-relay.js';
import { NodeMember, type NodeMemberOptions } from './support/node-member.js';

let server: TestServer;
let roomId: string;
const members: NodeMember[] = [];
const relays: HostileRelay[] = [];
let callsign = 100;

beforeAll(async () => {
  server = await startServer({ env: { MESSAGE_TTL_SECONDS: '60' } });
  roomId = (await server.rooms.defaultRoom()).secureId;
});
afterAll(async () => {
  await server.stop();
});
afterEach(async () => {
  for (const member of members.splice(0)) member.close();
  for (const relay of relays.splice(0)) await relay.close();
});

async function relay(): Promise<HostileRelay> {
  const hostile = await HostileRelay.start(server.wsUrl());
  relays.push(hostile);
  return hostile;
}

async function join(options: Partial<NodeMemberOptions> = {}): Promise<NodeMember> {
  const member = await NodeMember.join({
    url: server.wsUrl(),
    baseUrl: server.baseUrl,
    roomId,
    username: `Agent${callsign++}`,
    ...options,
  });
  members.push(member);
  return member;
}

/** A key holder: a registered key file and a logged-in session. */
async function keyHolder(username: string): Promise<{ keyFile: KeyFile; sessionToken: string }> {
  const keyFile = await makeRegisteredKey(server.baseUrl, { username });
  const { body } = await login(server.baseUrl, keyFile);
  return { keyFile, sessionToken: body.sessionToken as string };
}

async function joinAsKeyHolder(
  username: string,
  options: Partial<NodeMemberOptions> = {},
): Promise<NodeMember> {
  const { keyFile, sessionToken } = await keyHolder(username);
  return join({ username, keyFile, sessionToken, ...options });
}

function trustSeenBy(reader: NodeMember, nodeId: string) {
  return reader.manager.getStatus().members.find((member) => member.nodeId === nodeId);
}

async function readyToSend(...group: NodeMember[]): Promise<void> {
  for (const member of group) {
    await member.waitFor(
      () =>
        member.manager.isReadyToSend &&
        group.every((other) => other === member || member.manager.members.has(other.nodeId)),
    );
  }
}

describe('1 · no silent downgrade', () => {
  it('a member flooding key_announce with alternating bundles cannot make another member send unencrypted', async () => {
    const capture = await relay();
    const alice = await join({ url: capture.url });
    const bob = await join();
    const mallory = await join();
    await readyToSend(alice, bob, mallory);
    // Mallory alternates two valid bundles as fast as the socket takes them.
    const binding = { roomId, nodeId: mallory.nodeId };
    const spare = await SessionKeys.generate(
      (n) => crypto.getRandomValues(new Uint8Array(n)),
      Date.now(),
    );
    const bundles = [
      await signBundle(mallory.manager.keys!.unsignedBundle(), binding, null),
      await signBundle(spare.unsignedBundle(), binding, null),
    ];
    for (let index = 0; index < 60; index++) {
      mallory.send({ type: 'key_announce', bundle: bundles[index % 2] });
    }
    const sent = await alice.say('the plan stands');
    // The relay cut the flood off with an error frame after its burst.
    await mallory.waitFor(() =>
      mallory.errors.includes('Too many key announcements: wait before announcing again'),
    );
    // alice's frame may still be on its way through the relay when mallory hears the error.
    await alice.waitFor(() => capture.framesOf('to-server', 'send_message').length > 0);
    const toServer = capture.framesOf('to-server', 'send_message').map((item) => item.frame);
    expect(toServer).toHaveLength(1);
    expect(sent.encryptionType).not.toBe('PLAINTEXT');
    expect(
      toServer.every((frame) => frame.encryptionType !== 'PLAINTEXT' && frame.content === ''),
    ).toBe(true);
    const received = await bob.message((message) => message.senderId === alice.nodeId);
    expect(await bob.read(received)).toMatchObject({ state: 'decrypted', text: 'the plan stands' });
  });

  it('a relay that floods a member with churning bundles past the server limit is ignored by the client, which still sends encrypted', async () => {
    const hostile = await relay();
    const alice = await join({ url: hostile.url });
    const bob = await join();
    await readyToSend(alice, bob);
    const binding = { roomId, nodeId: bob.nodeId };
    const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
    const link = hostile.links[0]!;
    const spare = await SessionKeys.generate(random, Date.now());
    const bundles = [
      await signBundle(spare.unsignedBundle(), binding, null),
      await signBundle(bob.manager.keys!.unsignedBundle(), binding, null),
    ];
    for (let index = 0; index < 40; index++) {
      link.injectToClient({
        type: 'key_announce',
        fromNodeId: bob.nodeId,
        username: bob.options.username,
        bundle: bundles[index % 2],
      });
    }
    const sent = await alice.say('still sealed');
    expect(sent.encryptionType).not.toBe('PLAINTEXT');
    await alice.waitFor(() =>
      alice.logText().includes('changes too often: further changes ignored'),
    );
    await alice.manager.settled();
    // At most the limit's worth of hand-overs to the churning member went out.
    const toBob = hostile
      .framesOf('to-server', 'sender_key')
      .filter((item) => item.frame.targetNodeId === bob.nodeId);
    expect(toBob.length).toBeLessThanOrEqual(2 * (1 + 3));
  });

  it('a relay that stalls key agreement gets nothing in clear: the message waits, and leaves as PLAINTEXT only once the user confirms it', async () => {
    const hostile = await relay();
    // The relay never lets the victim into the room's key agreement.
    hostile.hooks.toClient = (frame) => (frame.type === 'room_joined' ? [] : [frame]);
    const victim = await join({ url: hostile.url, awaitJoin: false });
    let outcome: unknown = 'waiting';
    let confirm: () => void = () => undefined;
    const plaintextConsent = new Promise<undefined>((resolve) => {
      confirm = () => resolve(undefined);
    });
    const send = victim
      .say('only if I say so', { plaintextConsent })
      .then((frame) => (outcome = frame));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(outcome).toBe('waiting');
    expect(hostile.framesOf('to-server', 'send_message')).toHaveLength(0);
    confirm();
    await send;
    expect(outcome).toMatchObject({ encryptionType: 'PLAINTEXT', content: 'only if I say so' });
    expect(victim.logText()).toContain("PLAINTEXT at the user's request");
  });

  it('plain HTTP on a network address is refused at start unless ALLOW_INSECURE_HTTP=1', () => {
    const base = { PORT: '0', DATA_DIR: '' };
    expect(() => loadConfig({ ...base, HOST: '0.0.0.0' }, '/')).toThrow(/ALLOW_INSECURE_HTTP/);
    expect(() => loadConfig({ ...base, HOST: '192.168.1.20' }, '/')).toThrow(/ALLOW_INSECURE_HTTP/);
    expect(
      loadConfig({ ...base, HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: '1' }, '/').allowInsecureHttp,
    ).toBe(true);
    expect(() => loadConfig({ ...base, HOST: '127.0.0.1' }, '/')).not.toThrow();
    expect(() => loadConfig({ ...base, HOST: '::1' }, '/')).not.toThrow();
    expect(() => loadConfig({ ...base, HOST: 'abcdefghijklmnop.onion' }, '/')).not.toThrow();
    expect(() =>
      loadConfig({ ...base, HOST: '0.0.0.0', TLS_CERT: '/c.pem', TLS_KEY: '/k.pem' }, '/'),
    ).not.toThrow();
  });
});

describe('3 · VERIFIED means verified', () => {
  it('an anonymous visitor with a self-made, never-registered key file is unverified, never VERIFIED', async () => {
    const hostile = await relay();
    const bob = await joinAsKeyHolder('bob-reader', { url: hostile.url });
    const mallory = await join();
    // The honest server refuses a bundle naming a key the session did not log in with...
    const selfMade = await createKeyFile({ username: 'mallory' });
    const signer = identitySignerFromKeyFile(selfMade)!;
    await mallory.manager.setIdentity(signer);
    await mallory.waitFor(() =>
      mallory.errors.includes('The key bundle names a key this session did not log in with'),
    );
    // ...so a hostile server relays it itself.
    hostile.links[0]!.injectToClient({
      type: 'key_announce',
      fromNodeId: mallory.nodeId,
      username: 'mallory',
      bundle: await signBundle(
        mallory.manager.keys!.unsignedBundle(),
        { roomId, nodeId: mallory.nodeId },
        signer,
      ),
    });
    await bob.waitFor(() => trustSeenBy(bob, mallory.nodeId)?.keyId === selfMade.keyId);
    expect(trustSeenBy(bob, mallory.nodeId)).toMatchObject({
      trust: 'unverified',
      trustReason: 'unverified: the key registry does not confirm this key',
    });
    expect(bob.pins.get(selfMade.keyId)).toBeNull();
  });

  it("a keyId claimed by someone else can never poison the real holder's pin", async () => {
    const hostile = await relay();
    const alice = await keyHolder('alice-real');
    const bob = await joinAsKeyHolder('bob-pins', { url: hostile.url });
    const carol = await join({ url: hostile.url }); // anonymous: no registry access
    const mallory = await join();
    // Both readers know mallory's own (anonymous) bundle before the relay injects the claim.
    await readyToSend(bob, carol, mallory);
    const impostor = await createKeyFile({ username: 'alice-real' });
    const forged = identitySignerFromKeyFile(impostor)!;
    const claim = { ...forged, fields: { ...forged.fields, keyId: alice.keyFile.keyId } };
    const bundle = await signBundle(
      mallory.manager.keys!.unsignedBundle(),
      { roomId, nodeId: mallory.nodeId },
      claim,
    );
    for (const link of hostile.links) {
      link.injectToClient({
        type: 'key_announce',
        fromNodeId: mallory.nodeId,
        username: 'alice-real',
        bundle,
      });
    }
    await bob.waitFor(() => trustSeenBy(bob, mallory.nodeId)?.keyId === alice.keyFile.keyId);
    await carol.waitFor(() => trustSeenBy(carol, mallory.nodeId)?.keyId === alice.keyFile.keyId);
    expect(trustSeenBy(bob, mallory.nodeId)?.trust).toBe('bad');
    expect(trustSeenBy(carol, mallory.nodeId)).toMatchObject({
      trust: 'unverified',
      trustReason: 'unverified (trust on first use)',
    });
    expect(bob.pins.get(alice.keyFile.keyId)).toBeNull();
    expect(carol.pins.get(alice.keyFile.keyId)).toBeNull();
    // The real alice arrives: verified for bob, never KEY SUBSTITUTION for either reader.
    const real = await join({ username: 'alice-real', ...alice });
    await bob.waitFor(() => trustSeenBy(bob, real.nodeId)?.trust === 'verified');
    await carol.waitFor(() => trustSeenBy(carol, real.nodeId) !== undefined);
    expect(trustSeenBy(carol, real.nodeId)?.trust).toBe('unverified');
    expect(bob.pins.get(alice.keyFile.keyId)).toBe(alice.keyFile.fingerprint);
  });

  it("a relay that hides a key holder's authentication in the roster gets them shown unverified", async () => {
    const hostile = await relay();
    hostile.hooks.toClient = (frame) =>
      frame.type === 'user_list_update'
        ? [
            {
              ...frame,
              users: (frame.users as { isAuthenticated: boolean }[]).map((user) => ({
                ...user,
                isAuthenticated: false,
              })),
            },
          ]
        : [frame];
    const alice = await joinAsKeyHolder('alice-roster');
    const bob = await joinAsKeyHolder('bob-roster', { url: hostile.url });
    const honest = await joinAsKeyHolder('carol-roster');
    await readyToSend(alice, bob, honest);
    await honest.waitFor(() => trustSeenBy(honest, alice.nodeId)?.trust === 'verified');
    expect(trustSeenBy(bob, alice.nodeId)?.trust).toBe('unverified');
    await alice.say('signed');
    const seen = await bob.message((message) => message.senderId === alice.nodeId);
    expect((await bob.read(seen)).signature).toBe('unverified');
  });

  it('a ghost member the relay adds is shown to every member, and never as verified', async () => {
    const hostile = await relay();
    const alice = await join({ url: hostile.url });
    const ghostKeys = await SessionKeys.generate(
      (n) => crypto.getRandomValues(new Uint8Array(n)),
      Date.now(),
    );
    const ghost = 'node_ghost000000000000';
    hostile.links[0]!.injectToClient({
      type: 'key_announce',
      fromNodeId: ghost,
      username: 'Agent999',
      bundle: await signBundle(ghostKeys.unsignedBundle(), { roomId, nodeId: ghost }, null),
    });
    await alice.waitFor(() => trustSeenBy(alice, ghost) !== undefined);
    expect(trustSeenBy(alice, ghost)?.trust).toBe('unverified');
  });
});

describe('4 · joiners read from their join on', () => {
  it('a member the server adds after the fact reads nothing sent before it joined, and what follows', async () => {
    const alice = await join();
    const bob = await join();
    await readyToSend(alice, bob);
    // One message of every type the room uses, before anyone else is there.
    for (let index = 0; index < 6; index++) await alice.say(`before ${index}`);
    await bob.waitFor(() => bob.messages.filter((m) => m.senderId === alice.nodeId).length === 6);
    // The server lets in a newcomer (it decides membership): it gets the history on joining.
    const late = await join();
    const history = late.messages.filter((m) => m.senderId === alice.nodeId);
    expect(history).toHaveLength(6);
    await readyToSend(alice, bob, late);
    const shown: string[] = [];
    for (const message of history) {
      const display = await late.read(message);
      expect(display.state).toBe('error');
      shown.push(display.text);
    }
    // Every type says why, RSA-OAEP included (its iteration is on the same chain).
    expect(shown).toEqual(Array(6).fill('[SENT BEFORE YOU JOINED]'));
    const after = await alice.say('after the join');
    const seen = await late.message(
      (m) => m.senderId === alice.nodeId && m.encryptedContent === after.encryptedContent,
    );
    expect(await late.read(seen)).toMatchObject({ state: 'decrypted', text: 'after the join' });
  });
});

describe('4 · locked rooms warn before an unverified member gets keys', () => {
  it('a ghost member in a locked room gets sender keys only after the room shows the warning', async () => {
    const hostile = await relay();
    const alice = await join({ url: hostile.url, isLocked: true });
    await alice.waitFor(() => alice.manager.isReadyToSend);
    const ghost = 'node_ghost000000000001';
    let warnedWhenKeysLeft: boolean | null = null;
    hostile.hooks.toServer = (frame) => {
      if (frame.type === 'sender_key' && frame.targetNodeId === ghost) {
        warnedWhenKeysLeft ??= alice.manager.getStatus().unverifiedReaders.includes('Agent998');
      }
      return [frame];
    };
    const ghostKeys = await SessionKeys.generate(
      (n) => crypto.getRandomValues(new Uint8Array(n)),
      Date.now(),
    );
    hostile.links[0]!.injectToClient({
      type: 'key_announce',
      fromNodeId: ghost,
      username: 'Agent998',
      bundle: await signBundle(ghostKeys.unsignedBundle(), { roomId, nodeId: ghost }, null),
    });
    await alice.waitFor(() => warnedWhenKeysLeft !== null);
    expect(warnedWhenKeysLeft).toBe(true);
    expect(alice.manager.getStatus().unverifiedReaders).toEqual(['Agent998']);
    expect(
      alice.log
        .getEntries()
        .some(
          (entry) => entry.level === 'warning' && entry.text.startsWith('Agent998 is not verified'),
        ),
    ).toBe(true);
  });

  it('verified key holders in a locked room, and anyone in an open room, raise no warning', async () => {
    const alice = await joinAsKeyHolder('LockedAlice', { isLocked: true });
    const bob = await joinAsKeyHolder('LockedBob', { isLocked: true });
    await readyToSend(alice, bob);
    await alice.waitFor(() => trustSeenBy(alice, bob.nodeId)?.trust === 'verified');
    expect(alice.manager.getStatus().unverifiedReaders).toEqual([]);
    expect(bob.manager.getStatus().unverifiedReaders).toEqual([]);
    for (const member of [alice, bob]) {
      expect(member.log.getEntries().some((entry) => entry.text.includes('is not verified'))).toBe(
        false,
      );
    }

    const open1 = await join();
    const open2 = await join();
    await readyToSend(open1, open2);
    expect(open1.manager.getStatus().unverifiedReaders).toEqual([]);
  });
});

describe('5 · every sender key in the hybrid wrap', () => {
  it('every sender key travels in the ML-KEM-768 + ECDH hybrid wrap, and an ECDH-only envelope is refused', async () => {
    const hostile = await relay();
    const alice = await join({ url: hostile.url });
    const bob = await join();
    const carol = await join();
    await readyToSend(alice, bob, carol);
    const envelopes = hostile.captured
      .filter((item) => item.frame.type === 'sender_key')
      .map((item) => item.frame.envelope as { kind: string; kemCiphertext?: string });
    expect(envelopes.length).toBeGreaterThanOrEqual(4);
    for (const envelope of envelopes) {
      expect(envelope.kind).toBe('hybrid');
      expect(envelope.kemCiphertext).toMatch(/^[A-Za-z0-9+/]{1400,}={0,2}$/);
    }
    // The relay downgrades one of bob's envelopes to the ECDH-only form.
    const toAlice = hostile.framesOf('to-client', 'sender_key')[0]!.frame;
    const { kemCiphertext: _dropped, ...rest } = toAlice.envelope as Record<string, unknown>;
    hostile.links[0]!.injectToClient({ ...toAlice, envelope: { ...rest, kind: 'classic' } });
    await alice.waitFor(() => /Sender key from .* rejected/.test(alice.logText()));
  });
});

describe('6 · own and replayed messages', () => {
  it("a message the relay forges under the reader's own node id is flagged as not sent by them", async () => {
    const hostile = await relay();
    const victim = await join({ url: hostile.url });
    const forged: Message = fakeMessage(victim, {
      content: 'I resign',
      encryptionType: 'PLAINTEXT',
    });
    hostile.links[0]!.injectToClient({ type: 'new_message', message: forged });
    const seen = await victim.message((message) => message.id === forged.id);
    expect(await victim.read(seen)).toMatchObject({ signature: 'forged' });
    expect(victim.logText()).toContain('was not sent by this tab');
  });

  it('a replayed message is shown as replayed, never VERIFIED, whether re-sent or re-dated', async () => {
    const hostile = await relay();
    const alice = await joinAsKeyHolder('alice-replay');
    const bob = await joinAsKeyHolder('bob-replay', { url: hostile.url });
    await readyToSend(alice, bob);
    await bob.waitFor(() => trustSeenBy(bob, alice.nodeId)?.trust === 'verified');
    // One message of every type this room uses, and one PLAINTEXT the user confirmed.
    for (let index = 0; index < 6; index++) await alice.say(`order ${index}`);
    const content = 'confirmed in clear';
    alice.send({
      type: 'send_message',
      content,
      encryptionType: 'PLAINTEXT',
      signature: signPlaintext(alice.manager, content),
    });
    await bob.waitFor(() => bob.messages.filter((m) => m.senderId === alice.nodeId).length === 7);
    const originals = bob.messages.filter((m) => m.senderId === alice.nodeId);
    for (const original of originals) {
      expect((await bob.read(original)).signature).toBe('verified');
    }
    const link = hostile.links[0]!;
    for (const original of originals) {
      link.injectToClient({
        type: 'new_message',
        message: { ...original, id: `${original.id}-again` },
      });
    }
    // A re-dated copy, to a reader who never saw the original: its signed time gives it away.
    const carol = await join({ url: hostile.url });
    await readyToSend(alice, carol);
    const plain = originals.find((m) => m.encryptionType === 'PLAINTEXT')!;
    const later = new Date(Date.parse(plain.createdAt) + 3_600_000);
    hostile.links[1]!.injectToClient({
      type: 'new_message',
      message: {
        ...plain,
        id: `${plain.id}-redated`,
        createdAt: later.toISOString(),
        expiresAt: new Date(later.getTime() + 60_000).toISOString(),
      },
    });
    await bob.waitFor(() => bob.messages.filter((m) => m.id.endsWith('-again')).length === 7);
    for (const replay of bob.messages.filter((m) => m.id.endsWith('-again'))) {
      expect(await bob.read(replay)).toMatchObject({ signature: 'replayed' });
    }
    const redated = await carol.message((m) => m.id.endsWith('-redated'));
    expect(await carol.read(redated)).toMatchObject({
      state: 'plaintext',
      text: content,
      signature: 'replayed',
    });
  });
});

function fakeMessage(member: NodeMember, fields: Partial<Message>): Message {
  const now = Date.now();
  return messageFixture({
    id: `forged-${now}`,
    senderId: member.nodeId,
    senderUsername: member.options.username,
    roomId: member.manager.room!.roomId,
    content: '',
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    ...fields,
  });
}
