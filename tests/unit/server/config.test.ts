import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';

describe('configuration', () => {
  it('uses the operator contract defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 5000,
      host: '127.0.0.1',
      dataDir: '/srv/app/data',
      databaseUrl: null,
      redisUrl: null,
      messageTtlSeconds: 30,
      trustProxy: false,
      tls: null,
      metricsToken: null,
      paymentProvider: 'sandbox',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }, '/x')).toMatchObject({
      port: 5000,
      databaseUrl: null,
    });
  });

  it('lists every invalid variable by name without echoing values', () => {
    const attempt = () =>
      loadConfig(
        { PORT: 'eighty', DATABASE_URL: 'mysql://user:s3cret@db', TLS_KEY: '/k.pem' },
        '/x',
      );
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/DATABASE_URL/);
    expect(attempt).toThrow(/TLS_KEY needs TLS_CERT/);
    expect(attempt).not.toThrow(/s3cret/);
  });

  it('requires a metrics token of at least 16 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' }, '/x')).toThrow(/METRICS_TOKEN/);
  });

  it('reads TLS_CERT without TLS_KEY as the certificate a proxy in front serves', () => {
    expect(loadConfig({ TLS_CERT: '/etc/proxy.pem' }, '/x')).toMatchObject({
      tls: null,
      proxyCertPath: '/etc/proxy.pem',
    });
  });

  it.each([
    ['true', true],
    ['yes', true],
    ['false', false],
    ['no', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['loopback, linklocal,uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
    ['10.0.0.0/8,192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('accepts TRUST_PROXY=%s', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }, '/x').trustProxy).toEqual(expected);
  });

  it.each(['maybe', '10.0.0.0/33', '300.1.1.1', 'loopback;rm', '::1/129', '1.2.3.4/8/8'])(
    'refuses TRUST_PROXY=%s with a message naming the variable',
    (raw) => {
      expect(() => loadConfig({ TRUST_PROXY: raw }, '/x')).toThrow(/TRUST_PROXY/);
    },
  );
});
