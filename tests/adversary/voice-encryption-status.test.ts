/**
 * A lying relay against a call's `encryption_status` (issue 31; SECURITY.md "Voice calls";
 * docs/crypto-room.md §15 "Encryption status"). Before, the relay's unauthenticated
 * `encryption_status {fromParticipant, encryptionEnabled: false}` was enough for a receiver to play
 * clear audio frames as that participant's: a relay in the media path (it answers signalling, and
 * may be the TURN server) could speak as anyone, or downgrade anyone. Now only the participant's
 * own statement, signed with the session key its room bundle carries, lets clear frames play.
 *
 * Everything is real but the media: the server (tests/support/startServer), the hostile relay in
 * front of bob (support/hostile-relay.ts), the members' RoomKeyManagers (support/node-member.ts),
 * and each participant's VoiceCall with the frame-encryption engine its worker runs
 * (support/node-call.ts). Frames are put on the wire by the test, as the relay could.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { generateMlDsaKeyPair } from '../../shared/crypto/ml-dsa.js';
import { signVoiceStatus } from '../../shared/crypto/voice/encryption-status.js';
import { clearVoiceFrame } from '../../shared/crypto/voice/voice-frame.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { HostileRelay, type Frame } from './support/hostile-relay.js';
import { installCallFakes, NodeCall } from './support/node-call.js';
import { NodeMember } from './support/node-member.js';

let server: TestServer;
const members: NodeMember[] = [];
const calls: NodeCall[] = [];
const relays: HostileRelay[] = [];
let roomCount = 0;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});
afterEach(async () => {
  for (const call of calls.splice(0)) call.close();
  for (const member of members.splice(0)) member.close();
  for (const relay of relays.splice(0)) await relay.close();
  vi.unstubAllGlobals();
});

const opus = (n: number) => Uint8Array.from({ length: 40 }, (_, i) => (n * 31 + i) & 0xff);

async function keyHolder(username: string): Promise<{ keyFile: KeyFile; sessionToken: string }> {
  const keyFile = await makeRegisteredKey(server.baseUrl, { username });
  const { body } = await login(server.baseUrl, keyFile);
  return { keyFile, sessionToken: body.sessionToken as string };
}

/** A room of its own with alice and mallory direct and bob behind the hostile relay, in a call. */
async function callWithRelay() {
  roomCount += 1;
  const room = await server.rooms.createRoom({
    name: `Voice status ${roomCount}`,
    isPrivate: false,
    securityLevel: 'public',
    selfDestructTimer: null,
  });
  const relay = await HostileRelay.start(server.wsUrl());
  relays.push(relay);
  const join = async (username: string, url: string) => {
    const member = await NodeMember.join({
      url,
      baseUrl: server.baseUrl,
      roomId: room.secureId,
      username,
      ...(await keyHolder(username)),
    });
    members.push(member);
    return member;
  };
  const alice = await join(`Alice${roomCount}`, server.wsUrl());
  const bob = await join(`Bob${roomCount}`, relay.url);
  const mallory = await join(`Mallory${roomCount}`, server.wsUrl());
  for (const member of [alice, bob, mallory])
    await member.waitFor(() =>
      [alice, bob, mallory].every(
        (other) => other === member || member.manager.members.has(other.nodeId),
      ),
    );
  installCallFakes();
  const start = async (member: NodeMember) => {
    const call = await NodeCall.start(member);
    calls.push(call);
    return call;
  };
  const atAlice = await start(alice);
  const atBob = await start(bob);
  const atMallory = await start(mallory);
  return { relay, alice, bob, mallory, atAlice, atBob, atMallory };
}

