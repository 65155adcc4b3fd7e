/**
 * Time-limited TURN credentials in coturn's shared-secret scheme (`use-auth-secret`, the "TURN
 * REST API" draft, draft-uberti-behave-turn-rest-00 §2.2):
 *
 *   username   = `${expiry Unix seconds}:${id}`
 *   credential = base64(HMAC-SHA1(secret, username))
 *
 * coturn recomputes the credential from the username with the same secret and refuses a
 * username whose expiry has passed, so the server stores nothing and the secret never leaves it.
 */
import { createHmac } from 'node:crypto';

export interface TurnCredential {
  username: string;
  credential: string;
  /** Seconds the credential stays valid. */
  ttlSeconds: number;
}

/** The credential coturn expects for `username` under `secret`. */
export function turnPassword(secret: string, username: string): string {
  return createHmac('sha1', secret).update(username).digest('base64');
}

/** A credential for `id` valid `ttlSeconds` from `nowMs`. */
export function issueTurnCredential(
  secret: string,
  id: string,
  ttlSeconds: number,
  nowMs: number,
): TurnCredential {
  const username = `${Math.floor(nowMs / 1000) + ttlSeconds}:${id}`;
  return { username, credential: turnPassword(secret, username), ttlSeconds };
}
