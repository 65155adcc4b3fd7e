import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACT_PATHS, redactUrl, serializeRequest } from '../../../server/plugins/redaction.js';

describe('log redaction', () => {
  it('keeps paths and query names but hides query values', () => {
    expect(redactUrl('/room/abc?auth=secret&x=1')).toBe('/room/abc?auth=[redacted]&x=[redacted]');
    expect(redactUrl('/api/ping')).toBe('/api/ping');
  });

  it('hides payment ids in paths, since they open the one-time key download', () => {
    const id = `pay_${'ab'.repeat(32)}`;
    expect(redactUrl(`/api/crypto/payment-status/${id}`)).toBe(
      '/api/crypto/payment-status/pay_[redacted]',
    );
    expect(redactUrl(`/api/crypto/download/${id}?x=1`)).toBe(
      '/api/crypto/download/pay_[redacted]?x=[redacted]',
    );
  });

  it('serializes a request without headers or body', () => {
    const out = serializeRequest({
      id: 'r1',
      method: 'GET',
      url: '/get-key?payment=pay_123',
      ip: '10.0.0.1',
    });
    expect(out).toEqual({ id: 'r1', method: 'GET', url: '/get-key?payment=[redacted]' });
  });

  it('censors tokens, passwords, content and private keys anywhere one level deep', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
    logger.info({
      body: {
        password: 'hunter2',
        sessionToken: 'tok-123',
        content: 'attack at dawn',
        dilithiumPrivateKey: [1, 2, 3],
      },
      req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1' } },
    });
    const text = lines.join('');
    for (const secret of [
      'hunter2',
      'tok-123',
      'attack at dawn',
      'Bearer abc',
      'sid=1',
      '[1,2,3]',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });
});
