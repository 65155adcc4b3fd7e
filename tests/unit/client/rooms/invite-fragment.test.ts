/** The access code in an invite link's fragment (issue 33): `#code=…`, read once, then removed. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearInviteFragment,
  inviteCodeFragment,
  parseInviteFragment,
} from '../../../../client/lib/rooms/invite-fragment.js';
import { buildInviteLink } from '../../../../client/features/rooms/invite-link.js';

const SECURE_ID = 'b'.repeat(64);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('parseInviteFragment', () => {
  it('reads the code, with or without the #', () => {
    expect(parseInviteFragment('#code=nightfall-7731')).toBe('nightfall-7731');
    expect(parseInviteFragment('code=nightfall-7731')).toBe('nightfall-7731');
  });

  it('decodes what inviteCodeFragment encoded, whatever the characters', () => {
    for (const code of ['a b&c=d#e', 'Отдел 🔐', '100%', '+plus+']) {
      expect(parseInviteFragment(inviteCodeFragment(code)), code).toBe(code);
    }
  });

  it('finds the code among other fragment parameters', () => {
    expect(parseInviteFragment('#x=1&code=abc&y=2')).toBe('abc');
  });

  it('gives null for no fragment, no code, an empty code or an oversized one', () => {
    for (const hash of ['', '#', '#section', '#code=', '#codes=abc', `#code=${'x'.repeat(257)}`]) {
      expect(parseInviteFragment(hash), hash).toBeNull();
    }
  });

  it('gives null for a malformed escape instead of throwing', () => {
    expect(() => parseInviteFragment('#code=%E0%A4%A')).not.toThrow();
  });
});

describe('buildInviteLink with the code in the fragment', () => {
  it('puts the code after # only, never in the path or the query', () => {
    const link = new URL(
      buildInviteLink('https://h', { secureId: SECURE_ID, name: 'x' }, 1, 'c0de'),
    );
    expect(link.hash).toBe('#code=c0de');
    expect(`${link.pathname}${link.search}`).not.toContain('c0de');
    expect(parseInviteFragment(link.hash)).toBe('c0de');
  });

  it('has no fragment without a code', () => {
    expect(new URL(buildInviteLink('https://h', { secureId: SECURE_ID, name: 'x' }, 1)).hash).toBe(
      '',
    );
  });
});

describe('clearInviteFragment', () => {
  function stubLocation(hash: string) {
    const replaceState = vi.fn();
    vi.stubGlobal('window', {
      location: { pathname: `/room/${SECURE_ID}`, search: '?auth=abc', hash },
      history: { state: { idx: 3 }, replaceState },
    });
    return replaceState;
  }

  it('replaces the address with the same path and query, keeping the history state', () => {
    const replaceState = stubLocation('#code=secret');
    clearInviteFragment();
    expect(replaceState).toHaveBeenCalledWith({ idx: 3 }, '', `/room/${SECURE_ID}?auth=abc`);
  });

  it('leaves an address without a code alone', () => {
    const replaceState = stubLocation('#section');
    clearInviteFragment();
    expect(replaceState).not.toHaveBeenCalled();
  });
});
