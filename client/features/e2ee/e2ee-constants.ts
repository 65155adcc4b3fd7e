/**
 * Timings and names of room end-to-end encryption in the browser. The spec's own numbers
 * (rotation periods, grace periods) live in shared/constants.ts; these are the ones it leaves
 * open, each with the reason for its value (docs/crypto-room.md, "In the browser").
 */

/**
 * How long reading a message waits for this browser to be in the message's room (room_joined
 * and the key manager's join cross on the socket). Sending never times out: a message that
 * cannot be encrypted waits, shown as pending, until the keys are there or the user confirms
 * that it may leave in clear (issue 14: no silent downgrade).
 */
export const ROOM_JOIN_WAIT_MS = 5000;

/**
 * How long a received message waits for its sender's keys (bundle and sender key) before it is
 * shown as `[ENCRYPTED: type]`. Sender keys follow a newcomer's bundle within a round trip.
 */
export const SENDER_KEY_WAIT_MS = 10_000;

/** How often the browser checks whether a key is due for rotation or past its grace period. */
export const KEY_MAINTENANCE_INTERVAL_MS = 10_000;

/** Crypto log entries kept on screen; older ones are dropped. */
export const CRYPTO_LOG_LIMIT = 200;

/** localStorage key of the trust-on-first-use identity pins: keyId → fingerprint. */
export const IDENTITY_PINS_STORAGE_KEY = 'securechannel_identity_pins';

/** The HKDF `info` label that mixes server entropy into local randomness. */
export const ENTROPY_MIX_LABEL = 'securechannel/v1/browser/entropy-mix';

/** What a member's bundle signature covers besides the bundle: the product and version. */
export const BUNDLE_SIGNATURE_CONTEXT = 'securechannel/v1/room-key-bundle';

/** What a message signature covers besides the message fields. */
export const MESSAGE_SIGNATURE_CONTEXT = 'securechannel/v2/room-message';

/** The HKDF `info` of the PFS exchange's key confirmation (server/features/security/pfs-keys.ts). */
export const PFS_CONFIRM_LABEL = 'securechannel/v1/pfs/confirm';

/**
 * How far a message's signed time may lie outside its lifetime before it counts as replayed:
 * browsers' clocks disagree with the server's by seconds, sometimes by minutes.
 */
export const MESSAGE_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * A member's bundle may change its session keys (which makes this browser hand its sender keys
 * over again) at most this many times per KEY_REANNOUNCE_WINDOW_MS; further changes are ignored,
 * so a member whose bundle churns cannot keep the key outbox busy (issue 14).
 */
export const KEY_REANNOUNCE_LIMIT = 3;
export const KEY_REANNOUNCE_WINDOW_MS = 60_000;

/**
 * How long a locked room's sender keys wait for the relay's member list to confirm a registry-
 * verified key holder's session, before they go with the unverified-member warning instead.
 */
export const ROSTER_WAIT_MS = 3_000;
