/**
 * Encrypting a room message for the members and reading one from a member, with the keys the
 * RoomKeyManager holds (docs/crypto-room.md §6–§8, "In the browser"):
 *
 * - the type rotates per message with `pickEncryptionType` (ZK-AES-256 only when this tab knows
 *   the access code of a locked room; RSA-OAEP only up to 60 members);
 * - every message is signed with the session's ML-DSA-65 key (message-signature.ts);
 * - a reader waits for its sender's keys for a while (they follow the sender's bundle), then shows
 *   the spec's markers: `[ENCRYPTED: type]`, `[PFS-EXPIRED: id]`, `[PFS-ERROR: id]`, where id is
 *   the sender key id (the epoch) the message names.
 */
import {
  decryptMessage,
  DecryptError,
  encryptMessage,
  EncryptError,
  isMessageEncryptionType,
  pickEncryptionType,
  readMessageHeader,
  type DecryptContext,
  type MessageEncryptionType,
  type WebCryptoKey,
} from '../../../shared/crypto/room/index.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type Message } from '../../../shared/protocol/ws/chat.js';
import {
  encryptedMarker,
  pfsErrorMarker,
  pfsExpiredMarker,
  SENT_BEFORE_JOIN_MARKER,
} from '../../lib/message-cipher.js';
import { describeError } from './e2ee-status.js';
import { checkSignature } from './message-authenticity.js';
import { newMessageId, signMessage, type SignatureState } from './message-signature.js';
import { type JoinedRoom } from './key-agreement-base.js';
import { type RoomKeyManager } from './room-key-manager.js';
import { type SessionKeys } from './session-keys.js';

/** What a `send_message` frame carries for an encrypted message. */
export interface OutgoingCiphertext {
  encryptedContent: string;
  encryptionType: MessageEncryptionType;
  signature: string;
}

export type ReadResult =
  { ok: true; plaintext: string; signature: SignatureState } | { ok: false; marker: string };

/** How many messages this browser remembers having sent (to show its own echo). */
const SENT_MEMORY = 500;

/**
 * Encrypts `plaintext` as the `sequence`-th message of this sender.
 * @throws EncryptError `KEYS_NOT_INITIALIZED` before the room's keys are ready; any failure of
 * the type's construction.
 */
export async function encryptForRoom(
  manager: RoomKeyManager,
  plaintext: string,
  sequence: number,
): Promise<OutgoingCiphertext> {
  const keys = manager.keys;
  const room = manager.room;
  const epoch = manager.ownEpoch;
  if (!manager.isReadyToSend || !keys || !room || !epoch) {
    throw new EncryptError('KEYS_NOT_INITIALIZED');
  }
  const readers = [...manager.members.values()].filter((member) => member.trust !== 'bad');
  const type = pickEncryptionType(sequence, {
    // Only when every reader can derive the key; otherwise the next type of the rotation.
    hasAccessCode: manager.canEveryoneReadZk,
    memberCount: readers.length + 1,
  });
  const rsaRecipients = new Map<string, WebCryptoKey>([[room.nodeId, keys.rsa.publicKey]]);
  for (const reader of readers) rsaRecipients.set(reader.nodeId, reader.rsaPublicKey);
  const encryptedContent = await encryptMessage(type, plaintext, {
    roomId: room.secureId,
    senderNodeId: room.nodeId,
    chain: epoch.chain,
    classicKey: epoch.classicKey,
    quantumKey: epoch.quantumKey,
    rsaRecipients,
    zkKey: room.zk?.key ?? null,
  });
  const signature = signOwnMessage(manager, { keys, room }, type, encryptedContent);
  remember(manager.sentByMe, encryptedContent, plaintext);
  return { encryptedContent, encryptionType: type, signature };
}

/**
 * Signs a message this tab sends, under a fresh message id and the current time, and records it
 * (message-authenticity.ts) so that its echo can be told from a forgery.
 */
function signOwnMessage(
  manager: RoomKeyManager,
  { keys, room }: { keys: SessionKeys; room: JoinedRoom },
  type: string,
  body: string,
): string {
  const messageId = newMessageId(manager.entropy.draw);
  const fields = {
    roomId: room.secureId,
    senderNodeId: room.nodeId,
    encryptionType: type,
    body,
    messageId,
    sentAt: manager.now,
  };
  manager.ledger.recordSent(messageId, body);
  return signMessage(fields, keys.signing.secretKey);
}

