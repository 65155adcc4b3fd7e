import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loadConfig } from '../../../server/config.js';
import { paymentModeNotice } from '../../../server/features/payments/index.js';

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
        providerChosenBy: 'loopback-default',
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
  // Issue 15, item 8: plain HTTP on a network interface carries passwords and tokens in clear.
  it('refuses a non-loopback HOST without TLS unless ALLOW_INSECURE_HTTP says a proxy is in front', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' }, '/x')).toThrow(/HOST.*ALLOW_INSECURE_HTTP/);
    expect(() => loadConfig({ HOST: '192.0.2.1' }, '/x')).toThrow(/TLS_CERT and TLS_KEY/);
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: 'true' }, '/x').host).toBe('0.0.0.0');
    expect(
      loadConfig({ HOST: '0.0.0.0', TLS_CERT: '/c.pem', TLS_KEY: '/k.pem' }, '/x').tls,
    ).not.toBeNull();
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      expect(loadConfig({ HOST: host }, '/x').host).toBe(host);
  });

  it('parses ALLOWED_ORIGINS as a list of origins', () => {
    expect(loadConfig({}, '/x').allowedOrigins).toEqual([]);
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'https://chat.example, http://abc.onion' }, '/x')
        .allowedOrigins,
    ).toEqual(['https://chat.example', 'http://abc.onion']);
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'ftp://chat.example' }, '/x')).toThrow(
      /ALLOWED_ORIGINS/,
    );
  });

  // Issue 31 (DESIGN.md principle 11): the sandbox hands out keys for simulated payments, so it
  // is the default only where nobody from the network can reach the server.
  describe('payment mode when PAYMENT_PROVIDER is unset', () => {
    /** Plain HTTP on a network address needs ALLOW_INSECURE_HTTP; it does not change payments. */
    const onHost = (HOST: string, extra: Record<string, string> = {}) =>
      loadConfig({ HOST, ALLOW_INSECURE_HTTP: '1', ...extra }, '/x').payments;

    it.each([
      '127.0.0.1',
      '127.0.0.53',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      'localhost',
      'LocalHost',
    ])('is the sandbox on the loopback host %s', (host) => {
      expect(onHost(host)).toMatchObject({
        provider: 'sandbox',
        providerChosenBy: 'loopback-default',
      });
    });

    it.each([
      '0.0.0.0',
      '::',
      '[::]',
      '192.168.1.20',
      '10.0.0.5',
      'fd00::7',
      '203.0.113.9',
      'chat.example.org',
    ])('is none (no key sales) on the network host %s', (host) => {
      expect(onHost(host)).toMatchObject({
        provider: 'none',
        providerChosenBy: 'network-default',
      });
    });

    it('is none on a loopback HOST that a proxy forwards the network to (TRUST_PROXY, or TLS_CERT alone)', () => {
      expect(onHost('127.0.0.1', { TRUST_PROXY: 'loopback' }).provider).toBe('none');
      expect(onHost('127.0.0.1', { TRUST_PROXY: '1' }).provider).toBe('none');
      expect(onHost('127.0.0.1', { TLS_CERT: '/etc/proxy.pem' }).provider).toBe('none');
      expect(onHost('127.0.0.1', { TRUST_PROXY: 'false' }).provider).toBe('sandbox');
    });

    it('follows an explicit PAYMENT_PROVIDER wherever the server listens', () => {
      expect(onHost('0.0.0.0', { PAYMENT_PROVIDER: 'sandbox' })).toMatchObject({
        provider: 'sandbox',
        providerChosenBy: 'setting',
      });
      expect(onHost('::', { PAYMENT_PROVIDER: 'sandbox' }).provider).toBe('sandbox');
      expect(onHost('127.0.0.1', { PAYMENT_PROVIDER: 'none' })).toMatchObject({
        provider: 'none',
        providerChosenBy: 'setting',
      });
      expect(onHost('127.0.0.1', { PAYMENT_PROVIDER: 'disabled' }).provider).toBe('none');
      expect(
        onHost('0.0.0.0', {
          PAYMENT_PROVIDER: 'nowpayments',
          PAYMENT_API_KEY: 'k',
          PAYMENT_IPN_SECRET: 's',
        }).provider,
      ).toBe('nowpayments');
      // Empty is unset, as for every variable.
      expect(onHost('0.0.0.0', { PAYMENT_PROVIDER: '' }).provider).toBe('none');
    });

    it('tells loopback hosts from the rest', () => {
      for (const host of ['127.0.0.1', '127.255.0.1', '::1', '::ffff:127.0.0.1', 'a.localhost'])
        expect(isLoopbackHost(host), host).toBe(true);
      for (const host of [
        '0.0.0.0',
        '::',
        '128.0.0.1',
        '::2',
        'fe80::1',
        'localhost.example',
        '127.0.0.1.nip.io',
      ])
        expect(isLoopbackHost(host), host).toBe(false);
    });

    it('states the mode in force in one start-up line, and warns of the sandbox', () => {
      expect(paymentModeNotice(loadConfig({}, '/x'))).toMatchObject({
        level: 'warn',
        paymentMode: 'sandbox',
        message: expect.stringContaining('sandbox (simulated, development only)'),
      });
      const networkSandbox = paymentModeNotice(
        loadConfig(
          { HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: '1', PAYMENT_PROVIDER: 'sandbox' },
          '/x',
        ),
      );
      expect(networkSandbox).toMatchObject({ level: 'warn', paymentMode: 'sandbox' });
      expect(networkSandbox.message).toContain('reachable from the network');
      const fresh = paymentModeNotice(
        loadConfig({ HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: '1' }, '/x'),
      );
      expect(fresh).toMatchObject({ level: 'info', paymentMode: 'disabled' });
      expect(fresh.message).toContain('PAYMENT_PROVIDER is unset');
      expect(paymentModeNotice(loadConfig({ PAYMENT_PROVIDER: 'none' }, '/x'))).toMatchObject({
        paymentMode: 'disabled',
        message: 'key purchase: disabled (PAYMENT_PROVIDER=none): this server sells no keys',
      });
      expect(
        paymentModeNotice(
          loadConfig(
            { PAYMENT_PROVIDER: 'nowpayments', PAYMENT_API_KEY: 'k', PAYMENT_IPN_SECRET: 's' },
            '/x',
          ),
        ),
      ).toEqual({
        level: 'info',
        paymentMode: 'nowpayments',
        message: 'key purchase: nowpayments',
      });
    });
  });
});
