/**
 * The admin session of a password login (spec 001 §4 "Admin console session"): locked until
 * authenticated, gone at the server's `expiresAt` (ten minutes). It is kept in this module's
 * memory only, never in localStorage or sessionStorage, so it survives moving between the chat
 * and the service-state pages inside the app but not a reload, and no other tab can read it.
 */
import { useSyncExternalStore } from 'react';
import { type AdminSessionGrant } from './admin-api.js';

let current: AdminSessionGrant | null = null;
let expiryTimer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of [...listeners]) listener();
}

/** Starts using `grant`; it is dropped by itself at its `expiresAt`. */
export function setAdminSession(grant: AdminSessionGrant): void {
  if (expiryTimer !== null) clearTimeout(expiryTimer);
  current = grant;
  // setTimeout's delay is capped at 2^31 - 1 ms; a grant is ten minutes, far below that.
  expiryTimer = setTimeout(clearAdminSession, Math.max(0, grant.expiresAt - Date.now()));
  notify();
}

/** Forgets the session (logout, expiry, or a server that no longer accepts it). */
export function clearAdminSession(): void {
  if (expiryTimer !== null) clearTimeout(expiryTimer);
  expiryTimer = null;
  if (current === null) return;
  current = null;
  notify();
}

/** The live session at `now`, or null when there is none or it has expired. */
export function getAdminSession(now: number = Date.now()): AdminSessionGrant | null {
  if (current !== null && current.expiresAt <= now) {
    clearAdminSession();
    return null;
  }
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The live admin session, re-rendering when it starts, ends or expires. */
export function useAdminSession(): AdminSessionGrant | null {
  return useSyncExternalStore(subscribe, () => current);
}
