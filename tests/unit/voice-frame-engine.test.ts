/**
 * The frame-encryption engine the call's worker runs (client/features/voice/frame-crypto-engine.ts)
 * and clear frames: refused without a verified "encryption off" for that peer, played while one is
 * in force, refused again once it lapses or is withdrawn; each refusal is counted for that peer,
 * for the call window to say who is muted.
 */
import { describe, expect, it } from 'vitest';
import {
  createFrameCryptoEngine,
  type EncodedFrame,
} from '../../client/features/voice/frame-crypto-engine.js';
import { type FrameCryptoReply } from '../../client/features/voice/frame-crypto-protocol.js';
import { clearVoiceFrame } from '../../shared/crypto/voice/voice-frame.js';

const opus = (n: number) => Uint8Array.from({ length: 20 }, (_, i) => (n + i) & 0xff);

function receiver() {
  const clock = { now: 1_000_000 };
  const replies: FrameCryptoReply[] = [];
  const engine = createFrameCryptoEngine(
    (reply) => replies.push(reply),
    () => clock.now,
  );
  const wire = new TransformStream<EncodedFrame, EncodedFrame>();
  const played: Uint8Array[] = [];
  engine.pipe(
    wire.readable,
    new WritableStream<EncodedFrame>({
      write: (frame) => void played.push(new Uint8Array(frame.data)),
    }),
    { direction: 'receive', nodeId: 'node-alice' },
  );
  const writer = wire.writable.getWriter();
  const arrive = async (bytes: Uint8Array) => {
    await writer.write({ data: bytes.slice().buffer });
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const peerStats = () => {
    engine.handle({ type: 'stats' });
    const last = replies.at(-1);
    return last?.type === 'stats' ? last.peers['node-alice'] : undefined;
  };
  return { clock, engine, played, arrive, peerStats };
}

describe('clear frames in the frame engine', () => {
  it('plays them only while the peer’s verified "off" is in force', async () => {
    const r = receiver();
    await r.arrive(clearVoiceFrame(opus(1)));
    expect(r.played).toEqual([]);
    expect(r.peerStats()).toMatchObject({ refusedClear: 1, receivedClear: 0 });

    r.engine.handle({ type: 'peer-clear', nodeId: 'node-alice', clearUntil: r.clock.now + 65_000 });
    await r.arrive(clearVoiceFrame(opus(2)));
    expect(r.played).toEqual([opus(2)]);

    // It lapses.
    r.clock.now += 65_000;
    await r.arrive(clearVoiceFrame(opus(3)));
    expect(r.played).toEqual([opus(2)]);

    // Renewed, then withdrawn ("on").
    r.engine.handle({ type: 'peer-clear', nodeId: 'node-alice', clearUntil: r.clock.now + 65_000 });
    await r.arrive(clearVoiceFrame(opus(4)));
    r.engine.handle({ type: 'peer-clear', nodeId: 'node-alice', clearUntil: null });
    await r.arrive(clearVoiceFrame(opus(5)));
    expect(r.played).toEqual([opus(2), opus(4)]);
    expect(r.peerStats()).toMatchObject({ refusedClear: 3, receivedClear: 2, failed: 0 });

    // A peer that leaves is forgotten, "off" included.
    r.engine.handle({ type: 'peer-clear', nodeId: 'node-alice', clearUntil: r.clock.now + 65_000 });
    r.engine.handle({ type: 'forget-peer', nodeId: 'node-alice' });
    await r.arrive(clearVoiceFrame(opus(6)));
    expect(r.played).toEqual([opus(2), opus(4)]);
  });
});
