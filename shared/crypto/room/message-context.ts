/**
 * What encrypting and decrypting a room message needs to know. Keys a type does not use may be
 * `null`; a type whose key is `null` fails with `Keys not initialized. Call
 * initializeKeyExchange first` (spec 000 §8).
 *
 * Sender keys: each sender draws per epoch (30 min, spec 000 §9) two 32-byte keys, SKc
 * (classic: handed to members with the classic or hybrid pairwise wrap) and SKq (post-quantum:
 * handed over only with the hybrid wrap), names the epoch with a sender key id, and seeds a
 * {@link SenderChain} from SKc. Every reader holds SKc, SKq and a {@link ReceiverChain} per sender.
 */
import { type RandomBytesSource } from '../bytes.js';
import type { ReceiverChain, SenderChain } from './ratchet.js';
import { DecryptError, EncryptError } from './room-crypto-error.js';
import type { WebCryptoKey } from './webcrypto.js';

/** Where a message is and who sent it: bound into every AAD. */
export interface MessageBinding {
  /** The room's id as both sides name it (e.g. its secure id). */
  roomId: string;
  /** The sender's node id; for a reader, the sender the relay names for this message. */
  senderNodeId: string;
}

/** The sender's side. */
export interface EncryptContext extends MessageBinding {
  /**
   * The sender's own chain for the current epoch: it names the sender key id and gives each
   * message its iteration. Needed by every type but `ZK-AES-256`.
   */
  chain: SenderChain | null;
  /** SKc of the chain's epoch: `E2EE-AES` and `AES-256-GCM`. */
  classicKey: Uint8Array | null;
  /** SKq of the chain's epoch: `quantum`. */
  quantumKey: Uint8Array | null;
  /**
   * `RSA-OAEP`: every reader's RSA-OAEP public key by node id (the sender's own included if it
   * wants to read its message back).
   */
  rsaRecipients: ReadonlyMap<string, WebCryptoKey> | null;
  /** `ZK-AES-256`: the room's key from `deriveZkKey`. */
  zkKey: WebCryptoKey | null;
  /** Source of IVs and content keys; tests inject a seeded one. */
  random?: RandomBytesSource;
}

/** A reader's RSA-OAEP identity. */
export interface RsaReader {
  /** The reader's node id: the key of its entry in the envelope. */
  nodeId: string;
  privateKey: WebCryptoKey;
}

/** A reader's side, for one sender and one epoch (pick them with `readMessageHeader`). */
export interface DecryptContext extends MessageBinding {
  /** The sender key id the keys below belong to. */
  senderKeyId: string | null;
  /**
   * The reader's copy of the sender's chain: required by `PFS-ECDH` and `AES-256-CBC`. When
   * given for the other types too, their iteration is consumed as well, so every message
   * decrypts once (a replay fails with `Forward secrecy: message key expired`).
   */
  chain: ReceiverChain | null;
  /** The sender's SKc: `E2EE-AES` and `AES-256-GCM`. */
  classicKey: Uint8Array | null;
  /** The sender's SKq: `quantum`. */
  quantumKey: Uint8Array | null;
  /** `RSA-OAEP`. */
  rsa: RsaReader | null;
  /** `ZK-AES-256`. */
  zkKey: WebCryptoKey | null;
}

/**
 * `key`, or the spec's "Keys not initialized" error.
 * @throws EncryptError `KEYS_NOT_INITIALIZED` when `key` is null.
 */
export function requireEncryptKey<T>(key: T | null): T {
  if (key === null) throw new EncryptError('KEYS_NOT_INITIALIZED');
  return key;
}

/**
 * `key`, or the spec's "Keys not initialized" error.
 * @throws DecryptError `KEYS_NOT_INITIALIZED` when `key` is null.
 */
export function requireDecryptKey<T>(key: T | null): T {
  if (key === null) throw new DecryptError('KEYS_NOT_INITIALIZED');
  return key;
}
