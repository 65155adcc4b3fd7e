/** The connecting progress bar (spec 000 §4): +10 % a second, held at 90 % until connected. */
import { TOR } from '../../../shared/constants.js';
import type { TorAdminStatus, TorState } from '../../../shared/protocol/http/tor.js';

/** The next shown progress while connecting, from the current one. */
export function nextConnectingProgress(current: number): number {
  return Math.min(current + TOR.progressStepPercent, TOR.progressCapPercent);
}

/** The spec's three states (spec 000 §4); a stopped or unavailable tor is Disconnected. */
export function torStateLabel(state: TorState): 'Disconnected' | 'Connecting' | 'Connected' {
  if (state === 'connected') return 'Connected';
  if (state === 'connecting') return 'Connecting';
  return 'Disconnected';
}

/** Bytes as B, KiB, MiB or GiB with one decimal. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Seconds as `1h 02m 03s`, `2m 03s` or `3s`. */
export function formatUptime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${h}h ${pad(m)}m ${pad(s)}s`;
  if (m > 0) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}

/**
 * The onion service's reachability as the console and the overlay print it: the server's own test
 * through tor (while connected, at the first circuit and then every 30 s), with its age.
 */
export function formatReachability(
  status: Pick<TorAdminStatus, 'connected' | 'hiddenServiceReachable' | 'hiddenServiceCheckedAt'>,
  now: number = Date.now(),
): string {
  if (!status.connected) return 'not reachable (not connected)';
  if (status.hiddenServiceCheckedAt === null) return 'not checked yet';
  const age = Math.max(0, Math.round((now - Date.parse(status.hiddenServiceCheckedAt)) / 1000));
  return `${status.hiddenServiceReachable ? 'reachable' : 'not reachable'} (checked ${age} s ago)`;
}
