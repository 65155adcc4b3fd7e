/**
 * The encrypted audio frame's byte format (shared/crypto/voice/voice-frame.ts) and the voice key
 * grant inside the pairwise envelope (client/features/e2ee/sender-key-envelope.ts).
 */
import { describe, expect, it } from 'vitest';
import { importAesGcmKey } from '../../shared/crypto/room/aes-gcm.js';
import {
  clearVoiceFrame,
  nextFrameKeyVersion,
  openVoiceFrame,
  sealVoiceFrame,
} from '../../shared/crypto/voice/voice-frame.js';
import {
  decodeSenderKeyPayload,
  encodeVoiceKeyPayload,
} from '../../client/features/e2ee/sender-key-envelope.js';

const raw = (fill: number) => new Uint8Array(32).fill(fill);
const opus = Uint8Array.from({ length: 60 }, (_, i) => (i * 7) & 0xff);

describe('voice frame encryption', () => {
  it('seals as version ‖ iv ‖ ciphertext ‖ tag and opens with the key of that version', async () => {
    const key = await importAesGcmKey(raw(1));
    const sealed = await sealVoiceFrame(key, 7, opus);
    expect(sealed[0]).toBe(7);
    expect(sealed.length).toBe(1 + 12 + opus.length + 16);
    expect(Buffer.from(sealed).includes(Buffer.from(opus))).toBe(false);
    const opened = await openVoiceFrame(sealed, (version) => (version === 7 ? key : null));
    expect(opened).toEqual({ status: 'sealed', version: 7, frame: opus });
  });

  it('drops a frame without the key of its version, and one under another key', async () => {
    const key = await importAesGcmKey(raw(1));
    const other = await importAesGcmKey(raw(2));
    const sealed = await sealVoiceFrame(key, 3, opus);
    expect(await openVoiceFrame(sealed, () => null)).toEqual({ status: 'no-key', version: 3 });
    expect(await openVoiceFrame(sealed, () => other)).toEqual({ status: 'failed' });
  });

  it('binds the version byte: a frame relabelled to another version fails', async () => {
    const key = await importAesGcmKey(raw(1));
    const sealed = await sealVoiceFrame(key, 3, opus);
    sealed[0] = 4;
    expect(await openVoiceFrame(sealed, () => key)).toEqual({ status: 'failed' });
  });

  it('marks clear frames with 0x00 and refuses short or bad versions', async () => {
    expect(await openVoiceFrame(clearVoiceFrame(opus), () => null)).toEqual({
      status: 'clear',
      frame: opus,
    });
    expect(await openVoiceFrame(Uint8Array.of(5, 1, 2), () => null)).toEqual({ status: 'failed' });
    expect(await openVoiceFrame(new Uint8Array(0), () => null)).toEqual({ status: 'failed' });
    const key = await importAesGcmKey(raw(1));
    await expect(sealVoiceFrame(key, 0, opus)).rejects.toThrow(RangeError);
    await expect(sealVoiceFrame(key, 256, opus)).rejects.toThrow(RangeError);
  });

  it('counts key versions 1..255 and wraps to 1, never 0', () => {
    expect(nextFrameKeyVersion(0)).toBe(1);
    expect(nextFrameKeyVersion(254)).toBe(255);
    expect(nextFrameKeyVersion(255)).toBe(1);
  });

  it('carries a voice frame key in the sender-key payload', () => {
    const grant = { secret: 'voice' as const, callKeyId: 'call_abc', version: 9, key: raw(5) };
    expect(decodeSenderKeyPayload(encodeVoiceKeyPayload(grant))).toEqual(grant);
    const bad = new TextEncoder().encode(
      JSON.stringify({
        v: 2,
        k: 'x',
        s: 'voice',
        key: Buffer.from(raw(1)).toString('base64'),
        i: 0,
      }),
    );
    expect(() => decodeSenderKeyPayload(bad)).toThrow();
  });
});
