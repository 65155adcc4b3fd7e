/**
 * Access mode (spec 001 §2): `public` or `authenticated`, stored under
 * `securechannel_access_mode`. The router re-reads it every 1000 ms and on storage and history
 * events, so a change made in another tab or by a page reaches it.
 */
import { STORAGE_KEYS, readStorage, removeStorage, writeStorage } from '../storage-keys.js';

/**
 * The two modes. The stored value is matched against this closed list rather than a zod enum:
 * the router reads it before the first paint, which must not load zod (issue 22, target 5).
 */
export const ACCESS_MODES = ['public', 'authenticated'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

/** Event fired on window when this tab changes the access mode. */
export const ACCESS_MODE_EVENT = 'securechannel:access-mode';

/** The stored mode, or null when none (or an unknown value) is stored. */
export function readAccessMode(): AccessMode | null {
  const stored = readStorage(STORAGE_KEYS.accessMode);
  return ACCESS_MODES.find((mode) => mode === stored) ?? null;
}

export function setAccessMode(mode: AccessMode): void {
  writeStorage(STORAGE_KEYS.accessMode, mode);
  window.dispatchEvent(new Event(ACCESS_MODE_EVENT));
}

/** Removed on failed authentication or when returning to landing (spec 000 §4). */
export function clearAccessMode(): void {
  removeStorage(STORAGE_KEYS.accessMode);
  window.dispatchEvent(new Event(ACCESS_MODE_EVENT));
}
