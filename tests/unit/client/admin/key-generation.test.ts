/** Key generation form rules (spec 000 §5, spec 001 §5): username required, validity days. */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import {
  DEFAULT_VALIDITY_INPUT,
  MAX_KEY_VALIDITY_DAYS,
  checkKeyGenerationForm,
  describeValidity,
  parseValidityDays,
} from '../../../../client/features/admin/key-generation.js';

describe('parseValidityDays', () => {
  it('starts at 365 days', () => {
    expect(DEFAULT_VALIDITY_INPUT).toBe('365');
    expect(parseValidityDays(DEFAULT_VALIDITY_INPUT)).toEqual({ ok: true, days: 365 });
  });

  it('accepts 0 (never expires) and whole numbers up to the maximum, trimmed', () => {
    expect(parseValidityDays('0')).toEqual({ ok: true, days: 0 });
    expect(parseValidityDays(' 30 ')).toEqual({ ok: true, days: 30 });
    expect(parseValidityDays(String(MAX_KEY_VALIDITY_DAYS))).toEqual({
      ok: true,
      days: MAX_KEY_VALIDITY_DAYS,
    });
  });

  it('refuses negatives, fractions, words, empty input and absurd lengths', () => {
    for (const input of ['-1', '1.5', '1e3', 'ten', '', '  ', String(MAX_KEY_VALIDITY_DAYS + 1)]) {
      expect(parseValidityDays(input).ok).toBe(false);
    }
  });
});

describe('checkKeyGenerationForm', () => {
  it('asks for a username with the spec texts when it is empty or blank', () => {
    for (const username of ['', '   ']) {
      expect(checkKeyGenerationForm({ username, level: 'user', validityDays: '365' })).toEqual({
        ok: false,
        problem: {
          field: 'username',
          title: 'Username Required',
          description: 'Please enter a username for the key',
        },
      });
    }
  });

  it('refuses control characters and overlong names', () => {
    expect(
      checkKeyGenerationForm({ username: 'a\u0007b', level: 'user', validityDays: '1' }).ok,
    ).toBe(false);
    expect(
      checkKeyGenerationForm({ username: 'x'.repeat(65), level: 'user', validityDays: '1' }).ok,
    ).toBe(false);
  });

  it('points at the validity field when the days are not valid', () => {
    const result = checkKeyGenerationForm({ username: 'alice', level: 'user', validityDays: '-3' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.field).toBe('validityDays');
      expect(result.problem.title).toBe(TEXT.generationFailedTitle);
    }
  });

  it('gives the trimmed username, level and days when everything is right', () => {
    expect(
      checkKeyGenerationForm({ username: '  alice  ', level: 'admin', validityDays: '0' }),
    ).toEqual({ ok: true, request: { username: 'alice', level: 'admin', validityDays: 0 } });
  });
});

describe('describeValidity', () => {
  const now = new Date('2025-01-01T12:00:00Z');

  it('says when the key expires, or that it never does', () => {
    expect(describeValidity('0', now)).toBe('Never expires');
    expect(describeValidity('365', now)).toBe('Expires 2026-01-01 (UTC)');
    expect(describeValidity('x', now)).toMatch(/whole number of days/);
  });
});
