/**
 * Times and countdowns of the direct-messages screen (spec 001 §2, §4, §9): list times as
 * 'MMM dd, HH:mm', message times as 'HH:mm:ss' (both in local time), the thread's auto-destruct
 * countdown in h m s, and the per-message countdown in d/h, h/m, m/s or s.
 */
import { DM_COUNTDOWN_CRITICAL_MS, DM_NEAR_EXPIRY_MS } from './dm-constants.js';

const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

const pad = (value: number) => String(value).padStart(2, '0');

function toDate(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'Jan 05, 09:07': the list's last-message or created time. */
export function formatListTime(value: string | Date): string {
  const date = toDate(value);
  if (!date) return '--- --, --:--';
  return `${MONTHS[date.getMonth()]} ${pad(date.getDate())}, ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** '09:07:03': a message's sent time. */
export function formatMessageTime(value: string | Date): string {
  const date = toDate(value);
  if (!date) return '--:--:--';
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Milliseconds from `now` until the ISO time `expiresAt`, never below zero. */
export function remainingMs(expiresAt: string, now: number): number {
  const target = Date.parse(expiresAt);
  if (Number.isNaN(target)) return 0;
  return Math.max(0, target - now);
}

/** Whole seconds left, rounded up, so a display reaches 0 only when time is really up. */
function wholeSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** The thread's auto-destruct countdown: '23h 59m 07s'. */
export function formatThreadCountdown(ms: number): string {
  const total = wholeSeconds(ms);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `${hours}h ${pad(minutes)}m ${pad(total % 60)}s`;
}

/** A message's countdown: '1d 3h', '2h 5m', '4m 10s' or '42s'. */
export function formatMessageCountdown(ms: number): string {
  const total = wholeSeconds(ms);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

/** Red under 60 s, judged on the seconds shown so '60s' is never red and '59s' always is. */
export function isCountdownCritical(ms: number): boolean {
  return wholeSeconds(ms) * 1000 < DM_COUNTDOWN_CRITICAL_MS;
}

/** Flagged as about to expire: 2 s or less left, and not yet gone. */
export function isNearExpiry(ms: number): boolean {
  return ms > 0 && ms <= DM_NEAR_EXPIRY_MS;
}

/** The ISO expiry of a message sent at `now` with a timer of `seconds` (spec 001 §7). */
export function messageExpiry(now: number, seconds: number): string {
  return new Date(now + seconds * 1000).toISOString();
}