/** The signature of a PLAINTEXT message the user confirmed, or null without a signing key yet. */
export function signPlaintext(manager: RoomKeyManager, content: string): string | null {
  const keys = manager.keys;
  const room = manager.room;
  return keys && room ? signOwnMessage(manager, { keys, room }, 'PLAINTEXT', content) : null;
}

function remember(sent: Map<string, string>, ciphertext: string, plaintext: string): void {
  sent.set(ciphertext, plaintext);
  if (sent.size > SENT_MEMORY) sent.delete(sent.keys().next().value ?? '');
}

/** Reads a message of one of the seven types. Call once per message (replays are refused). */
export async function readRoomMessage(
  manager: RoomKeyManager,
  message: Message,
  timings: { joinWaitMs: number; senderKeyWaitMs: number },
): Promise<ReadResult> {
  const waitMs = timings.senderKeyWaitMs;
  const type = message.encryptionType;
  const content = message.encryptedContent ?? '';
  const mine = manager.sentByMe.get(content);
  if (mine !== undefined) {
    return { ok: true, plaintext: mine, signature: checkSignature(manager, message, content) };
  }
  if (!isMessageEncryptionType(type)) return { ok: false, marker: encryptedMarker(type) };
  const isInRoom = () => manager.room?.roomId === message.roomId;
  if (!(await manager.waitFor(isInRoom, timings.joinWaitMs)))
    return { ok: false, marker: encryptedMarker(type) };
  const sender = manager.members.get(message.senderId)?.username ?? message.senderUsername;
  if (type === 'ZK-AES-256') return readZk(manager, message, sender);

  let header: { senderKeyId: string; iteration: number };
  try {
    header = readMessageHeader(content);
  } catch {
    manager.log.error(`Malformed ${type} message from ${sender}`);
    return { ok: false, marker: encryptedMarker(type) };
  }
  const keyId = header.senderKeyId;
  // Every frame that arrived before this message is handled first: a sender's new sender key
  // always precedes its first message under it on the relay, so after this an epoch that is
  // still unknown while a newer one is held can only be an old one.
  await manager.settled();
  const hasKeys = () => keysReady(manager, message.senderId, keyId, type);
  if (!(await manager.waitFor(() => !isInRoom() || hasKeys() !== 'waiting', waitMs))) {
    if (manager.received.hasCurrent(message.senderId)) {
      manager.log.warning(`${TEXT.keyRotationUndecryptable} (${sender}, epoch ${keyId})`);
      return { ok: false, marker: pfsExpiredMarker(keyId) };
    }
    manager.log.error(
      `${TEXT.sharedSecretNotFound}: no sender key from ${sender} for epoch ${keyId}`,
    );
    return { ok: false, marker: encryptedMarker(type) };
  }
  if (!isInRoom()) return { ok: false, marker: encryptedMarker(type) };
  if (manager.received.isExpired(message.senderId, keyId)) {
    manager.log.warning(`${TEXT.sharedSecretExpired} (${sender}, epoch ${keyId})`);
    return { ok: false, marker: pfsExpiredMarker(keyId) };
  }
  if (hasKeys() === 'superseded') {
    if (wasSentBeforeJoin(manager, message)) return sentBeforeJoin(manager, sender);
    manager.log.warning(`${TEXT.keyRotationUndecryptable} (${sender}, epoch ${keyId})`);
    return { ok: false, marker: pfsExpiredMarker(keyId) };
  }
  // The chain this reader was handed starts where the sender stood then: earlier iterations
  // were sent before this member joined, and their keys were never given to it (issue 14).
  const chainStart = manager.received.get(message.senderId, keyId)?.chainStart ?? null;
  if (chainStart !== null && header.iteration < chainStart) {
    return sentBeforeJoin(manager, sender);
  }
  if (hasKeys() === 'gone') {
    manager.log.error(`${TEXT.sharedSecretNotFound}: ${sender} left before their keys arrived`);
    return { ok: false, marker: encryptedMarker(type) };
  }
  return decryptWithEpoch(manager, message, type, keyId, sender);
}

