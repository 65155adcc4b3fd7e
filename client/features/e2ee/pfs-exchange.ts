/**
 * The browser's side of `POST /api/pfs/exchange` (spec 000 §3 "PFS exchange", §7): an ephemeral
 * ECDH P-256 key pair, the server's key of the current 30-minute period, and the key confirmation
 * the server returns, checked here:
 *
 * ```
 * Z            = ECDH-P256(client private, server public)                          32 bytes
 * confirmKey   = HKDF-SHA-256(Z, salt = none, info = "securechannel/v1/pfs/confirm", 32)
 * confirmation = HMAC-SHA-256(confirmKey, UTF-8(clientKeyId))                       base64
 * ```
 *
 * A matching confirmation proves the server derived the same secret: a live key exchange with
 * the server key `serverKeyId`, the "forward-secrecy key (keyId)" of the security state. The
 * server holds its private key, so this secret protects nothing from the server; room content is
 * protected by the members' own keys (docs/crypto-room.md). Only public values are sent.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  base64ToBytes,
  bytesToBase64,
  constantTimeEqual,
  toHex,
  utf8Encode,
} from '../../../shared/crypto/bytes.js';
import { deriveEcdhSecret, generateEcdhKeyPair, wipe } from '../../../shared/crypto/room/index.js';
import { randomBytes } from '../../../shared/ids.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { PfsExchangeResponseSchema } from '../../../shared/protocol/http/security.js';
import { PFS_CONFIRM_LABEL } from './e2ee-constants.js';

/** The spec's 'PFS key exchange failed', with the cause kept. */
export class PfsExchangeError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(TEXT.pfsKeyExchangeFailed, options);
    this.name = 'PfsExchangeError';
  }
}

export interface PfsKey {
  keyId: string;
  expiresAt: string;
}

/** Performs one exchange and checks its confirmation. @throws PfsExchangeError. */
export async function exchangePfsKey(
  fetcher: typeof fetch = globalThis.fetch.bind(globalThis),
): Promise<PfsKey> {
  try {
    const pair = await generateEcdhKeyPair();
    const clientKeyId = `pfs-client-${toHex(randomBytes(8))}`;
    const response = await fetcher('/api/pfs/exchange', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ clientPublicKey: bytesToBase64(pair.publicKey), clientKeyId }),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const answer = PfsExchangeResponseSchema.parse(await response.json());
    const secret = await deriveEcdhSecret(pair.privateKey, base64ToBytes(answer.serverPublicKey));
    const confirmKey = hkdf(sha256, secret, undefined, utf8Encode(PFS_CONFIRM_LABEL), 32);
    const expected = hmac(sha256, confirmKey, utf8Encode(clientKeyId));
    wipe(secret, confirmKey);
    if (!constantTimeEqual(expected, base64ToBytes(answer.confirmation))) {
      throw new Error('key confirmation mismatch');
    }
    return { keyId: answer.serverKeyId, expiresAt: answer.expiresAt };
  } catch (error) {
    throw error instanceof PfsExchangeError ? error : new PfsExchangeError({ cause: error });
  }
}
