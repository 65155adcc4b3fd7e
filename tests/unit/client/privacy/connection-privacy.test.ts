/** The connection privacy result as the user sees it (spec 000 §4 "Connection privacy", §8). */
import { describe, expect, it } from 'vitest';
import { type ConnectionPrivacy } from '../../../../shared/protocol/http/privacy.js';
import {
  assessPrivacy,
  describePrivacy,
  isOnionHost,
  onionResult,
} from '../../../../client/lib/privacy/connection-privacy.js';

const base: ConnectionPrivacy = {
  isVPN: false,
  isProxy: false,
  isTor: false,
  isHosting: false,
  service: null,
  location: { city: 'Lyon', country: 'France' },
  org: 'Example ISP',
  ip: '198.51.100.7',
  source: 'lookup',
  checkedAt: '2030-01-01T00:00:00.000Z',
};

describe('assessPrivacy', () => {
  it.each([
    [{ isTor: true }, 'high', 'TOR_DETECTED'],
    [{ isTor: true, isVPN: true }, 'high', 'TOR_DETECTED'],
    [{ isVPN: true }, 'medium', 'VPN_DETECTED'],
    [{ isProxy: true }, 'medium', 'PROXY_DETECTED'],
    [{ isHosting: true }, 'medium', 'DATACENTER_IP'],
    [{}, 'low', 'DIRECT_CONNECTION'],
    [{ source: 'local' as const }, 'low', 'DIRECT_CONNECTION'],
    [{ source: 'not-configured' as const }, 'low', 'UNKNOWN_STATUS'],
    [{ source: 'failed' as const }, 'low', 'DETECTION_FAILED'],
  ])('%o → level %s, %s', (change, level, status) => {
    expect(assessPrivacy({ kind: 'done', result: { ...base, ...change } })).toMatchObject({
      level,
      status,
    });
  });

  it('says CHECKING_CONNECTION while asking and DETECTION_FAILED when the request fails', () => {
    expect(assessPrivacy({ kind: 'checking' }).status).toBe('CHECKING_CONNECTION');
    expect(assessPrivacy({ kind: 'failed' }).status).toBe('DETECTION_FAILED');
  });

  it('counts an onion host as Tor without asking', () => {
    expect(isOnionHost(`${'a'.repeat(56)}.onion`)).toBe(true);
    expect(isOnionHost('onion.example')).toBe(false);
    expect(assessPrivacy({ kind: 'done', result: onionResult(0) })).toMatchObject({
      level: 'high',
      status: 'TOR_DETECTED',
    });
  });

  it('describes where the user appears to be and through whom', () => {
    const vpn = { ...base, isVPN: true, service: 'Mullvad VPN AB', org: 'Mullvad VPN AB' };
    expect(describePrivacy(assessPrivacy({ kind: 'done', result: vpn }))).toBe(
      'VPN_DETECTED · level MEDIUM · Lyon, France · Mullvad VPN AB',
    );
  });
});
