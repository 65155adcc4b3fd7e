import { describe, expect, it } from 'vitest';
import {
  BOT_LIMITS,
  BotDetector,
  bodyDigest,
} from '../../../server/features/abuse/bot-detector.js';

const detector = () => new BotDetector(() => 0);

describe('BotDetector', () => {
  it('never flags ten distinct messages a second, kept up for two minutes', () => {
    const bot = detector();
    for (let i = 0; i < 1200; i += 1) expect(bot.onMessage(`body ${i}`, i * 100)).toBeNull();
  });

  it('flags a burst above the limit within the burst window', () => {
    const bot = detector();
    const signals = Array.from({ length: BOT_LIMITS.burstMessages + 1 }, (_, i) =>
      bot.onMessage(`body ${i}`, i * 10),
    );
    expect(signals.slice(0, -1).every((signal) => signal === null)).toBe(true);
    expect(signals.at(-1)).toBe('burst');
  });

  it('flags the same body seen four times within a minute', () => {
    const bot = detector();
    expect(bot.onMessage('replayed', 0)).toBeNull();
    expect(bot.onMessage('replayed', 10_000)).toBeNull();
    expect(bot.onMessage('other', 15_000)).toBeNull();
    expect(bot.onMessage('replayed', 20_000)).toBeNull();
    expect(bot.onMessage('replayed', 30_000)).toBe('repetition');
  });

  it('forgets a body once its sightings are older than the window', () => {
    const bot = detector();
    for (const at of [0, 1000, 2000]) expect(bot.onMessage('again', at)).toBeNull();
    // Each sighting leaves the window a minute after it: these are the second, second (the one at
    // 2 s has just left) and third within the window, then the fourth.
    expect(bot.onMessage('again', 61_500)).toBeNull();
    expect(bot.onMessage('again', 62_000)).toBeNull();
    expect(bot.onMessage('again', 62_500)).toBeNull();
    expect(bot.onMessage('again', 63_000)).toBe('repetition');
  });

  it('counts repetitions among many distinct bodies', () => {
    const bot = detector();
    let signal = null;
    for (let i = 0; i < 2000 && signal === null; i += 1) {
      const body = i % 150 === 0 ? 'needle' : `hay ${i}`;
      signal = bot.onMessage(body, i * 100);
    }
    // "needle" at 0, 15 s, 30 s and 45 s: the fourth sighting within a minute.
    expect(signal).toBe('repetition');
  });

  it('keeps its counts right over ten minutes, as old sightings are cut off in bulk', () => {
    const bot = detector();
    // Ten a second; "echo" every 20 s is three sightings a minute, never four.
    for (let i = 0; i < 6000; i += 1) {
      const body = i % 200 === 0 ? 'echo' : `body ${i}`;
      expect(bot.onMessage(body, i * 100)).toBeNull();
    }
    // After the window was cut many times: 560 s, 580 s and now 600 s are three; a fourth is seen.
    expect(bot.onMessage('echo', 600_000)).toBeNull();
    expect(bot.onMessage('echo', 600_050)).toBe('repetition');
  });

  it('digests a body as a small non-negative integer, the same for the same body', () => {
    const bodies = Array.from({ length: 1000 }, (_, i) => `ciphertext ${i}`);
    const digests = bodies.map(bodyDigest);
    for (const digest of digests) {
      // Within V8's small-integer range: kept inside the detector's array, no heap object each.
      expect(Number.isInteger(digest) && digest >= 0 && digest < 2 ** 30).toBe(true);
    }
    expect(bodies.map(bodyDigest)).toEqual(digests);
    expect(new Set(digests).size).toBe(bodies.length);
    // The first 30 bits of SHA-256 ('abc': ba7816bf…), read little-endian.
    expect(bodyDigest('abc')).toBe(0xbf1678ba >>> 2);
  });

  it('starts afresh after a reset', () => {
    const bot = detector();
    for (const at of [0, 1, 2]) bot.onMessage('same', at);
    bot.reset();
    expect(bot.onMessage('same', 3)).toBeNull();
  });

  it('flags a join flood', () => {
    const bot = detector();
    const signals = Array.from({ length: BOT_LIMITS.joinCount + 1 }, (_, i) =>
      bot.onJoin(i * 1000),
    );
    expect(signals.at(-1)).toBe('join_flood');
    expect(signals.slice(0, -1).every((signal) => signal === null)).toBe(true);
  });
});
