/** Audio quality tiers (spec 000 §3, §9) from getStats figures. */
import { describe, expect, it } from 'vitest';
import {
  intervalQuality,
  QUALITY_TIERS,
  qualityTier,
  readStats,
  worstTier,
} from '../../client/features/voice/voice-quality.js';

describe('voice quality tiers', () => {
  it.each([
    [10, 0, 'excellent'],
    [49.9, 0.009, 'excellent'],
    [50, 0, 'good'],
    [10, 0.01, 'good'],
    [149, 0.029, 'good'],
    [150, 0, 'fair'],
    [10, 0.03, 'fair'],
    [299, 0.069, 'fair'],
    [300, 0, 'poor'],
    [10, 0.07, 'poor'],
  ] as const)('%d ms and %d loss is %s', (rtt, loss, tier) => {
    expect(qualityTier(rtt, loss, false)).toBe(tier);
  });

  it('caps excellent to good on the Tor network, and only excellent', () => {
    expect(qualityTier(10, 0, true)).toBe('good');
    expect(qualityTier(200, 0, true)).toBe('fair');
    expect(qualityTier(400, 0, true)).toBe('poor');
  });

  it('has the opus profiles of spec 000 §3', () => {
    expect(QUALITY_TIERS).toEqual({
      excellent: { bitrate: 64_000, sampleRate: 48_000, channels: 2 },
      good: { bitrate: 32_000, sampleRate: 24_000, channels: 1 },
      fair: { bitrate: 16_000, sampleRate: 16_000, channels: 1 },
      poor: { bitrate: 8_000, sampleRate: 8_000, channels: 1 },
    });
  });

  it('reads round-trip time, loss and bytes from a stats report', () => {
    const report = [
      {
        type: 'inbound-rtp',
        kind: 'audio',
        packetsReceived: 970,
        packetsLost: 30,
        bytesReceived: 5000,
      },
      { type: 'outbound-rtp', kind: 'audio', bytesSent: 7000 },
      { type: 'inbound-rtp', kind: 'video', packetsReceived: 99, packetsLost: 99 },
      { type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.12 },
      { type: 'candidate-pair', nominated: false, state: 'failed', currentRoundTripTime: 9 },
    ];
    const sample = readStats(report);
    expect(sample).toEqual({
      rttSeconds: 0.12,
      packetsReceived: 970,
      packetsLost: 30,
      bytesReceived: 5000,
      bytesSent: 7000,
    });
    const first = intervalQuality(null, sample);
    expect(first?.rttMs).toBeCloseTo(120);
    expect(first?.loss).toBeCloseTo(0.03);
    // The next interval counts only its own packets: 100 more received, 10 more lost.
    const next = intervalQuality(sample, {
      ...sample,
      packetsReceived: 1070,
      packetsLost: 40,
    });
    expect(next?.loss).toBeCloseTo(10 / 110);
    expect(intervalQuality(null, { ...sample, rttSeconds: null })).toBeNull();
  });

  it('gives the call the worst tier of its peers', () => {
    expect(worstTier(['excellent', 'fair', 'good'])).toBe('fair');
    expect(worstTier([])).toBeNull();
  });
});
