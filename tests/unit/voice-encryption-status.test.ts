/**
 * The signed `encryption_status` of a voice call (shared/crypto/voice/encryption-status.ts,
 * client/features/voice/call-encryption-status.ts; docs/crypto-room.md §15 "Encryption status"):
 * a statement round-trips; one changed bit, another room, another sender or the other
 * `encryptionEnabled` is a typed BAD_SIGNATURE; one made for another call or another participant
 * is refused, as is an older one (replay) or a stale one; only a verified "off" lets clear frames
 * play, and only until it lapses.
 */
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../../shared/crypto/bytes.js';
import { generateMlDsaKeyPair } from '../../shared/crypto/ml-dsa.js';
import {
  signVoiceStatus,
  verifyVoiceStatus,
  VOICE_STATUS_CLEAR_TTL_MS,
  VOICE_STATUS_MAX_SKEW_MS,
  VoiceStatusError,
  type VoiceStatusCheck,
  type VoiceStatusErrorCode,
  type VoiceStatusFields,
} from '../../shared/crypto/voice/encryption-status.js';
import { EncryptionStatusFrameSchema } from '../../shared/protocol/ws/voice.js';
import {
  CallEncryptionStatus,
  type StatusFrame,
  type VoiceStatusKeys,
} from '../../client/features/voice/call-encryption-status.js';

const ROOM = 'a'.repeat(64);
const T0 = 1_900_000_000_000;
const alice = generateMlDsaKeyPair(new Uint8Array(32).fill(1));
const mallory = generateMlDsaKeyPair(new Uint8Array(32).fill(2));
const BOB_CALL = '0123456789abcdef01234567';
const CAROL_CALL = 'fedcba9876543210fedcba98';

const fields = (patch: Partial<VoiceStatusFields> = {}): VoiceStatusFields => ({
  roomId: ROOM,
  fromNodeId: 'node-alice',
  encryptionEnabled: false,
  sentAt: T0,
  recipients: { 'node-bob': BOB_CALL, 'node-carol': CAROL_CALL },
  ...patch,
});

const atBob = (patch: Partial<VoiceStatusCheck> = {}): VoiceStatusCheck => ({
  roomId: ROOM,
  fromNodeId: 'node-alice',
  encryptionEnabled: false,
  selfNodeId: 'node-bob',
  selfCallId: BOB_CALL,
  lastSentAt: null,
  now: T0 + 500,
  publicKeys: [alice.publicKey],
  ...patch,
});

function refusal(proof: unknown, check: VoiceStatusCheck): VoiceStatusErrorCode {
  try {
    verifyVoiceStatus(proof, check);
  } catch (error) {
    expect(error).toBeInstanceOf(VoiceStatusError);
    return (error as VoiceStatusError).code;
  }
  throw new Error('the statement was accepted');
}

