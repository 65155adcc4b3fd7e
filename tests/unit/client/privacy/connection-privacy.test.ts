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
  notChecked: [],
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

  it('names a VPN whose service the lookup does not name as an unknown VPN service, never by its network', () => {
    const vpn = { ...base, isVPN: true, service: null, org: 'M247 Europe SRL' };
    expect(describePrivacy(assessPrivacy({ kind: 'done', result: vpn }))).toBe(
      'VPN_DETECTED · level MEDIUM · Lyon, France · unknown VPN service (network M247 Europe SRL)',
    );
  });

  it('says which parts were not checked without a lookup service, and that Tor was', () => {
    const result: ConnectionPrivacy = {
      ...base,
      location: { city: 'Unknown', country: 'Unknown' },
      org: 'Unknown',
      source: 'not-configured',
      notChecked: ['vpn', 'proxy', 'hosting', 'location'],
    };
    expect(describePrivacy(assessPrivacy({ kind: 'done', result }))).toBe(
      "UNKNOWN_STATUS · level LOW · not checked: VPN, proxy, hosting, location (no lookup service on this server) · Tor checked against tor's exit list",
    );
    const withoutList = { ...result, notChecked: [...result.notChecked, 'tor' as const] };
    expect(describePrivacy(assessPrivacy({ kind: 'done', result: withoutList }))).toBe(
      'UNKNOWN_STATUS · level LOW · not checked: VPN, proxy, hosting, location, Tor (no lookup service on this server)',
    );
  });

  it('reports Tor found by the exit list even without a lookup service', () => {
    const result: ConnectionPrivacy = {
      ...base,
      isTor: true,
      source: 'not-configured',
      notChecked: ['vpn', 'proxy', 'hosting', 'location'],
    };
    expect(assessPrivacy({ kind: 'done', result })).toMatchObject({
      level: 'high',
      status: 'TOR_DETECTED',
    });
  });
});
