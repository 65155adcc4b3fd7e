/**
 * A quality tier (spec 000 §3: excellent 64 kbps, 48 kHz, 2 channels; good 32 kbps, 24 kHz;
 * fair 16 kbps, 16 kHz; poor 8 kbps, 8 kHz; one channel where the spec names none, as §7's call
 * audio is mono) turned into what a browser lets a page set:
 *
 * - the sender's `maxBitrate` (RTCRtpSender.setParameters), applied at once;
 * - the opus fmtp of the local description (RFC 7587): `maxplaybackrate` and `stereo` (what this
 *   browser wants to receive: the peer's encoder obeys them), `sprop-maxcapturerate` and
 *   `sprop-stereo` (what it sends), `maxaveragebitrate`; applied by munging the SDP before
 *   setLocalDescription, so at the next offer/answer;
 * - the microphone's `sampleRate` and `channelCount` constraints (ideal, never required).
 *
 * What the browser then really uses is read back (`describeApplied`) and shown in the call window.
 */
import { QUALITY_TIERS, type QualityTier, type TierProfile } from './voice-quality.js';

export interface TierParameters extends TierProfile {
  tier: QualityTier;
  /** The opus fmtp parameters this tier puts in the local description. */
  fmtp: Record<string, string>;
  /** getUserMedia / applyConstraints for the microphone. */
  constraints: { sampleRate: { ideal: number }; channelCount: { ideal: number } };
}

export function tierParameters(tier: QualityTier): TierParameters {
  const profile = QUALITY_TIERS[tier];
  const stereo = profile.channels === 2 ? '1' : '0';
  return {
    tier,
    ...profile,
    fmtp: {
      maxplaybackrate: String(profile.sampleRate),
      'sprop-maxcapturerate': String(profile.sampleRate),
      stereo,
      'sprop-stereo': stereo,
      maxaveragebitrate: String(profile.bitrate),
    },
    constraints: {
      sampleRate: { ideal: profile.sampleRate },
      channelCount: { ideal: profile.channels },
    },
  };
}

/** The payload types of opus in an SDP (`a=rtpmap:<pt> opus/48000/2`, any case). */
function opusPayloadTypes(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const match = /^a=rtpmap:(\d+) opus\/\d+/i.exec(line);
    return match?.[1] ? [match[1]] : [];
  });
}

function parseFmtp(text: string): [string, string][] {
  return text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [part, ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    });
}

/**
 * The SDP with every opus fmtp line carrying `parameters` (others kept in their order, these
 * replaced or appended); an opus payload without an fmtp line gets one after its rtpmap. An SDP
 * without opus comes back unchanged. Line endings are kept.
 */
export function mungeOpusFmtp(sdp: string, parameters: Record<string, string>): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const lines = sdp.split(eol);
  const types = new Set(opusPayloadTypes(lines));
  if (types.size === 0) return sdp;
  const seen = new Set<string>();
  const withParameters = (existing: string) => {
    const merged = new Map(parseFmtp(existing));
    for (const [key, value] of Object.entries(parameters)) merged.set(key, value);
    return [...merged].map(([key, value]) => (value === '' ? key : `${key}=${value}`)).join(';');
  };
  const out = lines.map((line) => {
    const match = /^a=fmtp:(\d+) (.*)$/.exec(line);
    if (!match?.[1] || !types.has(match[1])) return line;
    seen.add(match[1]);
    return `a=fmtp:${match[1]} ${withParameters(match[2] ?? '')}`;
  });
  const result: string[] = [];
  for (const line of out) {
    result.push(line);
    const match = /^a=rtpmap:(\d+) opus\//i.exec(line);
    if (match?.[1] && !seen.has(match[1])) result.push(`a=fmtp:${match[1]} ${withParameters('')}`);
  }
  return result.join(eol);
}

/** The opus fmtp parameters of an SDP (its first opus payload), or null without opus. */
export function readOpusFmtp(sdp: string): Record<string, string> | null {
  const lines = sdp.split(/\r?\n/);
  const [type] = opusPayloadTypes(lines);
  if (type === undefined) return null;
  const line = lines.find((candidate) => candidate.startsWith(`a=fmtp:${type} `));
  return Object.fromEntries(parseFmtp(line ? line.slice(`a=fmtp:${type} `.length) : ''));
}

/** What the browser reports it does with a tier, as far as a page can read it back. */
export interface TierReadback {
  /** The sender's `maxBitrate` after setParameters (null: none set or no sender). */
  maxBitrate: number | null;
  /** The microphone track's settings after applyConstraints. */
  captureSampleRate: number | null;
  captureChannels: number | null;
  /** The audio graph the microphone runs through (disguise), and its output channels. */
  graphSampleRate: number | null;
  graphChannels: number;
  /** The peer's opus fmtp (its remote description): what this browser's encoder must obey. */
  peerFmtp: Record<string, string> | null;
}

export interface AppliedLine {
  key: 'bitrate' | 'sampleRate' | 'channels';
  text: string;
  /** The browser does what was asked. */
  isApplied: boolean;
}

const kbps = (bits: number) => `${Math.round(bits / 1000)} kbps`;
const khz = (hz: number) => `${Math.round(hz / 100) / 10} kHz`;

/**
 * One line per parameter, "<what>: <requested> requested, browser uses <used> (<why>)": the
 * bitrate the encoder is capped at, the rate the audio is coded at (the lowest of capture, graph
 * and the peer's maxplaybackrate), the channels sent (the lowest of graph and the peer's stereo).
 */
export function describeApplied(parameters: TierParameters, read: TierReadback): AppliedLine[] {
  const peerRate = Number(read.peerFmtp?.maxplaybackrate ?? 48_000) || 48_000;
  const rates = [read.captureSampleRate, read.graphSampleRate, peerRate].filter(
    (rate): rate is number => typeof rate === 'number' && rate > 0,
  );
  const usedRate = Math.min(...rates);
  const peerChannels = read.peerFmtp?.stereo === '1' ? 2 : 1;
  const usedChannels = Math.min(read.graphChannels, peerChannels);
  const rateWhy = [
    `capture ${read.captureSampleRate ? khz(read.captureSampleRate) : 'unknown'}`,
    `audio graph ${read.graphSampleRate ? khz(read.graphSampleRate) : 'unknown'}`,
    `peer's opus maxplaybackrate ${read.peerFmtp?.maxplaybackrate ?? 'not set (48000)'}`,
  ].join(', ');
  const channelWhy = [
    `capture ${read.captureChannels ?? 'unknown'}`,
    `audio graph ${read.graphChannels}${read.graphChannels === 1 ? ' (the disguise chain is mono)' : ''}`,
    `peer's opus stereo=${read.peerFmtp?.stereo ?? '0'}`,
  ].join(', ');
  return [
    {
      key: 'bitrate',
      text: `bitrate: ${kbps(parameters.bitrate)} requested, browser uses ${
        read.maxBitrate === null ? 'no cap (setParameters refused)' : `${kbps(read.maxBitrate)} max`
      }`,
      isApplied: read.maxBitrate === parameters.bitrate,
    },
    {
      key: 'sampleRate',
      text: `sample rate: ${khz(parameters.sampleRate)} requested, browser uses ${khz(usedRate)} (${rateWhy})`,
      isApplied: usedRate === parameters.sampleRate,
    },
    {
      key: 'channels',
      text: `channels: ${parameters.channels} requested, browser uses ${usedChannels} (${channelWhy})`,
      isApplied: usedChannels === parameters.channels,
    },
  ];
}
