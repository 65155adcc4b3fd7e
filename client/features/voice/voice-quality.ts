/**
 * Audio quality tiers (spec 000 §3, §9): from the round-trip time and packet loss of the last
 * 2 s, excellent under 50 ms and 1 %, good under 150 ms and 3 %, fair under 300 ms and 7 %, else
 * poor; on the Tor network (an onion host) excellent is capped to good. Each tier's opus bitrate
 * becomes the sender's `maxBitrate`.
 */

export type QualityTier = 'excellent' | 'good' | 'fair' | 'poor';

export interface TierProfile {
  /** Opus bitrate, bits per second. */
  bitrate: number;
  sampleRate: number;
  channels: 1 | 2;
}

/** Spec 000 §3 (all opus). */
export const QUALITY_TIERS: Record<QualityTier, TierProfile> = {
  excellent: { bitrate: 64_000, sampleRate: 48_000, channels: 2 },
  good: { bitrate: 32_000, sampleRate: 24_000, channels: 1 },
  fair: { bitrate: 16_000, sampleRate: 16_000, channels: 1 },
  poor: { bitrate: 8_000, sampleRate: 8_000, channels: 1 },
};

/** The tier for a round-trip time (ms) and a loss fraction (0..1). */
export function qualityTier(rttMs: number, loss: number, isTor: boolean): QualityTier {
  let tier: QualityTier;
  if (rttMs < 50 && loss < 0.01) tier = 'excellent';
  else if (rttMs < 150 && loss < 0.03) tier = 'good';
  else if (rttMs < 300 && loss < 0.07) tier = 'fair';
  else tier = 'poor';
  return isTor && tier === 'excellent' ? 'good' : tier;
}

/** Cumulative counters of one peer connection, as read from getStats. */
export interface StatsSample {
  /** The selected candidate pair's current round-trip time, seconds (null: not measured yet). */
  rttSeconds: number | null;
  packetsReceived: number;
  packetsLost: number;
  bytesReceived: number;
  bytesSent: number;
}

/** Reads the sample out of an RTCStatsReport-like iterable of stats dictionaries. */
export function readStats(report: Iterable<Record<string, unknown>>): StatsSample {
  const sample: StatsSample = {
    rttSeconds: null,
    packetsReceived: 0,
    packetsLost: 0,
    bytesReceived: 0,
    bytesSent: 0,
  };
  const number = (value: unknown) => (typeof value === 'number' ? value : 0);
  for (const stat of report) {
    if (stat.type === 'inbound-rtp' && stat.kind === 'audio') {
      sample.packetsReceived += number(stat.packetsReceived);
      sample.packetsLost += number(stat.packetsLost);
      sample.bytesReceived += number(stat.bytesReceived);
    } else if (stat.type === 'outbound-rtp' && stat.kind === 'audio') {
      sample.bytesSent += number(stat.bytesSent);
    } else if (
      stat.type === 'candidate-pair' &&
      stat.nominated === true &&
      stat.state === 'succeeded' &&
      typeof stat.currentRoundTripTime === 'number'
    ) {
      sample.rttSeconds = stat.currentRoundTripTime;
    } else if (stat.type === 'remote-inbound-rtp' && typeof stat.roundTripTime === 'number') {
      sample.rttSeconds ??= stat.roundTripTime;
    }
  }
  return sample;
}

/**
 * Round-trip time (ms) and loss over the interval between two samples of one connection; loss is
 * lost ÷ (received + lost) of the packets counted in the interval (0 when none were expected).
 */
export function intervalQuality(
  previous: StatsSample | null,
  current: StatsSample,
): { rttMs: number; loss: number } | null {
  if (current.rttSeconds === null) return null;
  const received = current.packetsReceived - (previous?.packetsReceived ?? 0);
  const lost = current.packetsLost - (previous?.packetsLost ?? 0);
  const expected = received + Math.max(0, lost);
  return {
    rttMs: current.rttSeconds * 1000,
    loss: expected > 0 ? Math.max(0, lost) / expected : 0,
  };
}

/** The worst tier among the peers (the call's tier); null when nothing was measured. */
export function worstTier(tiers: readonly QualityTier[]): QualityTier | null {
  const order: QualityTier[] = ['poor', 'fair', 'good', 'excellent'];
  for (const tier of order) if (tiers.includes(tier)) return tier;
  return null;
}
