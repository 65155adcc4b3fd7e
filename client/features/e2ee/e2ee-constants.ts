/**
 * Timings and names of room end-to-end encryption in the browser. The spec's own numbers
 * (rotation periods, grace periods) live in shared/constants.ts; these are the ones it leaves
 * open, each with the reason for its value (docs/crypto-room.md, "In the browser").
 */

/**
 * How long a send waits for this browser's keys before it gives up (the input shows
 * "Waiting for key agreement" meanwhile). Key generation takes well under a second; five seconds
 * means something failed, and only then does a text fall back to the flagged PLAINTEXT type.
 */
export const KEY_AGREEMENT_WAIT_MS = 5000;

/**
 * How long a received message waits for its sender's keys (bundle and sender key) before it is
 * shown as `[ENCRYPTED: type]`. Sender keys follow a newcomer's bundle within a round trip.
 */
export const SENDER_KEY_WAIT_MS = 10_000;

/** How often the browser checks whether a key is due for rotation or past its grace period. */
export const KEY_MAINTENANCE_INTERVAL_MS = 10_000;

/**
 * A newcomer's copy of a sender chain starts this many iterations before the sender's current
 * one, so the room's recent history (at most 500 messages that expire after 30 s) stays readable
 * without walking thousands of steps. Earlier chain messages show as `[PFS-EXPIRED: …]`.
 */
export const RECEIVER_CHAIN_HISTORY = 200;

/** Crypto log entries kept on screen; older ones are dropped. */
export const CRYPTO_LOG_LIMIT = 200;

/** localStorage key of the trust-on-first-use identity pins: keyId → fingerprint. */
export const IDENTITY_PINS_STORAGE_KEY = 'securechannel_identity_pins';

/** The HKDF `info` label that mixes server entropy into local randomness. */
export const ENTROPY_MIX_LABEL = 'securechannel/v1/browser/entropy-mix';

/** What a member's bundle signature covers besides the bundle: the product and version. */
export const BUNDLE_SIGNATURE_CONTEXT = 'securechannel/v1/room-key-bundle';

/** What a message signature covers besides the message fields. */
export const MESSAGE_SIGNATURE_CONTEXT = 'securechannel/v1/room-message';

/** The HKDF `info` of the PFS exchange's key confirmation (server/features/security/pfs-keys.ts). */
export const PFS_CONFIRM_LABEL = 'securechannel/v1/pfs/confirm';