/**
 * ready: the keys this type needs are here (or known to be wiped); gone: the sender left before
 * they came; superseded: the sender's newer epoch is here but not this one (a message from
 * before this browser joined, or from before a rotation it missed); waiting: not yet.
 */
/** True when the relay says the message is older than this browser's join (its history). */
function wasSentBeforeJoin(manager: RoomKeyManager, message: Message): boolean {
  const room = manager.room;
  return room !== null && Date.parse(message.createdAt) < room.joinedAt;
}

function sentBeforeJoin(manager: RoomKeyManager, sender: string): ReadResult {
  manager.log.info(`A message from ${sender} was sent before you joined: its keys are not yours`);
  return { ok: false, marker: SENT_BEFORE_JOIN_MARKER };
}

function keysReady(
  manager: RoomKeyManager,
  senderNodeId: string,
  keyId: string,
  type: MessageEncryptionType,
): 'ready' | 'gone' | 'superseded' | 'waiting' {
  if (manager.received.isExpired(senderNodeId, keyId)) return 'ready';
  if (!manager.members.has(senderNodeId)) {
    return manager.bundlesLoaded && !manager.isPresent(senderNodeId) ? 'gone' : 'waiting';
  }
  if (type === 'RSA-OAEP') return 'ready';
  const epoch = manager.received.get(senderNodeId, keyId);
  if (!epoch) return manager.received.hasCurrent(senderNodeId) ? 'superseded' : 'waiting';
  return epoch.chain && (type !== 'quantum' || epoch.quantumKey) ? 'ready' : 'waiting';
}

async function readZk(
  manager: RoomKeyManager,
  message: Message,
  sender: string,
): Promise<ReadResult> {
  const room = manager.room!;
  if (!room.zk) {
    // Senders pick ZK-AES-256 only while every reader announces the key (docs/crypto-room.md
    // §8), so a message this tab cannot open was sent before it joined (history, a reload).
    if (wasSentBeforeJoin(manager, message)) return sentBeforeJoin(manager, sender);
    manager.log.error(`ZK-AES-256 message from ${sender}: no access code typed in this tab`);
    return { ok: false, marker: encryptedMarker('ZK-AES-256') };
  }
  const content = message.encryptedContent ?? '';
  try {
    const plaintext = await decryptMessage('ZK-AES-256', content, {
      ...emptyContext(room.secureId, message.senderId),
      zkKey: room.zk.key,
    });
    return { ok: true, plaintext, signature: checkSignature(manager, message, content) };
  } catch (error) {
    manager.log.error(`ZK-AES-256 message from ${sender} not decrypted: ${describeError(error)}`);
    return { ok: false, marker: encryptedMarker('ZK-AES-256') };
  }
}

function emptyContext(roomId: string, senderNodeId: string): DecryptContext {
  return {
    roomId,
    senderNodeId,
    senderKeyId: null,
    chain: null,
    classicKey: null,
    quantumKey: null,
    rsa: null,
    zkKey: null,
  };
}

async function decryptWithEpoch(
  manager: RoomKeyManager,
  message: Message,
  type: MessageEncryptionType,
  keyId: string,
  sender: string,
): Promise<ReadResult> {
  const room = manager.room!;
  const keys = manager.keys!;
  const epoch = manager.received.get(message.senderId, keyId);
  const content = message.encryptedContent ?? '';
  try {
    const plaintext = await decryptMessage(type, content, {
      ...emptyContext(room.secureId, message.senderId),
      senderKeyId: keyId,
      chain: epoch?.chain ?? null,
      classicKey: null,
      quantumKey: epoch?.quantumKey ?? null,
      rsa: { nodeId: room.nodeId, privateKey: keys.rsa.privateKey },
    });
    return { ok: true, plaintext, signature: checkSignature(manager, message, content) };
  } catch (error) {
    manager.log.error(`${type} message from ${sender} not decrypted: ${describeError(error)}`);
    if (error instanceof DecryptError) {
      if (error.code === 'KEY_EXPIRED' || error.code === 'KEY_ROTATED') {
        return { ok: false, marker: pfsExpiredMarker(keyId) };
      }
      if (type === 'PFS-ECDH') return { ok: false, marker: pfsErrorMarker(keyId) };
    }
    return { ok: false, marker: encryptedMarker(type) };
  }
}