describe('the signed encryption status', () => {
  const proof = signVoiceStatus(fields(), alice.secretKey);

  it('round-trips through the frame schema and verifies for each named recipient', () => {
    const frame = EncryptionStatusFrameSchema.parse(
      JSON.parse(
        JSON.stringify({
          type: 'encryption_status',
          roomId: 'room-1',
          encryptionEnabled: false,
          timestamp: T0,
          proof,
        }),
      ),
    );
    expect(frame.proof).toEqual(proof);
    expect(verifyVoiceStatus(frame.proof, atBob())).toBe(T0);
    expect(
      verifyVoiceStatus(frame.proof, atBob({ selfNodeId: 'node-carol', selfCallId: CAROL_CALL })),
    ).toBe(T0);
    // The previous signing key, within its grace, still verifies.
    expect(
      verifyVoiceStatus(proof, atBob({ publicKeys: [mallory.publicKey, alice.publicKey] })),
    ).toBe(T0);
  });

  it('refuses a statement with one bit changed, with a typed error', () => {
    const signature = base64ToBytes(proof.sig);
    for (const index of [0, 1000, signature.length - 1]) {
      const tampered = Uint8Array.from(signature);
      tampered[index]! ^= 0x01;
      expect(refusal({ ...proof, sig: bytesToBase64(tampered) }, atBob())).toBe('BAD_SIGNATURE');
    }
    expect(refusal({ ...proof, ts: proof.ts + 1 }, atBob())).toBe('BAD_SIGNATURE');
    expect(refusal({ ...proof, to: { ...proof.to, 'node-bob': CAROL_CALL } }, atBob())).toBe(
      'BAD_SIGNATURE',
    );
  });

  it("refuses what the relay changes around it: the flag, the room, the sender's label, the key", () => {
    // The relay flips "encryption on" to "off" (or back): the signature covers the flag.
    const on = signVoiceStatus(fields({ encryptionEnabled: true }), alice.secretKey);
    expect(refusal(on, atBob({ encryptionEnabled: false }))).toBe('BAD_SIGNATURE');
    expect(refusal(proof, atBob({ roomId: 'b'.repeat(64) }))).toBe('BAD_SIGNATURE');
    // mallory's own statement relabelled as alice's, verified under alice's keys.
    const mallorys = signVoiceStatus(fields({ fromNodeId: 'node-mallory' }), mallory.secretKey);
    expect(refusal(mallorys, atBob())).toBe('BAD_SIGNATURE');
    // alice's statement relabelled as mallory's (the relay's `fromParticipant`).
    expect(
      refusal(proof, atBob({ fromNodeId: 'node-mallory', publicKeys: [mallory.publicKey] })),
    ).toBe('BAD_SIGNATURE');
    // A forgery under a key the room never saw for alice.
    const forged = signVoiceStatus(fields(), mallory.secretKey);
    expect(refusal(forged, atBob())).toBe('BAD_SIGNATURE');
  });

  it('refuses a replay from another call or to another participant, and an older statement', () => {
    // bob left and joined again: a new call id; the old statement names the old one.
    expect(refusal(proof, atBob({ selfCallId: 'aaaaaaaaaaaaaaaaaaaaaaaa' }))).toBe(
      'NOT_FOR_THIS_CALL',
    );
    // dave was not named.
    expect(refusal(proof, atBob({ selfNodeId: 'node-dave' }))).toBe('NOT_ADDRESSED');
    // The same statement twice, or an older one after a newer.
    expect(refusal(proof, atBob({ lastSentAt: T0 }))).toBe('REPLAYED');
    expect(refusal(proof, atBob({ lastSentAt: T0 + 5_000 }))).toBe('REPLAYED');
    // Withheld, then released long after.
    expect(refusal(proof, atBob({ now: T0 + VOICE_STATUS_MAX_SKEW_MS + 1 }))).toBe('STALE');
  });

  it('refuses a frame without a proof and a malformed one', () => {
    expect(refusal(undefined, atBob())).toBe('MISSING');
    expect(refusal({ ...proof, v: 2 }, atBob())).toBe('MALFORMED');
    expect(refusal({ ...proof, sig: 'not base64!' }, atBob())).toBe('MALFORMED');
    expect(refusal({ ...proof, extra: 1 }, atBob())).toBe('MALFORMED');
    const many = Object.fromEntries(
      Array.from({ length: 65 }, (_, i) => [`node-${i}`, BOB_CALL] as const),
    );
    expect(refusal({ ...proof, to: many }, atBob())).toBe('MALFORMED');
  });
});

