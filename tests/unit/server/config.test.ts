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
        { PORT: 'eighty', DATABASE_URL: 'mysql://user:s3cret@db', TLS_CERT: '/c.pem' },
        '/x',
      );
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/DATABASE_URL/);
    expect(attempt).toThrow(/TLS_CERT and TLS_KEY/);
    expect(attempt).not.toThrow(/s3cret/);
  });

  it('requires a metrics token of at least 16 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' }, '/x')).toThrow(/METRICS_TOKEN/);
  });
});
