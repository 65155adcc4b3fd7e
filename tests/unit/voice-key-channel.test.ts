/**
 * Voice frame keys through the room's pairwise channel (RoomKeyManager.sendVoiceKey,
 * docs/crypto-room.md "Voice"): they reach the addressee only, inside the hybrid wrap (the relay
 * sees ciphertext), and never go to — nor come from — a member whose bundle is judged bad.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import { identitySignerFromKeyFile } from '../../client/features/e2ee/bundle-identity.js';
import { type VoiceKeyGrant } from '../../client/features/e2ee/sender-key-envelope.js';
import { TestClock, TestRelay, type Member } from './client/e2ee/e2ee-test-kit.js';

function listen(member: Member): { from: string; grant: VoiceKeyGrant }[] {
  const received: { from: string; grant: VoiceKeyGrant }[] = [];
  member.manager.onVoiceKey((from, grant) =>
    received.push({ from, grant: { ...grant, key: grant.key.slice() } }),
  );
  return received;
}

const grant = (fill: number, version = 1): VoiceKeyGrant => ({
  secret: 'voice',
  callKeyId: 'call_0123456789ab',
  version,
  key: new Uint8Array(32).fill(fill),
});

describe('voice frame keys through the pairwise channel', { timeout: 30_000 }, () => {
  let relay: TestRelay;
  afterEach(() => relay?.settle());

  it('hands a frame key to one member, wrapped, and to no one else', async () => {
    relay = new TestRelay(new TestClock());
    const alice = await relay.join('Agent1');
    const bob = await relay.join('Ghost2');
    const carol = await relay.join('Node3');
    const atBob = listen(bob);
    const atCarol = listen(carol);
    const before = relay.senderKeyFrames.length;

    expect(await alice.manager.sendVoiceKey(bob.nodeId, grant(7, 3))).toBe(true);
    await relay.settle();

    expect(atBob).toEqual([{ from: alice.nodeId, grant: grant(7, 3) }]);
    expect(atCarol).toEqual([]);
    const frames = relay.senderKeyFrames.slice(before);
    expect(frames.map((frame) => [frame.from, frame.to])).toEqual([[alice.nodeId, bob.nodeId]]);
    expect(frames[0]!.envelope.kind).toBe('hybrid');
    // What the relay carries holds neither the key nor its base64.
    const wire = JSON.stringify(frames[0]!.envelope);
    expect(wire).not.toContain(Buffer.from(grant(7).key).toString('base64'));
  });

  it('refuses a member it does not know', async () => {
    relay = new TestRelay(new TestClock());
    const alice = await relay.join('Agent1');
    expect(await alice.manager.sendVoiceKey('node_unknown', grant(1))).toBe(false);
  });

  it('withholds frame keys from a forged bundle and ignores the keys it sends', async () => {
    relay = new TestRelay(new TestClock());
    const bob = await relay.join('Ghost2');
    const signer = identitySignerFromKeyFile(await createKeyFile({ username: 'alice' }))!;
    const other = await relay.join('Node9');
    const otherBundle = relay.bundles.get(other.nodeId)!.bundle;
    // The relay swaps alice's ECDH key for one it controls, keeping her identity signature.
    relay.tamper = (_nodeId, bundle) =>
      bundle.identity ? { ...bundle, ecdh: otherBundle.ecdh } : bundle;
    const alice = await relay.join('alice', { identity: signer });
    const atBob = listen(bob);

    expect(await bob.manager.sendVoiceKey(alice.nodeId, grant(2))).toBe(false);
    await alice.manager.sendVoiceKey(bob.nodeId, grant(3));
    await relay.settle();
    expect(atBob).toEqual([]);
  });
});