/** Waits until `from` seals frames for `to` and they open at `to` (keys handed both ways). */
async function encryptedAudioFlows(from: NodeCall, to: NodeCall, n: number): Promise<Uint8Array> {
  const toNode = to.member.nodeId;
  const fromNode = from.member.nodeId;
  await to.member.waitFor(() => from.hasPeer(toNode) && to.hasPeer(fromNode));
  let wire: Uint8Array | null = null;
  for (let attempt = 0; attempt < 300 && wire === null; attempt++) {
    wire = await from.send(toNode, opus(n));
    if (wire === null) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!wire) throw new Error('no frame key was handed over');
  expect(wire[0]).not.toBe(0);
  const before = to.played(fromNode).length;
  await to.receive(fromNode, wire);
  await to.member.waitFor(() => to.played(fromNode).length > before, 5_000);
  return wire;
}

const relayedStatus = (relay: HostileRelay) => relay.framesOf('to-client', 'encryption_status');

/** The call window's state after the next 2 s probe. */
async function nextProbe(call: NodeCall) {
  const counters = call.call.getState().counters;
  await call.member.waitFor(() => call.call.getState().counters !== counters, 5_000);
  return call.call.getState();
}

describe('a lying relay against encryption_status', { timeout: 60_000 }, () => {
  it("cannot make bob play clear frames as alice's: unsigned, forged, and another participant's statements are ignored and shown", async () => {
    const { relay, alice, bob, mallory, atAlice, atBob, atMallory } = await callWithRelay();
    // The honest path: alice's encrypted audio plays at bob.
    await encryptedAudioFlows(atAlice, atBob, 1);
    const bobLink = relay.links.find((link) => link.nodeId === bob.nodeId)!;
    const roomId = bob.manager.room!.roomId;

    // 1 · The relay's own word: alice "turned encryption off" (the frame as the spec has it).
    bobLink.injectToClient({
      type: 'encryption_status',
      roomId,
      fromParticipant: alice.nodeId,
      encryptionEnabled: false,
      timestamp: Date.now(),
    });
    // 2 · A statement signed by a key of the relay's.
    const relayKey = generateMlDsaKeyPair();
    bobLink.injectToClient({
      type: 'encryption_status',
      roomId,
      fromParticipant: alice.nodeId,
      encryptionEnabled: false,
      timestamp: Date.now(),
      proof: signVoiceStatus(
        {
          roomId: bob.manager.room!.secureId,
          fromNodeId: alice.nodeId,
          encryptionEnabled: false,
          sentAt: Date.now(),
          recipients: { [bob.nodeId]: '0123456789abcdef01234567' },
        },
        relayKey.secretKey,
      ),
    });
    // 3 · mallory really turns her encryption off; the relay relabels her signed statement as
    //     alice's on its way to bob (and passes the original on too).
    relay.hooks.toClient = (frame: Frame, link) => {
      if (link !== bobLink || frame.type !== 'encryption_status') return [frame];
      if (frame.fromParticipant !== mallory.nodeId) return [frame];
      return [frame, { ...frame, fromParticipant: alice.nodeId }];
    };
    // (mallory names bob in it once his frame key has reached her.)
    await encryptedAudioFlows(atBob, atMallory, 3);
    atMallory.call.setEncryption(false);
    await bob.waitFor(() => atBob.call.getState().warnings.length >= 3);

    // The relay injects clear frames into alice's stream to bob: none plays.
    const playedBefore = atBob.played(alice.nodeId).length;
    for (let n = 0; n < 20; n++) await atBob.receive(alice.nodeId, clearVoiceFrame(opus(100 + n)));
    expect(atBob.played(alice.nodeId).length).toBe(playedBefore);
    const warnings = atBob.call.getState().warnings.join('\n');
    expect(warnings).toContain('carries no signature');
    expect(warnings).toContain('has a signature that does not verify');
    expect(warnings.match(/does not verify/g)?.length ?? 0).toBe(2);
    expect(atBob.call.getState().warnings.every((w) => w.includes(alice.options.username))).toBe(
      true,
    );
    // The window says alice's frames are refused, and that she is muted.
    const state = await nextProbe(atBob);
    const alicePeer = state.peers.find((peer) => peer.nodeId === alice.nodeId)!;
    expect(alicePeer.sendsClear).toBe(false);
    expect(alicePeer.refusedFrames).toBeGreaterThanOrEqual(20);

    // mallory's own (real, signed) statement was honoured: her clear frames play at bob, under
    // her word only.
    const malloryClear = await atMallory.send(bob.nodeId, opus(7));
    expect(malloryClear?.[0]).toBe(0);
    await atBob.receive(mallory.nodeId, malloryClear!);
    expect(atBob.played(mallory.nodeId).at(-1)).toEqual(opus(7));
    expect(
      (await nextProbe(atBob)).peers.find((peer) => peer.nodeId === mallory.nodeId)?.sendsClear,
    ).toBe(true);

    // alice's sealed audio still plays.
    await encryptedAudioFlows(atAlice, atBob, 2);
  });

  it("cannot replay alice's signed 'off' from an earlier call, nor after she turned encryption on again", async () => {
    const { relay, alice, bob, atAlice, atBob } = await callWithRelay();
    await encryptedAudioFlows(atAlice, atBob, 1);
    // Once bob's frame key reached alice she knows his call id, and her statements name it.
    await encryptedAudioFlows(atBob, atAlice, 1);
    atAlice.call.setEncryption(false);
    await bob.waitFor(
      () =>
        atBob.call.getState().peers.find((peer) => peer.nodeId === alice.nodeId)?.sendsClear ===
        true,
    );
    const aliceOff = relayedStatus(relay).find(
      (item) =>
        item.frame.fromParticipant === alice.nodeId &&
        Object.hasOwn((item.frame.proof as { to: object }).to, bob.nodeId),
    )!.frame;
    // Honest "off": alice's clear frames play at bob, by her signed word.
    const clear = await atAlice.send(bob.nodeId, opus(3));
    expect(clear?.[0]).toBe(0);
    await atBob.receive(alice.nodeId, clear!);
    expect(atBob.played(alice.nodeId).at(-1)).toEqual(opus(3));

    // alice turns encryption on again; the relay replays her "off": refused as a replay.
    atAlice.call.setEncryption(true);
    await bob.waitFor(
      () =>
        atBob.call.getState().peers.find((peer) => peer.nodeId === alice.nodeId)?.sendsClear ===
        false,
      10_000,
    );
    const bobLink = relay.links.find((link) => link.nodeId === bob.nodeId)!;
    bobLink.injectToClient(aliceOff);
    await bob.waitFor(() =>
      atBob.call.getState().warnings.some((w) => w.includes('replay of an earlier one')),
    );
    const before = atBob.played(alice.nodeId).length;
    await atBob.receive(alice.nodeId, clearVoiceFrame(opus(4)));
    expect(atBob.played(alice.nodeId).length).toBe(before);

    // Both hang up and call again: bob's new call has a new call id; the old "off" names the old.
    atBob.close();
    atAlice.close();
    await bob.waitFor(() =>
      relay.captured.some(
        (item) =>
          item.direction === 'to-client' &&
          item.frame.type === 'voice_call_participants' &&
          Array.isArray(item.frame.participants) &&
          item.frame.participants.length === 1,
      ),
    );
    const again = await NodeCall.start(bob);
    const aliceAgain = await NodeCall.start(alice);
    calls.push(again, aliceAgain);
    await encryptedAudioFlows(aliceAgain, again, 5);
    bobLink.injectToClient(aliceOff);
    await bob.waitFor(() =>
      again.call.getState().warnings.some((w) => w.includes('made for another call')),
    );
    for (let n = 0; n < 5; n++) await again.receive(alice.nodeId, clearVoiceFrame(opus(200 + n)));
    // Only alice's one sealed frame played in the new call.
    expect(again.played(alice.nodeId)).toEqual([opus(5)]);
  });
});