describe('a call’s book of who may be heard in clear', () => {
  function book(clock: { now: number }, known = true) {
    const keys: VoiceStatusKeys = {
      signer: () => ({ roomId: ROOM, secretKey: alice.secretKey }),
      signerOf: (nodeId) =>
        known && nodeId === 'node-alice'
          ? { roomId: ROOM, publicKeys: [alice.publicKey], isBad: false, isVerified: true }
          : null,
    };
    return {
      keys,
      bob: new CallEncryptionStatus({
        roomId: 'room-1',
        selfNodeId: 'node-bob',
        selfCallId: BOB_CALL,
        keys,
        now: () => clock.now,
      }),
    };
  }
  /** alice's side: what her book sends, as the relay delivers it to bob. */
  function said(clock: { now: number }, enabled: boolean): StatusFrame {
    const aliceBook = new CallEncryptionStatus({
      roomId: 'room-1',
      selfNodeId: 'node-alice',
      selfCallId: CAROL_CALL,
      keys: { signer: () => ({ roomId: ROOM, secretKey: alice.secretKey }), signerOf: () => null },
      now: () => clock.now,
    });
    aliceBook.notePeerCall('node-bob', BOB_CALL);
    const frame = aliceBook.statement(enabled, ['node-alice', 'node-bob'])!;
    return { ...(frame as Omit<StatusFrame, 'fromParticipant'>), fromParticipant: 'node-alice' };
  }

  it('lets clear frames play only under a verified "off", until it lapses or "on" comes', () => {
    const clock = { now: T0 };
    const { bob } = book(clock);
    const off = said(clock, false);
    expect((off.proof as { to: object }).to).toEqual({ 'node-bob': BOB_CALL });
    expect(bob.receive(off)).toMatchObject({ status: 'accepted', encryptionEnabled: false });
    expect(bob.clearUntil('node-alice')).toBe(T0 + VOICE_STATUS_CLEAR_TTL_MS);
    clock.now += VOICE_STATUS_CLEAR_TTL_MS;
    expect(bob.clearUntil('node-alice')).toBeNull();

    clock.now += 1;
    expect(bob.receive(said(clock, false)).status).toBe('accepted');
    clock.now += 1;
    expect(bob.receive(said(clock, true))).toMatchObject({ status: 'accepted', clearUntil: null });
    expect(bob.clearUntil('node-alice')).toBeNull();
  });

  it('ignores the relay’s own word, a replay, and a replay after the sender left and came back', () => {
    const clock = { now: T0 };
    const { bob } = book(clock);
    const unsigned: StatusFrame = {
      type: 'encryption_status',
      roomId: 'room-1',
      fromParticipant: 'node-alice',
      encryptionEnabled: false,
      timestamp: T0,
    };
    expect(bob.receive(unsigned)).toMatchObject({ status: 'refused', code: 'MISSING' });
    expect(bob.clearUntil('node-alice')).toBeNull();

    const off = said(clock, false);
    expect(bob.receive(off).status).toBe('accepted');
    clock.now += 1;
    expect(bob.receive(said(clock, true)).status).toBe('accepted');
    // The relay plays the old "off" again, before and after alice left and rejoined the call.
    expect(bob.receive(off)).toMatchObject({ status: 'refused', code: 'REPLAYED' });
    bob.forget('node-alice');
    expect(bob.receive(off)).toMatchObject({ status: 'refused', code: 'REPLAYED' });
    expect(bob.clearUntil('node-alice')).toBeNull();
  });

  it('keeps a statement whose sender is not known yet, and checks it once it is', () => {
    const clock = { now: T0 };
    const known = { value: false };
    const keys: VoiceStatusKeys = {
      signer: () => null,
      signerOf: (nodeId) =>
        known.value && nodeId === 'node-alice'
          ? { roomId: ROOM, publicKeys: [alice.publicKey], isBad: false, isVerified: false }
          : null,
    };
    const bob = new CallEncryptionStatus({
      roomId: 'room-1',
      selfNodeId: 'node-bob',
      selfCallId: BOB_CALL,
      keys,
      now: () => clock.now,
    });
    expect(bob.receive(said(clock, false)).status).toBe('pending');
    expect(bob.retry('node-alice')).toBeNull();
    known.value = true;
    expect(bob.retry('node-alice')).toMatchObject({ status: 'accepted' });
    expect(bob.clearUntil('node-alice')).not.toBeNull();
    // Without room keys nothing is said, rather than an unsigned frame.
    expect(bob.statement(false, ['node-alice'])).toBeNull();
  });

  it('refuses a statement from a bundle the room judged bad, and takes only well-formed call ids', () => {
    const clock = { now: T0 };
    const bob = new CallEncryptionStatus({
      roomId: 'room-1',
      selfNodeId: 'node-bob',
      selfCallId: BOB_CALL,
      keys: {
        signer: () => ({ roomId: ROOM, secretKey: alice.secretKey }),
        signerOf: () => ({
          roomId: ROOM,
          publicKeys: [alice.publicKey],
          isBad: true,
          isVerified: false,
        }),
      },
      now: () => clock.now,
    });
    expect(bob.receive(said(clock, false))).toMatchObject({
      status: 'refused',
      code: 'BAD_MEMBER',
    });
    expect(bob.notePeerCall('node-alice', 'call_0123456789ab')).toBe(false);
    expect(bob.notePeerCall('node-alice', CAROL_CALL)).toBe(true);
    expect(bob.notePeerCall('node-alice', CAROL_CALL)).toBe(false);
  });
});
