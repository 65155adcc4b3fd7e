/**
 * Who in this call may be heard without end-to-end frame encryption, and this browser's own word
 * on it (docs/crypto-room.md §15 "Encryption status"; shared/crypto/voice/encryption-status.ts).
 *
 * - Saying: `statement(enabled)` signs an `encryption_status` with this tab's session signing key
 *   for every participant whose call id it knows (from the frame keys they handed over); the call
 *   re-says "off" with every key rotation and to every newcomer, since a receiver lets "off" lapse.
 * - Hearing: `receive(frame)` verifies a relayed `encryption_status` against the sender's signing
 *   keys from its room bundle (the one the room's identity checks and pins judged), this call's
 *   id, and the sender's last statement. Only a verified "off" lets clear frames of that sender
 *   play, until VOICE_STATUS_CLEAR_TTL_MS after it was accepted; everything else is refused with
 *   its reason, for the window to show. A statement from a member whose bundle is not known yet
 *   waits (the latest one per sender) until a frame key from that member shows it is known.
 *
 * Framework-free: tests/unit/voice-encryption-status.test.ts, tests/adversary/.
 */
import {
  signVoiceStatus,
  verifyVoiceStatus,
  VOICE_STATUS_CLEAR_TTL_MS,
  VoiceStatusError,
  type VoiceStatusErrorCode,
} from '../../../shared/crypto/voice/encryption-status.js';
import { type ClientFrame } from '../../../shared/protocol/ws/index.js';
import { type ServerFrameOf } from '../../lib/realtime/chat-socket.js';
import { acceptedSigningKeys, type RoomKeyManager } from '../e2ee/index.js';

/** A call id: 12 random bytes as hex (a recipient's binding in a statement). */
export const CALL_ID_PATTERN = /^[0-9a-f]{24}$/;

/** The room's signing identities, as far as the call's statements need them. */
export interface VoiceStatusKeys {
  /** This tab's room secure id and current signing key, or null before room keys exist. */
  signer(): { roomId: string; secretKey: Uint8Array } | null;
  /**
   * The room secure id and the signing keys a statement from `nodeId` verifies under now; null
   * when its bundle is not known yet; `isBad` when the room judged it forged or substituted.
   */
  signerOf(
    nodeId: string,
  ): { roomId: string; publicKeys: Uint8Array[]; isBad: boolean; isVerified: boolean } | null;
}

/** The statement keys of a RoomKeyManager (the room's E2E identities). */
export function statusKeysOf(
  manager: Pick<RoomKeyManager, 'keys' | 'room' | 'members' | 'now' | 'trustOf'>,
): VoiceStatusKeys {
  return {
    signer: () => {
      const keys = manager.keys;
      const room = manager.room;
      return keys && room ? { roomId: room.secureId, secretKey: keys.signing.secretKey } : null;
    },
    signerOf: (nodeId) => {
      const room = manager.room;
      const member = manager.members.get(nodeId);
      if (!room || !member) return null;
      const trust = manager.trustOf(member);
      return {
        roomId: room.secureId,
        publicKeys: acceptedSigningKeys(member, manager.now),
        isBad: trust === 'bad',
        isVerified: trust === 'verified',
      };
    },
  };
}

export type StatusFrame = ServerFrameOf<'encryption_status'>;

export type StatusVerdict =
  | { status: 'accepted'; nodeId: string; encryptionEnabled: boolean; clearUntil: number | null }
  | { status: 'refused'; nodeId: string; code: VoiceStatusErrorCode | 'BAD_MEMBER'; text: string }
  /** The sender's bundle is not known yet: retried by `retry(nodeId)`. */
  | { status: 'pending'; nodeId: string };

export interface CallEncryptionStatusDeps {
  /** The room id of the call's frames (`roomId` of `encryption_status`). */
  roomId: string;
  selfNodeId: string;
  /** This browser's call id for this call (its frame keys' callKeyId). */
  selfCallId: string;
  keys: VoiceStatusKeys;
  now: () => number;
}

export class CallEncryptionStatus {
  /** Each participant's call id, from the frame keys it handed this browser. */
  readonly #peerCallIds = new Map<string, string>();
  #lastSaidAt = 0;
  /** Per sender, for the whole of this call: the `ts` of its last accepted statement. */
  readonly #lastHeardAt = new Map<string, number>();
  /** Per sender: until when its clear frames may play (a verified "off"). */
  readonly #clearUntil = new Map<string, number>();
  readonly #pending = new Map<string, StatusFrame>();

