/**
 * Room key agreement between browsers (docs/crypto-room.md, "In the browser"), with in-memory
 * members behind an in-memory relay that behaves like the server's: agreement between two and
 * three members over every encryption type, rotation when a member leaves, newcomers, forged and
 * substituted bundles, and the epoch grace period on an injected clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  PFS_GRACE_PERIOD_MS,
  PFS_KEY_ROTATION_MS,
  SIGNATURE_KEY_ROTATION_MS,
} from '../../../../shared/constants.js';
import { createKeyFile } from '../../../../shared/crypto/key-file.js';
import { ENCRYPTION_TYPE_SEQUENCE } from '../../../../shared/crypto/room/index.js';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { identitySignerFromKeyFile } from '../../../../client/features/e2ee/bundle-identity.js';
import { logText, TestClock, TestRelay, type Member } from './e2ee-test-kit.js';

const ACCESS_CODE = 'orbit-delta-7731';

async function keyHolder(username: string) {
  const keyFile = await createKeyFile({ username });
  return { keyFile, signer: identitySignerFromKeyFile(keyFile)! };
}

async function expectReads(
  reader: Member,
  message: Parameters<Member['cipher']['decrypt']>[0],
  text: string,
) {
  const display = await reader.cipher.decrypt(message);
  expect(display).toMatchObject({ state: 'decrypted', text });
  return display;
}

describe('room key agreement between members', { timeout: 30_000 }, () => {
  let relay: TestRelay;
  afterEach(async () => {
    await relay?.settle();
  });

  it('lets two members read each other over all seven types in a room entered with its code', async () => {
    relay = new TestRelay(new TestClock(), true);
    const alice = await relay.join('Agent1', { accessCode: ACCESS_CODE });
    const bob = await relay.join('Agent2', { accessCode: ACCESS_CODE });
    const types = new Set<string>();
    for (let index = 0; index < 7; index++) {
      const text = `message ${index} from alice`;
      const message = await relay.send(alice, text);
      types.add(message.encryptionType);
      expect(message.content).toBe('');
      expect(message.encryptedContent).not.toContain(text);
      const display = await expectReads(bob, message, text);
      expect(display.signature).toBe('unverified');
      // The sender shows its own copy from memory (it cannot re-read a ratchet message).
      await expectReads(alice, message, text);
    }
    expect([...types].sort()).toEqual([...ENCRYPTION_TYPE_SEQUENCE].sort());
    const reply = await relay.send(bob, 'copy that');
    await expectReads(alice, reply, 'copy that');
  }, 30_000);

  it('skips ZK-AES-256 without the access code and still agrees between three members', async () => {
    relay = new TestRelay(new TestClock());
    const members = [
      await relay.join('Agent1'),
      await relay.join('Agent2'),
      await relay.join('Agent3'),
    ];
    for (const sender of members) {
      for (let index = 0; index < 6; index++) {
        const text = `${sender.username} says ${index}`;
        const message = await relay.send(sender, text);
        expect(message.encryptionType).not.toBe('ZK-AES-256');
        for (const reader of members)
          if (reader !== sender) await expectReads(reader, message, text);
      }
    }
  });

  it('rotates on leave so a member who left cannot read what is sent afterwards', async () => {
    relay = new TestRelay(new TestClock());
    const alice = await relay.join('Agent1');
    const bob = await relay.join('Agent2');
    const carol = await relay.join('Agent3');
    const before = await relay.send(alice, 'while carol is here');
    await expectReads(carol, before, 'while carol is here');
    const epochBefore = alice.manager.ownEpoch!.senderKeyId;

    await relay.leave(carol);
    expect(alice.manager.ownEpoch!.senderKeyId).not.toBe(epochBefore);
    expect(logText(alice)).toContain('Sender keys rotated (Agent3 left)');
    // Carol keeps everything she had and eavesdrops on the relay: every type after the leave.
    for (let index = 0; index < 7; index++) {
      const text = `after carol left ${index}`;
      const message = await relay.send(alice, text);
      await expectReads(bob, message, text);
      const overheard = await carol.cipher.decrypt(message);
      expect(overheard.state).toBe('error');
      expect(overheard.text).not.toContain('after carol left');
    }
    expect(relay.senderKeyFrames.filter((frame) => frame.to === carol.nodeId).length).toBe(
      // Each of alice and bob handed carol SKc and SKq once, before she left.
      4,
    );
  });

  it('hands a newcomer the current sender keys of every member', async () => {
    relay = new TestRelay(new TestClock());
    const alice = await relay.join('Agent1');
    const bob = await relay.join('Agent2');
    await relay.send(alice, 'before dave');
    const dave = await relay.join('Agent4');
    expect(dave.manager.getStatus().members.every((member) => member.hasSenderKey)).toBe(true);
    const fromAlice = await relay.send(alice, 'welcome dave');
    const fromBob = await relay.send(bob, 'hello dave');
    await expectReads(dave, fromAlice, 'welcome dave');
    await expectReads(dave, fromBob, 'hello dave');
    const fromDave = await relay.send(dave, 'thanks');
    await expectReads(alice, fromDave, 'thanks');
    await expectReads(bob, fromDave, 'thanks');
    expect(logText(dave)).toMatch(
      /Sender key \(chain from message \d+, hybrid\) of epoch [0-9a-f]{16} received from Agent1/,
    );
  });

  it("verifies a key holder's signed bundle the registry confirms and marks their messages verified", async () => {
    relay = new TestRelay(new TestClock());
    const { signer } = await keyHolder('alice');
    const alice = await relay.join('alice', { identity: signer });
    const bob = await relay.join('Agent2', {
      registry: {
        lookup: async () => ({
          fingerprint: signer.fields.fingerprint,
          dilithiumPublicKey: Buffer.from(signer.fields.dilithiumPublicKey, 'base64'),
        }),
      },
    });
    const status = bob.manager.getStatus().members.find((m) => m.nodeId === alice.nodeId);
    expect(status).toMatchObject({ trust: 'verified', keyId: signer.fields.keyId });
    expect(bob.pins.get(signer.fields.keyId)).toBe(signer.fields.fingerprint);
    const message = await relay.send(alice, 'signed by alice');
    expect((await expectReads(bob, message, 'signed by alice')).signature).toBe('verified');
  });

  it('detects a tampered bundle signature, withholds keys and marks the messages bad', async () => {
    relay = new TestRelay(new TestClock());
    const bob = await relay.join('Agent2');
    const { signer } = await keyHolder('alice');
    const other = await relay.join('Agent9');
    const otherBundle = relay.bundles.get(other.nodeId)!.bundle;
    // The relay swaps alice's ECDH key for one it controls, keeping her identity signature.
    relay.tamper = (_nodeId, bundle) =>
      bundle.identity ? { ...bundle, ecdh: otherBundle.ecdh } : bundle;
    const alice = await relay.join('alice', { identity: signer });

    const seen = bob.manager.getStatus().members.find((m) => m.nodeId === alice.nodeId);
    expect(seen).toMatchObject({ trust: 'bad', trustReason: 'bundle signature does not verify' });
    expect(logText(bob)).toContain(`${TEXT.keySubstitutionDetected}: alice`);
    expect(relay.senderKeyFrames.some((f) => f.from === bob.nodeId && f.to === alice.nodeId)).toBe(
      false,
    );
    // Her envelopes do not open under the substituted key; what bob can read is marked bad.
    expect(logText(bob)).toContain('Sender key from alice rejected');
    for (let index = 0; index < 6; index++) {
      const message = await relay.send(alice, `from alice ${index}`);
      const display = await bob.cipher.decrypt(message);
      if (display.state === 'decrypted') expect(display.signature).toBe('bad');
      else expect(display.text).toMatch(/^\[(ENCRYPTED|PFS-ERROR): /);
    }
  }, 30_000);

  it('detects a substituted identity key against the pin and against the key registry', async () => {
    relay = new TestRelay(new TestClock());
    const { signer } = await keyHolder('alice');
    const impostor = await keyHolder('alice');
    // Bob met alice before: her real fingerprint is pinned under her keyId.
    const bob = await relay.join('Agent2');
    bob.pins.set(signer.fields.keyId, signer.fields.fingerprint);
    const forged = {
      ...impostor.signer,
      fields: { ...impostor.signer.fields, keyId: signer.fields.keyId },
    };
    const mallory = await relay.join('alice', { identity: forged });
    expect(bob.manager.getStatus().members.find((m) => m.nodeId === mallory.nodeId)).toMatchObject({
      trust: 'bad',
      trustReason: 'fingerprint differs from the pinned one',
    });
    const message = await relay.send(mallory, 'trust me');
    expect(await bob.cipher.decrypt(message)).toMatchObject({
      state: 'decrypted',
      signature: 'bad',
    });

    // Carol never met alice, but the registry knows her real key.
    const carol = await relay.join('Agent3', {
      registry: {
        lookup: async (keyId) =>
          keyId === signer.fields.keyId
            ? {
                fingerprint: signer.fields.fingerprint,
                dilithiumPublicKey: Buffer.from(signer.fields.dilithiumPublicKey, 'base64'),
              }
            : null,
      },
    });
    expect(
      carol.manager.getStatus().members.find((m) => m.nodeId === mallory.nodeId),
    ).toMatchObject({
      trust: 'bad',
      trustReason: 'key differs from the registered one',
    });
    expect(carol.pins.get(signer.fields.keyId)).toBeNull();
  });

  it('shows a key holder without a loaded key file as unverified, with the hint', async () => {
    relay = new TestRelay(new TestClock());
    const bob = await relay.join('Agent2');
    const alice = await relay.join('alice');
    await bob.manager.setRoster([
      { nodeId: bob.nodeId, isAuthenticated: false },
      { nodeId: alice.nodeId, isAuthenticated: true },
    ]);
    expect(bob.manager.getStatus().members.find((m) => m.nodeId === alice.nodeId)).toMatchObject({
      trust: 'unverified',
      trustReason: expect.stringContaining('reload'),
    });
  });

  it("learns a window's newcomers from one users_joined (its own entry among them)", async () => {
    relay = new TestRelay(new TestClock());
    const bob = await relay.join('Agent2');
    const alice = await relay.join('alice');
    await bob.manager.setRoster([{ nodeId: bob.nodeId, isAuthenticated: false }]);
    expect(bob.manager.isPresent(alice.nodeId)).toBe(false);
    // The window bob joined in: his own entry beside alice's.
    await bob.manager.handleMembersJoined([
      { nodeId: bob.nodeId, isAuthenticated: false },
      { nodeId: alice.nodeId, isAuthenticated: true },
    ]);
    expect(bob.manager.isPresent(alice.nodeId)).toBe(true);
    expect(bob.manager.getStatus().members.find((m) => m.nodeId === alice.nodeId)).toMatchObject({
      trust: 'unverified',
      trustReason: expect.stringContaining('reload'),
    });
  });
});

describe('rotation on the clock', () => {
  it('keeps a replaced epoch readable for the grace period, then shows PFS-EXPIRED', async () => {
    const clock = new TestClock();
    const relay = new TestRelay(clock);
    const alice = await relay.join('Agent1');
    const bob = await relay.join('Agent2');
    const oldEpoch = alice.manager.ownEpoch!.senderKeyId;
    // Two messages of the old epoch: one read now, two held back by the relay.
    await expectReads(bob, await relay.send(alice, 'old epoch, on time'), 'old epoch, on time');
    const late = await relay.send(alice, 'old epoch, late');
    const tooLate = await relay.send(alice, 'old epoch, too late');

    clock.advance(PFS_KEY_ROTATION_MS);
    await alice.manager.maintain();
    await bob.manager.maintain();
    await relay.settle();
    expect(alice.manager.ownEpoch!.senderKeyId).not.toBe(oldEpoch);
    await expectReads(bob, await relay.send(alice, 'new epoch'), 'new epoch');

    clock.advance(PFS_GRACE_PERIOD_MS - 1000);
    await bob.manager.maintain();
    await expectReads(bob, late, 'old epoch, late');

    clock.advance(1000);
    await bob.manager.maintain();
    expect(await bob.cipher.decrypt(tooLate)).toEqual({
      state: 'error',
      text: `[PFS-EXPIRED: ${oldEpoch}]`,
    });
    expect(logText(bob)).toContain(`Epoch ${oldEpoch} of Agent1 wiped`);
  });

  it('accepts the previous signature key for one rotation period after a re-announce', async () => {
    const clock = new TestClock();
    const relay = new TestRelay(clock);
    const alice = await relay.join('Agent1');
    const bob = await relay.join('Agent2');
    const signedBefore = await relay.send(alice, 'signed with the first key');
    const signedBeforeToo = await relay.send(alice, 'also the first key');

    clock.advance(SIGNATURE_KEY_ROTATION_MS);
    await alice.manager.maintain();
    await relay.settle();
    expect(logText(bob)).toContain('Agent1 rotated their signature key');
    expect((await bob.cipher.decrypt(signedBefore)).signature).toBe('unverified');

    clock.advance(SIGNATURE_KEY_ROTATION_MS);
    expect((await bob.cipher.decrypt(signedBeforeToo)).signature).toBe('bad');
    const fresh = await relay.send(alice, 'signed with the second key');
    expect((await bob.cipher.decrypt(fresh)).signature).toBe('unverified');
  });

  it('reads a message sent before the sender key arrived once it does', async () => {
    const relay = new TestRelay(new TestClock());
    const alice = await relay.join('Agent1');
    relay.holdSenderKeys = true;
    const bob = await relay.join('Agent2');
    const message = await relay.send(alice, 'early bird');
    const pending = bob.cipher.decrypt(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await relay.releaseSenderKeys();
    await expect(pending).resolves.toMatchObject({ state: 'decrypted', text: 'early bird' });
    // Decrypted once, kept by id: asking again gives the same display, not a replay error.
    await expect(bob.cipher.decrypt(message)).resolves.toMatchObject({ text: 'early bird' });
  });

  it('shows [ENCRYPTED: type] when the sender key never comes', async () => {
    const relay = new TestRelay(new TestClock());
    const alice = await relay.join('Agent1');
    relay.holdSenderKeys = true;
    const bob = await relay.join('Agent2');
    const message = await relay.send(alice, 'lost key');
    expect(await bob.cipher.decrypt(message)).toEqual({
      state: 'error',
      text: `[ENCRYPTED: ${message.encryptionType}]`,
    });
    expect(logText(bob)).toContain(TEXT.sharedSecretNotFound);
  });
});
