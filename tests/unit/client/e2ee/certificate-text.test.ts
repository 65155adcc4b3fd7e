/**
 * The certificate status in words (spec 000 §4 "Certificate status", issue 33 item 6): without
 * TLS there is no certificate to call valid, and it does not count towards the protection level.
 */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { certificateText } from '../../../../client/features/e2ee/security-text.js';
import { securityLevelLabel } from '../../../../client/features/e2ee/security-level.js';
import {
  isCertificateOk,
  isCertificateVouched,
  type CertificateStatus,
} from '../../../../client/lib/privacy/pins.js';

const STATUSES: CertificateStatus[] = [
  'checking',
  'localhost',
  'pinned',
  'valid',
  'invalid',
  'unavailable',
];

describe('certificateText', () => {
  it('never says VALID on a page without TLS, and says NO TLS where a check passed', () => {
    for (const status of STATUSES) {
      const text = certificateText(status, false);
      expect(text, status).not.toMatch(/\bVALID\b/);
      if (isCertificateOk(status)) expect(text, status).toMatch(/^NO TLS/);
    }
    expect(certificateText('localhost', false)).toBe('NO TLS (LOCALHOST)');
    expect(certificateText('valid', false)).toBe('NO TLS · IDENTITY MATCHES PIN');
  });

  it('keeps the spec words over TLS and for a failure either way', () => {
    expect(certificateText('valid', true)).toBe('VALID');
    expect(certificateText('pinned', true)).toBe('PINNED (FIRST USE)');
    expect(certificateText('invalid', true)).toBe(TEXT.certFail);
    expect(certificateText('invalid', false)).toBe(TEXT.certFail);
  });
});

describe('isCertificateVouched (the protection level\'s "certificate ok")', () => {
  it('counts a passed check only over TLS', () => {
    for (const status of STATUSES) {
      expect(isCertificateVouched(status, false), status).toBe(false);
      expect(isCertificateVouched(status, true), status).toBe(isCertificateOk(status));
    }
  });

  it('so a page without TLS never reaches MAXIMUM', () => {
    const level = securityLevelLabel({
      isCertificateOk: isCertificateVouched('valid', false),
      hasZeroKnowledgeKey: true,
      hasForwardSecrecyKey: true,
    });
    expect(level).toBe('ENTERPRISE');
  });
});
