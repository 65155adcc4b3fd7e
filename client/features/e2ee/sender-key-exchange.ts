/**
 * Handing this member's sender keys to another member, and opening what another member handed
 * over (docs/crypto-room.md §5, "In the browser"): the sender chain at its current iteration (a
 * snapshot, never SKc) and SKq, each in its own `sender_key` frame addressed to one member, both
 * in the hybrid wrap (ECDH P-256 + ML-KEM-768), so no sender key rests on ECDH alone (issue 14).
 * A `classic` envelope is refused. Payload buffers are wiped once sealed or read.
 */
import { DecryptError, unwrapHybrid, wipe, wrapHybrid } from '../../../shared/crypto/room/index.js';
import { type RoomMember } from './room-members.js';
import {
  decodeSenderKeyPayload,
  encodeSenderKeyPayload,
  encodeVoiceKeyPayload,
  fromWireEnvelope,
  toWireEnvelope,
  type KeyGrant,
  type SenderKeyWireEnvelope,
  type VoiceKeyGrant,
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

/** The two hybrid envelopes (chain snapshot, SKq) that hand `epoch` to `member` from now on. */
export async function wrapSenderKeys(
  self: ExchangeSelf,
  epoch: OwnEpoch,
  member: RoomMember,
): Promise<SenderKeyWireEnvelope[]> {
  const common = {
    roomId: self.secureId,
    fromNodeId: self.nodeId,
    toNodeId: member.nodeId,
    senderPrivateKey: self.keys.ecdh.privateKey,
    recipientPublicKey: member.ecdhPublicKey,
    recipientKemPublicKey: member.kemPublicKey,
  };
  const snapshot = epoch.chain.snapshot();
  const grant = { senderKeyId: epoch.senderKeyId, iteration: snapshot.iteration };
  const chainPayload = encodeSenderKeyPayload({
    ...grant,
    secret: 'chain',
    key: snapshot.chainKey,
  });
  const quantumPayload = encodeSenderKeyPayload({
    ...grant,
    secret: 'quantum',
    key: epoch.quantumKey,
  });
  try {
    const chain = await wrapHybrid({ ...common, payload: chainPayload });
    const quantum = await wrapHybrid({ ...common, payload: quantumPayload });
    return [toWireEnvelope(chain), toWireEnvelope(quantum)];
  } finally {
    wipe(snapshot.chainKey, chainPayload, quantumPayload);
  }
}

/** The hybrid envelope that hands a voice frame key to one call participant. */
export async function wrapVoiceKey(
  self: ExchangeSelf,
  member: RoomMember,
  grant: VoiceKeyGrant,
): Promise<SenderKeyWireEnvelope> {
  const payload = encodeVoiceKeyPayload(grant);
  try {
    const envelope = await wrapHybrid({
      roomId: self.secureId,
      fromNodeId: self.nodeId,
      toNodeId: member.nodeId,
      senderPrivateKey: self.keys.ecdh.privateKey,
      recipientPublicKey: member.ecdhPublicKey,
      recipientKemPublicKey: member.kemPublicKey,
      payload,
    });
    return toWireEnvelope(envelope);
  } finally {
    wipe(payload);
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
): Promise<KeyGrant> {
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
  // Every sender key travels in the hybrid wrap: an ECDH-only envelope is refused.
  if (envelope.kind !== 'hybrid') throw new DecryptError('MALFORMED');
  const bytes = await unwrapHybrid({
    ...common,
    envelope,
    recipientKemSecretKey: self.keys.kem.secretKey,
  });
  try {
    return decodeSenderKeyPayload(bytes);
  } finally {
    wipe(bytes);
  }
}