  constructor(private readonly deps: CallEncryptionStatusDeps) {}

  /** A frame key from `nodeId` named its call id; true when it is new (say "off" again). */
  notePeerCall(nodeId: string, callId: string): boolean {
    if (!CALL_ID_PATTERN.test(callId) || this.#peerCallIds.get(nodeId) === callId) return false;
    this.#peerCallIds.set(nodeId, callId);
    return true;
  }

  /** `nodeId` left the call: its call id and any "off" go; its counter stays (replays). */
  forget(nodeId: string): void {
    this.#peerCallIds.delete(nodeId);
    this.#clearUntil.delete(nodeId);
    this.#pending.delete(nodeId);
  }

  /** The signed `encryption_status` to send, for the participants among `nodeIds`; null without keys. */
  statement(encryptionEnabled: boolean, nodeIds: readonly string[]): ClientFrame | null {
    const signer = this.deps.keys.signer();
    if (!signer) return null;
    const recipients: Record<string, string> = {};
    for (const nodeId of nodeIds) {
      const callId = this.#peerCallIds.get(nodeId);
      if (callId && nodeId !== this.deps.selfNodeId) recipients[nodeId] = callId;
    }
    const sentAt = Math.max(this.deps.now(), this.#lastSaidAt + 1);
    this.#lastSaidAt = sentAt;
    const proof = signVoiceStatus(
      {
        roomId: signer.roomId,
        fromNodeId: this.deps.selfNodeId,
        encryptionEnabled,
        sentAt,
        recipients,
      },
      signer.secretKey,
    );
    return {
      type: 'encryption_status',
      roomId: this.deps.roomId,
      encryptionEnabled,
      timestamp: sentAt,
      proof,
    };
  }

  /** Checks a relayed `encryption_status`; an accepted one changes what plays. */
  receive(frame: StatusFrame): StatusVerdict {
    const nodeId = frame.fromParticipant;
    const signer = this.deps.keys.signerOf(nodeId);
    if (!signer) {
      this.#pending.set(nodeId, frame);
      return { status: 'pending', nodeId };
    }
    this.#pending.delete(nodeId);
    if (signer.isBad)
      return {
        status: 'refused',
        nodeId,
        code: 'BAD_MEMBER',
        text: 'comes from a key bundle that failed its identity check',
      };
    const now = this.deps.now();
    let sentAt: number;
    try {
      sentAt = verifyVoiceStatus(frame.proof, {
        roomId: signer.roomId,
        fromNodeId: nodeId,
        encryptionEnabled: frame.encryptionEnabled,
        selfNodeId: this.deps.selfNodeId,
        selfCallId: this.deps.selfCallId,
        lastSentAt: this.#lastHeardAt.get(nodeId) ?? null,
        now,
        publicKeys: signer.publicKeys,
      });
    } catch (error) {
      if (!(error instanceof VoiceStatusError)) throw error;
      const text = error.message.replace(/^Encryption status /, '');
      return { status: 'refused', nodeId, code: error.code, text };
    }
    this.#lastHeardAt.set(nodeId, sentAt);
    if (frame.encryptionEnabled) this.#clearUntil.delete(nodeId);
    else this.#clearUntil.set(nodeId, now + VOICE_STATUS_CLEAR_TTL_MS);
    return {
      status: 'accepted',
      nodeId,
      encryptionEnabled: frame.encryptionEnabled,
      clearUntil: this.clearUntil(nodeId),
    };
  }

  /** A statement from `nodeId` that waited for its bundle, checked now (null: none waited). */
  retry(nodeId: string): StatusVerdict | null {
    const frame = this.#pending.get(nodeId);
    if (!frame || !this.deps.keys.signerOf(nodeId)) return null;
    return this.receive(frame);
  }

  /** Until when clear frames of `nodeId` may play (ms, this clock), or null: never. */
  clearUntil(nodeId: string): number | null {
    const until = this.#clearUntil.get(nodeId);
    return until !== undefined && until > this.deps.now() ? until : null;
  }
}
