/**
 * Parsing what the privacy lookups and tor's exit list answer (issue 37, item 4): vpnapi.io never
 * gives its AS organisation as the VPN service; ipinfo's `privacy.service` is the service; the
 * exit list is read in both published forms; hostile input is refused or ignored.
 */
import { describe, expect, it } from 'vitest';
import {
  LookupError,
  parseIpinfoAnswer,
  parseVpnApiAnswer,
} from '../../../server/features/privacy/lookup.js';
import { parseTorExitList } from '../../../server/features/privacy/tor-exit-list.js';
import { loadConfig } from '../../../server/config.js';
import { ipinfoAnswer, vpnApiAnswer } from '../../fixtures/fakes/ip-lookup-server.js';

describe('parseVpnApiAnswer', () => {
  it('reports the flags and the network, and no service name', () => {
    expect(
      parseVpnApiAnswer(vpnApiAnswer({ ip: '203.0.113.1', vpn: true, org: 'M247 Europe SRL' })),
    ).toEqual({
      isVPN: true,
      isProxy: false,
      isTor: false,
      isHosting: false,
      city: 'Amsterdam',
      country: 'Netherlands',
      org: 'M247 Europe SRL',
      service: null,
    });
  });

  it('counts a relay as a proxy and fills what is missing with false and Unknown', () => {
    expect(parseVpnApiAnswer({ security: { relay: true } })).toMatchObject({
      isProxy: true,
      isVPN: false,
      city: 'Unknown',
      org: 'Unknown',
      service: null,
    });
  });

  it('refuses an answer that is not an object', () => {
    expect(() => parseVpnApiAnswer('nope')).toThrow(LookupError);
  });
});

describe('parseIpinfoAnswer', () => {
  it('takes the service from privacy.service and the location and org from the top level', () => {
    expect(
      parseIpinfoAnswer(
        ipinfoAnswer({ ip: '203.0.113.2', vpn: true, service: 'ProtonVPN', org: 'AS9009 M247' }),
      ),
    ).toEqual({
      isVPN: true,
      isProxy: false,
      isTor: false,
      isHosting: false,
      city: 'Zurich',
      country: 'CH',
      org: 'AS9009 M247',
      service: 'ProtonVPN',
    });
  });

  it('gives null for an empty service, reads hosting, tor and relay, and ignores wrong types', () => {
    expect(
      parseIpinfoAnswer({
        privacy: { tor: true, hosting: true, relay: true, service: '  ', vpn: 'yes' },
        city: 42,
      }),
    ).toMatchObject({
      isTor: true,
      isHosting: true,
      isProxy: true,
      isVPN: false,
      city: 'Unknown',
      service: null,
    });
  });

  it('refuses an answer that is not an object', () => {
    expect(() => parseIpinfoAnswer(['a'])).toThrow(LookupError);
  });
});

describe('parseTorExitList', () => {
  it('reads the bulk list and the exit-addresses form, and ignores everything else', () => {
    const list = parseTorExitList(
      [
        '198.51.100.1',
        '2001:DB8::1',
        'ExitNode 0123456789ABCDEF',
        'Published 2030-01-01 00:00:00',
        'ExitAddress 198.51.100.2 2030-01-01 00:00:00',
        '# comment',
        'not-an-address',
        '198.51.100.3 extra words',
        '999.1.1.1',
        '',
      ].join('\n'),
    );
    expect([...list].sort()).toEqual(['198.51.100.1', '198.51.100.2', '2001:db8::1']);
  });
});

describe('privacy configuration', () => {
  const base = { PORT: '0', DATA_DIR: '' };

  it('fetches no exit list by default outside production, the Tor Project list in production, none when off', () => {
    expect(loadConfig(base, '/').torExitListUrl).toBeNull();
    expect(loadConfig({ ...base, NODE_ENV: 'production' }, '/').torExitListUrl).toBe(
      'https://check.torproject.org/torbulkexitlist',
    );
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', TOR_EXIT_LIST_URL: 'off' }, '/').torExitListUrl,
    ).toBeNull();
    expect(
      loadConfig({ ...base, TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/list' }, '/').torExitListUrl,
    ).toBe('http://127.0.0.1:9/list');
  });

  it('chooses the lookup adapter by PRIVACY_LOOKUP_PROVIDER, vpnapi by default', () => {
    expect(loadConfig(base, '/').privacyLookupProvider).toBe('vpnapi');
    expect(
      loadConfig({ ...base, PRIVACY_LOOKUP_PROVIDER: 'ipinfo' }, '/').privacyLookupProvider,
    ).toBe('ipinfo');
    expect(() => loadConfig({ ...base, PRIVACY_LOOKUP_PROVIDER: 'other' }, '/')).toThrow();
  });
});
