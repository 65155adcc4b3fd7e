/**
 * Frames held at a call's start against a hostile participant and a lying relay (SECURITY.md
 * "Voice calls", docs/crypto-room.md §15). A receiver holds a sealed frame whose key has not
 * arrived (client/features/voice/frame-keys.ts `HeldFrames`, as the frame worker uses it) and opens
 * it once the key of that version comes from that sender through the key channel. What an
 * attacker could try with the hold: fill the receiver's memory, push an honest sender's frames
 * out, or get a frame of its own played under an honest sender's key.
 */
import { describe, expect, it } from 'vitest';
import { importAesGcmKey } from '../../shared/crypto/room/aes-gcm.js';
import { type WebCryptoKey } from '../../shared/crypto/room/webcrypto.js';
import { openVoiceFrame, sealVoiceFrame } from '../../shared/crypto/voice/voice-frame.js';
import { HeldFrames } from '../../client/features/voice/frame-keys.js';

/** The bound the frame worker uses: 1 s of 20 ms frames per sender. */
const BOUND = 50;
const opus = (n: number) => Uint8Array.from({ length: 40 }, (_, i) => (n * 17 + i) & 0xff);
const key = (fill: number) => importAesGcmKey(new Uint8Array(32).fill(fill));

/** The receive side of the frame worker for one call: keys per sender, frames held per sender. */
class Receiver {
  readonly held = new HeldFrames<Uint8Array>(BOUND);
  readonly keys = new Map<string, Map<number, WebCryptoKey>>();
  readonly played: { from: string; frame: Uint8Array }[] = [];
  dropped = 0;

  async receive(from: string, data: Uint8Array): Promise<void> {
    const opened = await openVoiceFrame(data, (version) => this.keyOf(from, version));
    if (opened.status === 'sealed') this.played.push({ from, frame: opened.frame });
    else if (opened.status === 'no-key') {
      if (this.held.hold(from, opened.version, data)) this.dropped += 1;
    } else this.dropped += 1;
  }

  /** A key of `from` arrives through the (authenticated) key channel: its held frames open. */
  async keyArrives(from: string, version: number, frameKey: WebCryptoKey): Promise<void> {
    const keys = this.keys.get(from) ?? new Map<number, WebCryptoKey>();
    keys.set(version, frameKey);
    this.keys.set(from, keys);
    for (const data of this.held.release(from, version)) await this.receive(from, data);
  }

  private keyOf(from: string, version: number): WebCryptoKey | null {
    return this.keys.get(from)?.get(version) ?? null;
  }
}

describe('a hostile participant against the frames held at a call start', () => {
  it('cannot fill memory or push out an honest sender: at most 50 of its frames are held, none played', async () => {
    const alice = new Receiver();
    const bobKey = await key(2);
    const bobFrames = await Promise.all(
      Array.from({ length: 20 }, (_, n) => sealVoiceFrame(bobKey, 1, opus(n))),
    );
    for (const frame of bobFrames) await alice.receive('bob', frame);
    // mallory sends 2,000 frames under every version, with keys she never hands out.
    const malloryKey = await key(9);
    for (let n = 0; n < 2000; n += 1)
      await alice.receive('mallory', await sealVoiceFrame(malloryKey, (n % 255) + 1, opus(n)));

    expect(alice.dropped).toBe(2000 - BOUND);
    expect(alice.played).toEqual([]);
    // bob's key arrives: all of his frames open, in order, none lost to mallory's flood.
    await alice.keyArrives('bob', 1, bobKey);
    expect(alice.played.map((entry) => entry.from)).toEqual(bobFrames.map(() => 'bob'));
    expect(alice.played.map((entry) => entry.frame)).toEqual(bobFrames.map((_, n) => opus(n)));
  });

  it("cannot get its frames played under an honest sender's key, by version or by relabelling", async () => {
    const alice = new Receiver();
    const bobKey = await key(2);
    const malloryKey = await key(9);
    // mallory's frames labelled with bob's version wait under mallory, not under bob.
    for (let n = 0; n < 5; n += 1)
      await alice.receive('mallory', await sealVoiceFrame(malloryKey, 3, opus(n)));
    await alice.keyArrives('bob', 3, bobKey);
    expect(alice.played).toEqual([]);
    expect(alice.held.forget('mallory')).toBe(5);

    // A lying relay injects into bob's stream frames sealed under a key of its own, labelled with
    // bob's next version, before bob's key arrives: held, then refused by bob's real key.
    const relayKey = await key(7);
    for (let n = 0; n < 5; n += 1)
      await alice.receive('bob', await sealVoiceFrame(relayKey, 4, opus(100 + n)));
    const bobsOwn = await sealVoiceFrame(bobKey, 4, opus(7));
    await alice.receive('bob', bobsOwn);
    // The relay also rewrites one of bob's frames' version byte (the tag covers it).
    const relabelled = Uint8Array.from(bobsOwn);
    relabelled[0] = 5;
    await alice.receive('bob', relabelled);
    await alice.keyArrives('bob', 4, bobKey);
    await alice.keyArrives('bob', 5, bobKey);
    expect(alice.played.map((entry) => entry.frame)).toEqual([opus(7)]);
    expect(alice.dropped).toBe(6);
  });

  it('drops frames too short to be sealed instead of holding them', async () => {
    const alice = new Receiver();
    for (let length = 1; length < 29; length += 1)
      await alice.receive('mallory', new Uint8Array(length).fill(3));
    expect(alice.dropped).toBe(28);
    expect(alice.held.forget('mallory')).toBe(0);
  });
});
