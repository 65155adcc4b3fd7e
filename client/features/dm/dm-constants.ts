/** Numbers of the direct-messages screen, each with its spec reference. */

/** A message with this little time left is flagged as about to expire (spec 001 §4, §9). */
export const DM_NEAR_EXPIRY_MS = 2_000;
/** Under this much time left a message countdown turns red (spec 001 §4, §9). */
export const DM_COUNTDOWN_CRITICAL_MS = 60_000;
/** KILL SWITCH destruct animation before the delete call (spec 001 §4, §9). */
export const DM_MANUAL_DESTRUCT_MS = 3_000;
/** Animation when a thread's expiresAt passes, before the delete call (spec 001 §4, §9). */
export const DM_EXPIRY_DESTRUCT_MS = 1_500;
/** Wait before closing a thread the other party deleted (spec 001 §4, §9). */
export const DM_REMOTE_DELETE_NOTICE_MS = 2_000;
/** Recipient check: local format debounce (spec 001 §4, §9). */
export const DM_RECIPIENT_LOCAL_DEBOUNCE_MS = 300;
/** Recipient check: debounce before looking in the server's user list (spec 001 §4, §9). */
export const DM_RECIPIENT_SERVER_DEBOUNCE_MS = 500;
/** How long the registered-users list is reused before it is fetched again. */
export const DM_USERS_CACHE_MS = 60_000;
/** The 'Copied' toast stays this long (spec 001 §8: "shown 2 s"). */
export const DM_COPIED_TOAST_MS = 2_000;
/** How often countdowns re-render: fine enough to flag the last 2 s. */
export const DM_TICK_MS = 500;
/** Longest reply or first message, in characters (the server caps ciphertext at 20 000 base64). */
export const DM_MESSAGE_MAX_CHARS = 10_000;

/** localStorage: keyId → the fingerprint the user marked as verified after comparing safety numbers. */
export const DM_VERIFIED_STORAGE_KEY = 'securechannel_dm_verified';
/** localStorage: threadId → the last message counter this browser used in it (never reused). */
export const DM_COUNTERS_STORAGE_KEY = 'securechannel_dm_counters';
/** The toast when sending to a contact whose identity key changed. */
export const DM_KEY_CHANGED_TOAST =
  'KEY CHANGED: this contact’s identity key is not the one pinned in this browser. Nothing was sent.';
