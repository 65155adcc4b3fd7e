/**
 * Public visitors' callsign (spec 000 §1): stored under `chat-username`, one of the prefixes and a
 * number from 1 to 9999. A missing or malformed stored value is replaced by a fresh one.
 */
import { CALLSIGN_PATTERN, generateCallsign } from '../../../shared/id-shapes.js';
import { STORAGE_KEYS, readStorage, writeStorage } from '../../lib/storage-keys.js';

/** The stored callsign, created and stored on first use. */
export function getOrCreateCallsign(): string {
  // The pattern of CallsignSchema, without zod: the chat room reads this before it paints.
  const stored = readStorage(STORAGE_KEYS.callsign);
  if (stored !== null && CALLSIGN_PATTERN.test(stored)) return stored;
  const callsign = generateCallsign();
  writeStorage(STORAGE_KEYS.callsign, callsign);
  return callsign;
}

/** Stores a new callsign, different from the current one; throws when storage refuses. */
export function replaceCallsign(current: string | null): string {
  let next = generateCallsign();
  while (next === current) next = generateCallsign();
  if (!writeStorage(STORAGE_KEYS.callsign, next)) throw new Error('Storage unavailable');
  return next;
}
