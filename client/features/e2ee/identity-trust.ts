/**
 * Whether a key holder's identity is the one we expect (docs/crypto-room.md, "In the browser"):
 *
 * 1. the key registry: a key holder may ask `GET /api/dm/keys/{keyId}` for the registered
 *    ML-DSA-65 key and fingerprint. Only a registry that answers with the same key confirms an
 *    identity; a different key is a substitution; no answer (404, refused, offline) confirms
 *    nothing — the member stays unverified, never trusted (issue 14);
 * 2. pins: the fingerprint of every registry-confirmed identity is pinned in localStorage
 *    (`securechannel_identity_pins`, keyId → fingerprint); a later, different one is a
 *    substitution. A pin is written only after the registry confirmed the key, so a keyId that
 *    someone claims with a key of their own can never poison the real holder's pin.
 *
 * A reader without registry access (an anonymous visitor) sees at most "unverified (trust on
 * first use)". The registry is the server's word; pins catch a server that changes its story.
 */
import { z } from 'zod';
import { constantTimeEqual, numbersToBytes } from '../../../shared/crypto/bytes.js';
import { FINGERPRINT_PATTERN } from '../../../shared/crypto/fingerprint.js';
import { DmRecipientKeySchema } from '../../../shared/protocol/http/dm.js';
import { IDENTITY_PINS_STORAGE_KEY } from './e2ee-constants.js';

/** keyId → pinned fingerprint. */
export interface IdentityPinStore {
  get(keyId: string): string | null;
  set(keyId: string, fingerprint: string): void;
}

/** A key's registered public identity, as the key registry reports it. */
export interface RegisteredIdentity {
  fingerprint: string;
  dilithiumPublicKey: Uint8Array;
}

/** The key registry; `lookup` answers null when it cannot say (not allowed, not found, offline). */
export interface IdentityRegistry {
  lookup(keyId: string): Promise<RegisteredIdentity | null>;
}

const PinsSchema = z.record(z.string().max(40), z.string().regex(FINGERPRINT_PATTERN));

/** Pins kept in memory, for tests. */
export class MemoryPinStore implements IdentityPinStore {
  readonly pins = new Map<string, string>();
  get(keyId: string): string | null {
    return this.pins.get(keyId) ?? null;
  }
  set(keyId: string, fingerprint: string): void {
    this.pins.set(keyId, fingerprint);
  }
}

/** Pins in localStorage; a missing or malformed value counts as no pins. */
export class LocalStoragePinStore implements IdentityPinStore {
  #read(): Record<string, string> {
    try {
      const raw = window.localStorage.getItem(IDENTITY_PINS_STORAGE_KEY);
      const parsed = PinsSchema.safeParse(raw === null ? {} : JSON.parse(raw));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  get(keyId: string): string | null {
    const pins = this.#read();
    return Object.hasOwn(pins, keyId) ? (pins[keyId] ?? null) : null;
  }

  set(keyId: string, fingerprint: string): void {
    const pins = { ...this.#read(), [keyId]: fingerprint };
    try {
      window.localStorage.setItem(IDENTITY_PINS_STORAGE_KEY, JSON.stringify(pins));
    } catch {
      // Storage refused: the pin lasts as long as nothing asks again; the registry still checks.
    }
  }
}

/** The registry behind `GET /api/dm/keys/{keyId}`, called with the key holder's session. */
export function httpIdentityRegistry(
  sessionToken: string,
  fetcher: typeof fetch = globalThis.fetch.bind(globalThis),
): IdentityRegistry {
  return {
    async lookup(keyId) {
      try {
        const response = await fetcher(`/api/dm/keys/${encodeURIComponent(keyId)}`, {
          headers: { accept: 'application/json', authorization: `Bearer ${sessionToken}` },
        });
        if (!response.ok) return null;
        const parsed = DmRecipientKeySchema.safeParse(await response.json());
        if (!parsed.success) return null;
        return {
          fingerprint: parsed.data.fingerprint,
          dilithiumPublicKey: numbersToBytes(parsed.data.dilithiumPublicKey),
        };
      } catch {
        return null;
      }
    },
  };
}

/**
 * - confirmed: the registry answered with this very key (and no pin says otherwise);
 * - unconfirmed: nothing confirms it (no registry access, or no answer): unverified;
 * - substituted: a pin or the registry names another key for this keyId.
 */
export type IdentityTrust =
  | { status: 'confirmed' }
  | { status: 'unconfirmed'; reason: string }
  | { status: 'substituted'; reason: string };

/** The reason shown for a member whose identity no registry confirmed, without registry access. */
export const TRUST_ON_FIRST_USE_REASON = 'unverified (trust on first use)';
/** The reason shown when the registry did not answer for the claimed key. */
export const NOT_REGISTERED_REASON = 'unverified: the key registry does not confirm this key';

/** Checks a bundle's (self-consistent) identity against the pins and the registry. */
export async function checkIdentityTrust(
  identity: { keyId: string; fingerprint: string; dilithiumPublicKey: Uint8Array },
  pins: IdentityPinStore,
  registry: IdentityRegistry | null,
): Promise<IdentityTrust> {
  const pinned = pins.get(identity.keyId);
  if (pinned !== null && pinned !== identity.fingerprint) {
    return { status: 'substituted', reason: 'fingerprint differs from the pinned one' };
  }
  if (!registry) return { status: 'unconfirmed', reason: TRUST_ON_FIRST_USE_REASON };
  const registered = await registry.lookup(identity.keyId);
  if (!registered) return { status: 'unconfirmed', reason: NOT_REGISTERED_REASON };
  const isSameKey =
    registered.fingerprint === identity.fingerprint &&
    registered.dilithiumPublicKey.length === identity.dilithiumPublicKey.length &&
    constantTimeEqual(registered.dilithiumPublicKey, identity.dilithiumPublicKey);
  if (!isSameKey) return { status: 'substituted', reason: 'key differs from the registered one' };
  // Only a registry-confirmed identity is ever pinned.
  if (pinned === null) pins.set(identity.keyId, identity.fingerprint);
  return { status: 'confirmed' };
}
