/**
 * The start of a call without lost frames (client/features/voice/frame-keys.ts): each peer's
 * frames are sealed only under a key handed to that peer, and a receiver holds frames whose key
 * is still on its way, a bounded number, opening them when it comes.
 */
import { describe, expect, it } from 'vitest';
import { importAesGcmKey } from '../../shared/crypto/room/aes-gcm.js';
import { type WebCryptoKey } from '../../shared/crypto/room/webcrypto.js';
import { openVoiceFrame, sealVoiceFrame } from '../../shared/crypto/voice/voice-frame.js';
import { HeldFrames, OwnFrameKeys } from '../../client/features/voice/frame-keys.js';

const opus = (n: number) => Uint8Array.from({ length: 40 }, (_, i) => (n * 31 + i) & 0xff);
const key = (fill: number) => importAesGcmKey(new Uint8Array(32).fill(fill));

describe('which own key seals a frame for a peer', () => {
  it('gives a newcomer the key made for its arrival at once, the others the active key', () => {
    const own = new OwnFrameKeys<string>();
    // alice is alone: her first key is active at once and handed to nobody.
    own.add(1, 'k1');
    own.activate(1);
    expect(own.sealingKeyFor('bob')).toBeNull();
    // bob joins: a new key, handed to him, not yet active (others may not have it yet).
    own.add(2, 'k2');
    own.handed('bob', 2);
    expect(own.sealingKeyFor('bob')).toEqual({ version: 2, key: 'k2' });
    expect(own.activeVersion).toBe(1);
    // Once active, it seals for everyone who has it.
    own.activate(2);
    expect(own.sealingKeyFor('bob')).toEqual({ version: 2, key: 'k2' });
  });

  it('keeps sealing under the active key for peers that have it until the new one is active', () => {
    const own = new OwnFrameKeys<string>();
    own.add(4, 'k4');
    own.activate(4);
    own.handed('carol', 4);
    own.add(5, 'k5');
    own.handed('carol', 5);
    expect(own.sealingKeyFor('carol')).toEqual({ version: 4, key: 'k4' });
    own.activate(5);
    expect(own.sealingKeyFor('carol')).toEqual({ version: 5, key: 'k5' });
  });

  it('withholds frames from a peer without the active key, never sealing under an older one', () => {
    const own = new OwnFrameKeys<string>();
    own.add(1, 'k1');
    own.activate(1);
    own.handed('carol', 1);
    own.handed('dave', 1);
    // dave leaves: the next key does not reach carol yet (her bundle is being fetched).
    own.forget('dave');
    own.add(2, 'k2');
    own.activate(2);
    expect(own.sealingKeyFor('carol')).toBeNull();
    expect(own.sealingKeyFor('dave')).toBeNull();
    own.handed('carol', 2);
    expect(own.sealingKeyFor('carol')).toEqual({ version: 2, key: 'k2' });
    // An activation of a key the worker never got changes nothing.
    expect(own.activate(3)).toBe(false);
    expect(own.activeVersion).toBe(2);
  });
});

describe('frames held until their key arrives', () => {
  /** The receive side of the worker: open, else hold; the key's arrival releases. */
  async function receive(
    held: HeldFrames<Uint8Array>,
    keys: Map<number, WebCryptoKey>,
    data: Uint8Array,
  ): Promise<'opened' | 'held' | 'dropped'> {
    const opened = await openVoiceFrame(data, (version) => keys.get(version) ?? null);
    if (opened.status === 'sealed') return 'opened';
    if (opened.status !== 'no-key') return 'dropped';
    return held.hold('alice', opened.version, data) ? 'dropped' : 'held';
  }

  it('opens every frame that came before its key, in order, and drops none', async () => {
    const k2 = await key(2);
    const frames = await Promise.all(
      Array.from({ length: 17 }, (_, n) => sealVoiceFrame(k2, 2, opus(n))),
    );
    const held = new HeldFrames<Uint8Array>(50);
    const keys = new Map<number, WebCryptoKey>();
    for (const frame of frames) expect(await receive(held, keys, frame)).toBe('held');
    keys.set(2, k2);
    const released = held.release('alice', 2);
    expect(released).toEqual(frames);
    const opened = await Promise.all(released.map((data) => openVoiceFrame(data, () => k2)));
    expect(opened.map((result) => (result.status === 'sealed' ? result.frame : null))).toEqual(
      frames.map((_, n) => opus(n)),
    );
    expect(held.release('alice', 2)).toEqual([]);
    // Later frames open directly.
    expect(await receive(held, keys, await sealVoiceFrame(k2, 2, opus(99)))).toBe('opened');
  });

  it('holds a bounded number per sender, dropping the oldest past it', async () => {
    const k3 = await key(3);
    const held = new HeldFrames<Uint8Array>(50);
    const keys = new Map<number, WebCryptoKey>();
    const outcomes: string[] = [];
    const frames: Uint8Array[] = [];
    for (let n = 0; n < 60; n += 1) {
      frames.push(await sealVoiceFrame(k3, 3, opus(n)));
      outcomes.push(await receive(held, keys, frames[n]!));
    }
    expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(50);
    expect(outcomes.filter((outcome) => outcome === 'dropped')).toHaveLength(10);
    expect(held.release('alice', 3)).toEqual(frames.slice(10));
  });

  it('releases only the version whose key came, and forgets a sender that left', () => {
    const held = new HeldFrames<string>(50);
    held.hold('alice', 2, 'a2');
    held.hold('alice', 3, 'a3');
    held.hold('bob', 2, 'b2');
    expect(held.release('alice', 2)).toEqual(['a2']);
    expect(held.forget('alice')).toBe(1);
    expect(held.release('alice', 3)).toEqual([]);
    expect(held.release('bob', 2)).toEqual(['b2']);
  });
});
