/**
 * Handing this member's sender keys to another member, and opening what another member handed
 * over (docs/crypto-room.md §5, "In the browser"): SKc with the classic wrap (ECDH P-256), SKq with
 * the hybrid wrap (ECDH P-256 + ML-KEM-768), each in its own `sender_key` frame addressed to one
 * member. Payload buffers are wiped once sealed or read.
 */
import {
  unwrapClassic,
  unwrapHybrid,
  wipe,
  wrapClassic,
  wrapHybrid,
} from '../../../shared/crypto/room/index.js';
import { type RoomMember } from './room-members.js';
import {
  decodeSenderKeyPayload,
  encodeSenderKeyPayload,
  fromWireEnvelope,
  toWireEnvelope,
  type SenderKeyGrant,
  type SenderKeyWireEnvelope,
} from './sender-key-envelope.js';
import { type OwnEpoch } from './sender-epochs.js';
import { type SessionKeys } from './session-keys.js';

/** Who this browser is in the room. */
export interface ExchangeSelf {
  keys: SessionKeys;
  /** The room's secure id. */
  secureId: string;
  nodeId: string;
}

/** The two envelopes (SKc classic, SKq hybrid) that hand `epoch` to `member`. */
export async function wrapSenderKeys(
  self: ExchangeSelf,
  epoch: OwnEpoch,
  member: RoomMember,
): Promise<SenderKeyWireEnvelope[]> {
  const parties = { roomId: self.secureId, fromNodeId: self.nodeId, toNodeId: member.nodeId };
  const grant = { senderKeyId: epoch.senderKeyId, iteration: epoch.chain.iteration };
  const classicPayload = encodeSenderKeyPayload({ ...grant, key: epoch.classicKey });
  const quantumPayload = encodeSenderKeyPayload({ ...grant, key: epoch.quantumKey });
  try {
    const common = {
      ...parties,
      senderPrivateKey: self.keys.ecdh.privateKey,
      recipientPublicKey: member.ecdhPublicKey,
    };
    const classic = await wrapClassic({ ...common, payload: classicPayload });
    const hybrid = await wrapHybrid({
      ...common,
      payload: quantumPayload,
      recipientKemPublicKey: member.kemPublicKey,
    });
    return [toWireEnvelope(classic), toWireEnvelope(hybrid)];
  } finally {
    wipe(classicPayload, quantumPayload);
  }
}

/**
 * Opens an envelope `member` sent this browser. The caller wipes `grant.key` once stored.
 * @throws DecryptError when the envelope is malformed, not for this member, or forged.
 */
export async function openSenderKey(
  self: ExchangeSelf,
  member: RoomMember,
  wire: SenderKeyWireEnvelope,
): Promise<{ kind: 'classic' | 'hybrid'; grant: SenderKeyGrant }> {
  const envelope = fromWireEnvelope(wire, {
    from: member.nodeId,
    to: self.nodeId,
    roomId: self.secureId,
  });
  const common = {
    roomId: self.secureId,
    fromNodeId: member.nodeId,
    toNodeId: self.nodeId,
    recipientPrivateKey: self.keys.ecdh.privateKey,
    senderPublicKey: member.ecdhPublicKey,
  };
  const bytes =
    envelope.kind === 'hybrid'
      ? await unwrapHybrid({ ...common, envelope, recipientKemSecretKey: self.keys.kem.secretKey })
      : await unwrapClassic({ ...common, envelope });
  try {
    return { kind: envelope.kind, grant: decodeSenderKeyPayload(bytes) };
  } finally {
    wipe(bytes);
  }
}
