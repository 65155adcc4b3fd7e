/**
 * ZK-AES-256 only when every current reader can derive its key (docs/crypto-room.md §8, §13;
 * issue 21 item 6), with the real client classes behind the in-memory relay:
 *
 * - alice and bob typed the locked room's access code: the rotation uses ZK-AES-256;
 * - carol, a key holder, entered with her key file and no code: while she is in the room nobody
 *   picks ZK-AES-256 and she reads every message; once she leaves, ZK-AES-256 comes back;
 * - bob reloads his tab (he rejoins with the room's grant, without typing the code): nothing new is
 *   sent as ZK-AES-256, and the ZK history from before the reload reads as sent before he joined,
 *   never as [ENCRYPTED: ZK-AES-256].
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyFile } from '../../../../shared/crypto/key-file.js';
import { identitySignerFromKeyFile } from '../../../../client/features/e2ee/bundle-identity.js';
import { SENT_BEFORE_JOIN_MARKER } from '../../../../client/lib/message-cipher.js';
import { TestClock, TestRelay, type Member } from './e2ee-test-kit.js';

const ACCESS_CODE = 'orbit-delta-7731';
const ZK = 'ZK-AES-256';

async function sendRound(relay: TestRelay, sender: Member, readers: Member[], label: string) {
  const types: string[] = [];
  for (let index = 0; index < 7; index++) {
    const text = `${label} ${index}`;
    const message = await relay.send(sender, text);
    types.push(message.encryptionType);
    for (const reader of readers) {
      const display = await reader.cipher.decrypt(message);
      expect(display.text).not.toBe(`[ENCRYPTED: ${ZK}]`);
      expect(display).toMatchObject({ state: 'decrypted', text });
    }
  }
  return types;
}

describe('ZK-AES-256 and who can read it', { timeout: 60_000 }, () => {
  let relay: TestRelay;
  afterEach(async () => {
    await relay?.settle();
  });

  it('is chosen only while every member typed the access code', async () => {
    const clock = new TestClock();
    relay = new TestRelay(clock, true);
    const alice = await relay.join('Agent1', { accessCode: ACCESS_CODE });
    const bob = await relay.join('Agent2', { accessCode: ACCESS_CODE });
    expect(await sendRound(relay, alice, [bob], 'code holders')).toContain(ZK);
    expect(alice.manager.getStatus().isZkInRotation).toBe(true);

    const keyFile = await createKeyFile({ username: 'carol' });
    const carol = await relay.join('carol', {
      identity: identitySignerFromKeyFile(keyFile)!,
      isKeyHolder: true,
    });
    const withCarol = [
      ...(await sendRound(relay, alice, [bob, carol], 'carol is here')),
      ...(await sendRound(relay, bob, [alice, carol], 'bob, carol is here')),
    ];
    expect(withCarol).not.toContain(ZK);
    // The details panel tells alice why: ZK-AES-256 is skipped while carol is in.
    expect(alice.manager.getStatus()).toMatchObject({ isZkInRotation: false });
    expect(alice.manager.getStatus().zkFingerprint).toMatch(/^[0-9a-f]{16}$/);

    await relay.leave(carol);
    expect(await sendRound(relay, alice, [bob], 'carol left')).toContain(ZK);
  });

  it('never shows a reloaded tab [ENCRYPTED: ZK-AES-256]', async () => {
    const clock = new TestClock();
    relay = new TestRelay(clock, true);
    const alice = await relay.join('Agent1', { accessCode: ACCESS_CODE });
    const bob = await relay.join('Agent2', { accessCode: ACCESS_CODE });
    const history = [];
    for (let index = 0; index < 7; index++) history.push(await relay.send(alice, `old ${index}`));
    const zkHistory = history.filter((message) => message.encryptionType === ZK);
    expect(zkHistory).toHaveLength(1);

    // The reload: bob's page goes, a new page joins with the grant and no code typed.
    clock.advance(1000);
    await relay.leave(bob);
    const reloaded = await relay.join('Agent2');
    for (const message of zkHistory) {
      const display = await reloaded.cipher.decrypt(message);
      expect(display).toMatchObject({ state: 'error', text: SENT_BEFORE_JOIN_MARKER });
    }
    expect(await sendRound(relay, alice, [reloaded], 'after the reload')).not.toContain(ZK);
  });
});
