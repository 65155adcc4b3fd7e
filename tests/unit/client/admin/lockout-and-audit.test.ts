/** Admin lockout feedback (spec 001 §4, §8, §9) and audit log formatting. */
import { describe, expect, it } from 'vitest';
import { ADMIN_TEXT } from '../../../../server/features/admin/credentials.js';
import {
  formatRemaining,
  formatSessionLeft,
  lockoutSecondsFromMessage,
} from '../../../../client/lib/admin/lockout.js';
import {
  auditActionTone,
  formatAuditDetail,
  formatAuditTime,
} from '../../../../client/features/admin/audit-format.js';

describe('admin lockout feedback', () => {
  it("reads the remaining seconds from the server's lockout message", () => {
    expect(lockoutSecondsFromMessage(ADMIN_TEXT.locked(300))).toBe(300);
    expect(lockoutSecondsFromMessage(ADMIN_TEXT.locked(1))).toBe(1);
    expect(lockoutSecondsFromMessage(ADMIN_TEXT.invalidPassword)).toBeNull();
  });

  it('shows minutes and seconds left', () => {
    expect(formatRemaining(300)).toBe('5m 00s');
    expect(formatRemaining(245.2)).toBe('4m 06s');
    expect(formatRemaining(59)).toBe('59s');
    expect(formatRemaining(-3)).toBe('0s');
  });

  it('counts an admin session down to its server-given end', () => {
    expect(formatSessionLeft(600_000, 0)).toBe('10:00');
    expect(formatSessionLeft(600_000, 599_001)).toBe('00:01');
    expect(formatSessionLeft(600_000, 700_000)).toBe('00:00');
  });
});

describe('audit log formatting', () => {
  it('shows times in UTC to the second', () => {
    expect(formatAuditTime('2025-11-21T06:30:12.345Z')).toBe('2025-11-21 06:30:12 UTC');
  });

  it('puts the detail on one line with sorted keys, quoting only what needs it', () => {
    expect(formatAuditDetail({ reason: 'Compromise suspected', keyId: 'SCKabc' })).toBe(
      'keyId=SCKabc reason="Compromise suspected"',
    );
    expect(formatAuditDetail({ count: 3, nested: { a: 1 } })).toBe('count=3 nested={"a":1}');
    expect(formatAuditDetail({})).toBe('');
  });

  it('marks failures and shutdowns as dangerous', () => {
    expect(auditActionTone('admin.login_failed')).toBe('danger');
    expect(auditActionTone('service.shutdown')).toBe('danger');
    expect(auditActionTone('key.revoke')).toBe('warning');
    expect(auditActionTone('service.restore')).toBe('primary');
    expect(auditActionTone('broadcast.admin')).toBe('fg');
  });
});
