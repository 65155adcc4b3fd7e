/**
 * What the connection readouts say (issue 35): never "connected" while the socket is down;
 * "reconnecting in N s…" while a try is planned, "connection lost" when none is.
 */
import { describe, expect, it } from 'vitest';
import { linkPhase, linkText, type ChatLink } from '../../../client/lib/realtime/chat-socket.js';

const base: ChatLink = { status: 'connected', retryAt: null, attempt: 0, hold: null };

describe('linkPhase and linkText', () => {
  it('says connecting only for the first connection', () => {
    const first = { ...base, status: 'connecting' } as const;
    expect(linkPhase(first)).toBe('connecting');
    expect(linkText(first, 0)).toBe('ESTABLISHING_LINK...');
  });

  it('counts down to the next try while one is planned, then says reconnecting during it', () => {
    const waiting: ChatLink = { ...base, status: 'disconnected', retryAt: 10_000, attempt: 3 };
    expect(linkPhase(waiting)).toBe('reconnecting');
    expect(linkText(waiting, 6_000)).toBe('RECONNECTING IN 4 s…');
    expect(linkText(waiting, 9_999)).toBe('RECONNECTING IN 1 s…');
    expect(linkText(waiting, 12_000)).toBe('RECONNECTING IN 1 s…');
    const trying: ChatLink = { ...base, status: 'connecting', attempt: 3 };
    expect(linkPhase(trying)).toBe('reconnecting');
    expect(linkText(trying, 0)).toBe('RECONNECTING...');
  });

  it('says disconnected when held or when no try is planned', () => {
    const held: ChatLink = { ...base, status: 'disconnected', hold: 'removed' };
    expect(linkPhase(held)).toBe('disconnected');
    expect(linkText(held, 0)).toBe('CONNECTION_LOST');
    expect(linkPhase({ ...base, status: 'disconnected' })).toBe('disconnected');
    expect(linkPhase(base)).toBe('connected');
  });
});
