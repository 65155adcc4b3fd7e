/**
 * The purchased key (issue 32; docs/crypto.md "Purchased keys"): made by the buyer with the same
 * code as an admin-issued key, and proven by both keys' signatures over the payment's challenge.
 * Used by the buyer's browser (client/features/purchase) and by tests acting as a buyer.
 */
import { DEFAULT_KEY_VALIDITY_DAYS } from '../constants.js';
import { TIER_KEY_LEVEL, type PurchaseKeyRequest, type TierId } from '../protocol/http/payments.js';
import { bytesToNumbers } from './bytes.js';
import { createKeyFile, signChallenge } from './key-file.js';
import { publicPart, type KeyFile } from './key-file-schema.js';

/** The key of an order: the chosen name, the tier's level, valid 365 days. */
export function makePurchaseKey(username: string, tier: TierId, now?: Date): Promise<KeyFile> {
  return createKeyFile({
    username,
    level: TIER_KEY_LEVEL[tier],
    validityDays: DEFAULT_KEY_VALIDITY_DAYS,
    now,
  });
}

/** The body of `POST /api/crypto/purchase-key`: the public part and both keys' signatures. */
export async function purchaseKeyProof(
  paymentId: string,
  keyFile: KeyFile,
  challenge: string,
): Promise<PurchaseKeyRequest> {
  const signatures = await signChallenge(keyFile, challenge);
  return {
    paymentId,
    publicKey: publicPart(keyFile),
    dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
    ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
  };
}
