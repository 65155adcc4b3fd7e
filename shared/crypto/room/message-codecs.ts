/**
 * The six envelope types, each as a sealer and an opener around one standard construction.
 * `messageKey` is messageKeyᵢ of the sender's ratchet (ratchet.ts); `aad` is the message AAD
 * (message-envelope.ts). Random draws happen in the order written, which the known-answer
 * vectors rely on.
 *
 * ```
 * PFS-ECDH     key = HKDF(messageKeyᵢ, info "…/message/PFS-ECDH", 32)
 *              iv (12) ; ct = AES-256-GCM(key, iv, text, aad)
 * E2EE-AES     key = HKDF(messageKeyᵢ, info "…/message/E2EE-AES" ‖ u32be(i), 32) ; then as PFS-ECDH
 * quantum      key = HKDF(messageKeyᵢ ‖ SKq, info "…/message/quantum" ‖ u32be(i), 32)
 *                                                                        ; then as PFS-ECDH
 * AES-256-GCM  cek (32, random) ; iv (12) ; ct = AES-256-GCM(cek, iv, text, aad)
 *              kek = HKDF(messageKeyᵢ, info "…/message/AES-256-GCM/kek", 32)
 *              wiv (12) ; wk = AES-256-GCM(kek, wiv, cek, aad)            (SP 800-38F-style wrap)
 * AES-256-CBC  encKey ‖ macKey = HKDF(messageKeyᵢ, info "…/message/AES-256-CBC", 64)
 *              iv (16) ; ct, tag = AES-256-CBC + HMAC-SHA-256 (aes-cbc-hmac.ts)
 * RSA-OAEP     cek (32, random) ; iv (12) ; ct = AES-256-GCM(cek, iv, text, aad)
 *              rk[nodeId] = RSA-OAEP-SHA-256(pubₙₒ𝒹ₑ, cek, label = aad)   for every reader
 * ```
 *
 * Every type but RSA-OAEP takes its key from messageKeyᵢ (issue 14): a member who joined at
 * iteration j holds the chain from chainKeyⱼ on, never SKc or an earlier chain key, so nothing
 * sealed before j opens for them — not even under the types that once derived from SKc per
 * epoch. `quantum` mixes SKq in, so its messages also need the key that travels only in the
 * ML-KEM-768 hybrid wrap. RSA-OAEP wraps a fresh key to the members present when it is sent.
 */
