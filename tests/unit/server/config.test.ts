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
      payments: {
        provider: 'sandbox',
        apiKey: null,
        ipnSecret: null,
        apiUrl: 'https://api.nowpayments.io/v1',
        callbackUrl: null,
        sandboxConfirmationSeconds: 10,
      },
    });
  });

  it('requires the API key and IPN secret with PAYMENT_PROVIDER=nowpayments, naming no value', () => {
    const attempt = () =>
      loadConfig({ PAYMENT_PROVIDER: 'nowpayments', PAYMENT_API_KEY: 'k-s3cret' }, '/x');
    expect(attempt).toThrow(/PAYMENT_IPN_SECRET/);
    expect(attempt).not.toThrow(/k-s3cret/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' }, '/x')).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ SANDBOX_CONFIRMATION_SECONDS: '0' }, '/x')).toThrow(
      /SANDBOX_CONFIRMATION_SECONDS/,
    );
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
