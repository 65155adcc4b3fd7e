/**
 * The buyer's side of a key purchase for tests (issue 32): the key is made here with the code the
 * buyer's browser uses (shared/crypto/purchase-key.ts), and only its public part and the proof of
 * possession are sent. The key file stays with the caller.
 */
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { makePurchaseKey, purchaseKeyProof } from '../../shared/crypto/purchase-key.js';
import type { TierId } from '../../shared/protocol/http/payments.js';

export { makePurchaseKey as makeBuyerKey, purchaseKeyProof as purchaseKeyBody };

let buyers = 0;

/** A username no other test buyer of this process uses. */
export function buyerName(prefix = 'buyer'): string {
  buyers += 1;
  return `${prefix}-${process.pid}-${buyers}-${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Makes the buyer's key for a payment and sends its public part with the proof; throws unless
 * the server accepts it. Answers the key file (private keys included), which never left here.
 */
export async function submitBuyerKey(
  baseUrl: string,
  payment: { paymentId: string; keyChallenge: string; username: string; tier: TierId },
  now?: Date,
): Promise<KeyFile> {
  const keyFile = await makePurchaseKey(payment.username, payment.tier, now);
  const response = await fetch(`${baseUrl}/api/crypto/purchase-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await purchaseKeyProof(payment.paymentId, keyFile, payment.keyChallenge)),
  });
  if (!response.ok) throw new Error(`purchase-key: ${response.status} ${await response.text()}`);
  return keyFile;
}
