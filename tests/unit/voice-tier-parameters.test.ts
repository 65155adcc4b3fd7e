/**
 * Audio quality tiers applied (spec 000 §3: excellent 64 kbps, 48 kHz, 2 channels; good 32 kbps,
 * 24 kHz; fair 16 kbps, 16 kHz; poor 8 kbps, 8 kHz): the sender's maxBitrate, the opus fmtp
 * munged into the SDP, the microphone constraints, and the window's "requested / browser uses".
 */
import { describe, expect, it } from 'vitest';
import {
  describeApplied,
  mungeOpusFmtp,
  readOpusFmtp,
  tierParameters,
  type TierReadback,
} from '../../client/features/voice/opus-sdp.js';

const CHROME_OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126',
  'c=IN IP4 0.0.0.0',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=fmtp:63 111/111',
  'a=rtpmap:9 G722/8000',
  '',
].join('\r\n');

describe('tier parameters', () => {
  it.each([
    ['excellent', 64_000, 48_000, 2, '1'],
    ['good', 32_000, 24_000, 1, '0'],
    ['fair', 16_000, 16_000, 1, '0'],
    ['poor', 8_000, 8_000, 1, '0'],
  ] as const)('%s: %d bps, %d Hz, %d channel(s)', (tier, bitrate, rate, channels, stereo) => {
    const parameters = tierParameters(tier);
    expect(parameters).toMatchObject({ tier, bitrate, sampleRate: rate, channels });
    expect(parameters.fmtp).toEqual({
      maxplaybackrate: String(rate),
      'sprop-maxcapturerate': String(rate),
      stereo,
      'sprop-stereo': stereo,
      maxaveragebitrate: String(bitrate),
    });
    expect(parameters.constraints).toEqual({
      sampleRate: { ideal: rate },
      channelCount: { ideal: channels },
    });
  });
});

describe('opus fmtp munging', () => {
  it("rewrites opus's fmtp line only, keeping its own parameters and the line endings", () => {
    const munged = mungeOpusFmtp(CHROME_OFFER, tierParameters('fair').fmtp);
    const lines = munged.split('\r\n');
    expect(lines).toContain(
      'a=fmtp:111 minptime=10;useinbandfec=1;maxplaybackrate=16000;sprop-maxcapturerate=16000;stereo=0;sprop-stereo=0;maxaveragebitrate=16000',
    );
    expect(lines).toContain('a=fmtp:63 111/111');
    expect(
      munged
        .split('\n')
        .every((line, index, all) => index === all.length - 1 || line.endsWith('\r')),
    ).toBe(true);
    expect(lines).toHaveLength(CHROME_OFFER.split('\r\n').length);
  });

  it('replaces values set before (a tier change) instead of repeating them', () => {
    const once = mungeOpusFmtp(CHROME_OFFER, tierParameters('excellent').fmtp);
    const twice = mungeOpusFmtp(once, tierParameters('poor').fmtp);
    expect(readOpusFmtp(twice)).toEqual({
      minptime: '10',
      useinbandfec: '1',
      maxplaybackrate: '8000',
      'sprop-maxcapturerate': '8000',
      stereo: '0',
      'sprop-stereo': '0',
      maxaveragebitrate: '8000',
    });
    expect(twice.match(/maxplaybackrate=/g)).toHaveLength(1);
    expect(twice.match(/sprop-maxcapturerate=/g)).toHaveLength(1);
  });

  it('adds an fmtp line after the rtpmap when opus has none, and leaves an SDP without opus alone', () => {
    const bare = 'v=0\nm=audio 9 RTP/AVP 96\na=rtpmap:96 OPUS/48000/2\na=sendrecv\n';
    const munged = mungeOpusFmtp(bare, { stereo: '1' });
    expect(munged).toBe(
      'v=0\nm=audio 9 RTP/AVP 96\na=rtpmap:96 OPUS/48000/2\na=fmtp:96 stereo=1\na=sendrecv\n',
    );
    const pcmu = 'v=0\r\nm=audio 9 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n';
    expect(mungeOpusFmtp(pcmu, { stereo: '1' })).toBe(pcmu);
    expect(readOpusFmtp(pcmu)).toBeNull();
  });
});

describe('requested and used, as the window says it', () => {
  const chrome: TierReadback = {
    maxBitrate: 16_000,
    captureSampleRate: 48_000,
    captureChannels: 1,
    graphSampleRate: 48_000,
    graphChannels: 1,
    peerFmtp: { maxplaybackrate: '16000', stereo: '0' },
  };

  it('says what the browser applied', () => {
    const lines = describeApplied(tierParameters('fair'), chrome);
    expect(lines.map((line) => [line.key, line.isApplied])).toEqual([
      ['bitrate', true],
      ['sampleRate', true],
      ['channels', true],
    ]);
    expect(lines[0]!.text).toBe('bitrate: 16 kbps requested, browser uses 16 kbps max');
    expect(lines[1]!.text).toMatch(
      /^sample rate: 16 kHz requested, browser uses 16 kHz \(capture 48 kHz/,
    );
  });

  it('says what it did not: stereo through a mono chain, a peer asking for more, no bitrate cap', () => {
    const lines = describeApplied(tierParameters('excellent'), {
      ...chrome,
      maxBitrate: null,
      peerFmtp: { maxplaybackrate: '24000', stereo: '1' },
    });
    expect(lines.map((line) => line.isApplied)).toEqual([false, false, false]);
    expect(lines[0]!.text).toBe(
      'bitrate: 64 kbps requested, browser uses no cap (setParameters refused)',
    );
    expect(lines[1]!.text).toMatch(/^sample rate: 48 kHz requested, browser uses 24 kHz/);
    expect(lines[2]!.text).toMatch(
      /^channels: 2 requested, browser uses 1 \(.*the disguise chain is mono/,
    );
  });
});
