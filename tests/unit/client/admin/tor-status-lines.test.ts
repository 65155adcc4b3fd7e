/**
 * The console's `tor status` (spec 001 §3: the console also reads connected, bandwidth and
 * hiddenServiceReachable) and the onion service's self-test as printed: measured by the server
 * through tor while connected, with its age; never "reachable" while not connected or untested.
 */
import { describe, expect, it } from 'vitest';
import { torStatusLines } from '../../../../client/features/admin/use-admin-console.js';
import { formatReachability } from '../../../../client/features/tor/tor-progress.js';
import type { TorAdminStatus } from '../../../../shared/protocol/http/tor.js';

const NOW = Date.parse('2026-11-28T12:00:30.000Z');
const ONION = `${'a'.repeat(56)}.onion`;

function status(overrides: Partial<TorAdminStatus> = {}): TorAdminStatus {
  return {
    state: 'connected',
    connected: true,
    circuits: 3,
    bandwidth: { read: 2048, written: 512 },
    hiddenServiceReachable: true,
    hiddenServiceCheckedAt: '2026-11-28T12:00:18.000Z',
    onionAddress: ONION,
    bootstrapProgress: 100,
    running: true,
    socksPortOpen: true,
    controlPortOpen: true,
    hiddenServiceReady: true,
    uptime: 95,
    version: '0.4.9.1',
    socksPort: 9050,
    controlPort: 9051,
    servicePort: 5000,
    message: null,
    ...overrides,
  };
}

describe('tor status in the console', () => {
  it('prints connected, bandwidth and the self-test with its age', () => {
    const text = torStatusLines(status(), NOW).map((line) => line.text);
    expect(text).toEqual([
      'Tor RUNNING · connected',
      '  socks open · control open · hidden service ready',
      '  connected yes · bandwidth ↓ 2.0 KiB ↑ 512 B · hidden service reachable (checked 12 s ago)',
      `  onion ${ONION} · circuits 3 · uptime 95 s`,
    ]);
  });

  it('says when the last self-test failed', () => {
    const line = torStatusLines(status({ hiddenServiceReachable: false }), NOW)[2]!.text;
    expect(line).toContain('hidden service not reachable (checked 12 s ago)');
  });

  it('never says reachable before the first test or while not connected', () => {
    expect(formatReachability(status({ hiddenServiceCheckedAt: null }), NOW)).toBe(
      'not checked yet',
    );
    const disconnected = status({
      state: 'disconnected',
      connected: false,
      hiddenServiceReachable: false,
      hiddenServiceCheckedAt: null,
    });
    expect(formatReachability(disconnected, NOW)).toBe('not reachable (not connected)');
    expect(torStatusLines(disconnected, NOW)[2]!.text).toBe(
      '  connected no · bandwidth ↓ 2.0 KiB ↑ 512 B · hidden service not reachable (not connected)',
    );
  });

  it('names the state once when tor is not running, and the reason the server gives', () => {
    const stopped = status({ running: false, state: 'stopped', connected: false, uptime: 0 });
    expect(torStatusLines(stopped, NOW)[0]).toEqual({ text: 'Tor STOPPED', tone: 'primary' });
    const failed = status({
      running: false,
      state: 'stopped',
      connected: false,
      message: 'tor exited unexpectedly (SIGKILL)',
    });
    expect(torStatusLines(failed, NOW)[0]).toEqual({
      text: 'Tor STOPPED · tor exited unexpectedly (SIGKILL)',
      tone: 'danger',
    });
    const missing = status({
      running: false,
      state: 'unavailable',
      connected: false,
      message: 'Tor is not installed on this server: set TOR_BIN or install the tor package',
    });
    expect(torStatusLines(missing, NOW)[0]!.text).toBe(
      'Tor UNAVAILABLE · Tor is not installed on this server: set TOR_BIN or install the tor package',
    );
  });
});