import { type RandomBytesSource, bytesToBase64, concatBytes } from '../bytes.js';
import { AES_256_KEY_BYTES, aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from './aes-gcm.js';
import {
  aesCbcHmacDecrypt,
  aesCbcHmacEncrypt,
  CBC_HMAC_KEY_BYTES,
  CBC_IV_BYTES,
} from './aes-cbc-hmac.js';
import { hkdf, iterationInfo, KDF_LABELS, labelInfo, wipe, type KdfLabel } from './kdf.js';
import {
  requireDecryptKey,
  requireEncryptKey,
  type DecryptContext,
  type EncryptContext,
} from './message-context.js';
import type { EnvelopeEncryptionType, MessageEnvelope } from './message-envelope.js';
import { DecryptError } from './room-crypto-error.js';
import { assertIdentifier, decodeBase64Field, NodeIdSchema } from './room-wire.js';
import { RSA_OAEP_CIPHERTEXT_BYTES, rsaOaepDecrypt, rsaOaepEncrypt } from './rsa-oaep.js';

/** What a sealer gets. */
export interface SealInput {
  plaintext: Uint8Array;
  aad: Uint8Array;
  /** messageKeyᵢ; the caller wipes it. */
  messageKey: Uint8Array;
  header: { v: 1; k: string; i: number };
  context: EncryptContext;
  random: RandomBytesSource;
}

/** What an opener gets. */
export interface OpenInput {
  aad: Uint8Array;
  /** messageKeyᵢ for the types that use the ratchet, else `null`. */
  messageKey: Uint8Array | null;
  context: DecryptContext;
}

/** One envelope type. */
export interface MessageCodec {
  /** True when the type's key comes from the ratchet (the reader must hold the chain). */
  usesMessageKey: boolean;
  /** Throws `KEYS_NOT_INITIALIZED` (before any ratchet step) when a needed key is missing. */
  checkEncryptKeys(context: EncryptContext): void;
  /** Throws `KEYS_NOT_INITIALIZED` when a needed key is missing. */
  checkDecryptKeys(context: DecryptContext): void;
  seal(input: SealInput): Promise<MessageEnvelope>;
  open(envelope: MessageEnvelope, input: OpenInput): Promise<Uint8Array>;
}

type EnvelopeOf<T extends EnvelopeEncryptionType> = Extract<MessageEnvelope, { t: T }>;

function expectType<T extends EnvelopeEncryptionType>(
  envelope: MessageEnvelope,
  type: T,
): EnvelopeOf<T> {
  if (envelope.t !== type) throw new DecryptError('MALFORMED');
  // Safe: the line above proved the discriminant, which is all Extract selects on.
  return envelope as EnvelopeOf<T>;
}

/** Seals text under a 32-byte key: the IV and GCM output as base64. */
async function sealGcm(key: Uint8Array, input: SealInput) {
  const iv = input.random(GCM_IV_BYTES);
  const sealed = await aesGcmEncrypt(key, iv, input.plaintext, input.aad);
  return { iv: bytesToBase64(iv), ct: bytesToBase64(sealed) };
}

async function openGcm(key: Uint8Array, envelope: MessageEnvelope, aad: Uint8Array) {
  const iv = decodeBase64Field(envelope.iv, GCM_IV_BYTES);
  return aesGcmDecrypt(key, iv, decodeBase64Field(envelope.ct), aad);
}

/**
 * A type whose key is HKDF of the ratchet's messageKeyᵢ, optionally with an epoch secret mixed
 * into the input keying material (`quantum`: messageKeyᵢ ‖ SKq).
 */
function derivedKeyCodec(
  type: 'PFS-ECDH' | 'E2EE-AES' | 'quantum',
  label: KdfLabel,
  options: {
    perIteration: boolean;
    mixIn?: {
      encrypt: (c: EncryptContext) => Uint8Array | null;
      decrypt: (c: DecryptContext) => Uint8Array | null;
    };
  },
): MessageCodec {
  const { mixIn } = options;
  const deriveKey = (messageKey: Uint8Array, extra: Uint8Array | null, iteration: number) => {
    const input = extra ? concatBytes(messageKey, extra) : messageKey;
    try {
      const info = options.perIteration ? iterationInfo(label, iteration) : labelInfo(label);
      return hkdf(input, null, info, 32);
    } finally {
      if (extra) wipe(input);
    }
  };
  return {
    usesMessageKey: true,
    checkEncryptKeys: (context) => void (mixIn && requireEncryptKey(mixIn.encrypt(context))),
    checkDecryptKeys: (context) => void (mixIn && requireDecryptKey(mixIn.decrypt(context))),
    async seal(input) {
      const extra = mixIn ? requireEncryptKey(mixIn.encrypt(input.context)) : null;
      const key = deriveKey(input.messageKey, extra, input.header.i);
      const body = await sealGcm(key, input).finally(() => wipe(key));
      return { ...input.header, t: type, ...body };
    },
    async open(envelope, input) {
      const extra = mixIn ? requireDecryptKey(mixIn.decrypt(input.context)) : null;
      const messageKey = requireDecryptKey(input.messageKey);
      const key = deriveKey(messageKey, extra, expectType(envelope, type).i);
      return openGcm(key, envelope, input.aad).finally(() => wipe(key));
    },
  };
}

const aesGcmCodec: MessageCodec = {
  usesMessageKey: true,
  checkEncryptKeys: () => undefined,
  checkDecryptKeys: () => undefined,
  async seal(input) {
    const kek = hkdf(input.messageKey, null, labelInfo(KDF_LABELS.aesGcmKek), 32);
    const contentKey = input.random(AES_256_KEY_BYTES);
    try {
      const body = await sealGcm(contentKey, input);
      const wrapIv = input.random(GCM_IV_BYTES);
      const wrapped = await aesGcmEncrypt(kek, wrapIv, contentKey, input.aad);
      return {
        ...input.header,
        t: 'AES-256-GCM',
        ...body,
        wiv: bytesToBase64(wrapIv),
        wk: bytesToBase64(wrapped),
      };
    } finally {
      wipe(kek, contentKey);
    }
  },
  async open(envelope, input) {
    const { wiv, wk } = expectType(envelope, 'AES-256-GCM');
    const kek = hkdf(
      requireDecryptKey(input.messageKey),
      null,
      labelInfo(KDF_LABELS.aesGcmKek),
      32,
    );
    const contentKey = await aesGcmDecrypt(
      kek,
      decodeBase64Field(wiv, GCM_IV_BYTES),
      decodeBase64Field(wk),
      input.aad,
    ).finally(() => wipe(kek));
    if (contentKey.length !== AES_256_KEY_BYTES) throw new DecryptError('MALFORMED');
    return openGcm(contentKey, envelope, input.aad).finally(() => wipe(contentKey));
  },
};

const aesCbcCodec: MessageCodec = {
  usesMessageKey: true,
  checkEncryptKeys: () => undefined,
  checkDecryptKeys: () => undefined,
  async seal(input) {
    const keys = hkdf(input.messageKey, null, labelInfo(KDF_LABELS.aesCbc), CBC_HMAC_KEY_BYTES);
    const iv = input.random(CBC_IV_BYTES);
    const { ciphertext, tag } = await aesCbcHmacEncrypt(
      keys,
      iv,
      input.plaintext,
      input.aad,
    ).finally(() => wipe(keys));
    return {
      ...input.header,
      t: 'AES-256-CBC',
      iv: bytesToBase64(iv),
      ct: bytesToBase64(ciphertext),
      tag: bytesToBase64(tag),
    };
  },
  async open(envelope, input) {
    const { iv, ct, tag } = expectType(envelope, 'AES-256-CBC');
    const keys = hkdf(
      requireDecryptKey(input.messageKey),
      null,
      labelInfo(KDF_LABELS.aesCbc),
      CBC_HMAC_KEY_BYTES,
    );
    const sealed = { ciphertext: decodeBase64Field(ct), tag: decodeBase64Field(tag) };
    return aesCbcHmacDecrypt(keys, decodeBase64Field(iv, CBC_IV_BYTES), sealed, input.aad).finally(
      () => wipe(keys),
    );
  },
};

const rsaOaepCodec: MessageCodec = {
  usesMessageKey: false,
  checkEncryptKeys(context) {
    const recipients = requireEncryptKey(context.rsaRecipients);
    if (recipients.size === 0) requireEncryptKey(null);
  },
  checkDecryptKeys: (context) => void requireDecryptKey(context.rsa),
  async seal(input) {
    const recipients = [...requireEncryptKey(input.context.rsaRecipients)];
    for (const [nodeId] of recipients) assertIdentifier(NodeIdSchema, nodeId, 'recipient node id');
    const contentKey = input.random(AES_256_KEY_BYTES);
    try {
      const body = await sealGcm(contentKey, input);
      const wrapped = await Promise.all(
        recipients.map(async ([nodeId, publicKey]) => {
          const wrappedKey = await rsaOaepEncrypt(publicKey, contentKey, input.aad);
          return [nodeId, bytesToBase64(wrappedKey)] as const;
        }),
      );
      return { ...input.header, t: 'RSA-OAEP', ...body, rk: Object.fromEntries(wrapped) };
    } finally {
      wipe(contentKey);
    }
  },
  async open(envelope, input) {
    const { rk } = expectType(envelope, 'RSA-OAEP');
    const reader = requireDecryptKey(input.context.rsa);
    const entry = Object.hasOwn(rk, reader.nodeId) ? rk[reader.nodeId] : undefined;
    if (entry === undefined) throw new DecryptError('NOT_A_RECIPIENT');
    const wrappedKey = decodeBase64Field(entry, RSA_OAEP_CIPHERTEXT_BYTES);
    const contentKey = await rsaOaepDecrypt(reader.privateKey, wrappedKey, input.aad);
    if (contentKey.length !== AES_256_KEY_BYTES) throw new DecryptError('MALFORMED');
    return openGcm(contentKey, envelope, input.aad).finally(() => wipe(contentKey));
  },
};

/** The codec of each envelope type. */
export const MESSAGE_CODECS: Readonly<Record<EnvelopeEncryptionType, MessageCodec>> = {
  'PFS-ECDH': derivedKeyCodec('PFS-ECDH', KDF_LABELS.pfsEcdh, { perIteration: false }),
  'E2EE-AES': derivedKeyCodec('E2EE-AES', KDF_LABELS.e2eeAes, { perIteration: true }),
  quantum: derivedKeyCodec('quantum', KDF_LABELS.quantum, {
    perIteration: true,
    mixIn: {
      encrypt: (context) => context.quantumKey,
      decrypt: (context) => context.quantumKey,
    },
  }),
  'AES-256-GCM': aesGcmCodec,
  'AES-256-CBC': aesCbcCodec,
  'RSA-OAEP': rsaOaepCodec,
};
