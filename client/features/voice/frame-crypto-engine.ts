/**
 * The call's end-to-end frame encryption (docs/crypto-room.md §15 "Voice"), run by the worker of
 * frame-crypto-worker.ts and, in Node, by the tests: every encoded audio frame this browser sends
 * is sealed under its own current frame key (shared/crypto/voice/voice-frame.ts), every frame
 * received is opened with the sending participant's key of the frame's version. Frames are
 * dropped, never passed on unopened, when no key fits or the tag fails; a clear frame (0x00) is
 * played only from a participant whose signed "encryption off" the page verified and that has not
 * lapsed (`peer-clear` with `clearUntil`, call-encryption-status.ts). A frame whose key has not
 * arrived yet is held (a bounded number per sender) and opened when it comes; each peer's frames
 * are sealed only under a key handed to that peer (frame-keys.ts).
 *
 * The page hands keys in as raw bytes; they are imported non-extractable here and the bytes are
 * wiped. Per-peer counters tell the page whose frames are refused, for the window to say so.
 */
import {
  clearVoiceFrame,
  openVoiceFrame,
  sealVoiceFrame,
  type OpenedVoiceFrame,
} from '../../../shared/crypto/voice/voice-frame.js';
import { importAesGcmKey } from '../../../shared/crypto/room/aes-gcm.js';
import { type WebCryptoKey } from '../../../shared/crypto/room/webcrypto.js';
import {
  type FrameCryptoCounters,
  type FrameCryptoMessage,
  type FrameCryptoReply,
  type PeerFrameCounters,
} from './frame-crypto-protocol.js';
import { HeldFrames, OwnFrameKeys } from './frame-keys.js';

export interface EncodedFrame {
  data: ArrayBuffer;
}
export interface TransformOptions {
  direction: 'send' | 'receive';
  nodeId: string;
}
interface PeerKeys {
  /** version → key, with when it was replaced (null: current). */
  keys: Map<number, { key: WebCryptoKey; retiredAt: number | null }>;
  /** Until when (ms, Date.now) clear frames of this peer may play; null: never. */
  clearUntil: number | null;
}

/**
 * Frames held per sender while their key is on its way: 50 is 1 s of 20 ms frames, more than the
 * key channel takes when the call starts or a newcomer is handed a key.
 */
export const HELD_FRAMES_PER_SENDER = 50;

interface HeldFrame {
  frame: EncodedFrame;
  controller: TransformStreamDefaultController<EncodedFrame>;
}

export interface FrameCryptoEngine {
  handle(message: FrameCryptoMessage): void;
  pipe(readable: ReadableStream, writable: WritableStream, options: TransformOptions): void;
}

/** One call's frame crypto; `post` carries replies to the page. */
export function createFrameCryptoEngine(
  post: (reply: FrameCryptoReply) => void,
  now: () => number = Date.now,
): FrameCryptoEngine {
  const own = new OwnFrameKeys<WebCryptoKey>();
  const held = new HeldFrames<HeldFrame>(HELD_FRAMES_PER_SENDER);
  /** Own keys being imported, in order, so an activation follows its key. */
  let ownKeyWork: Promise<void> = Promise.resolve();
  let isEncrypting = true;
  let graceMs = 10_000;
  const peers = new Map<string, PeerKeys>();
  const counters: FrameCryptoCounters = {
    transforms: 0,
    received: 0,
    sealed: 0,
    sentClear: 0,
    withheld: 0,
    opened: 0,
    receivedClear: 0,
    noKey: 0,
    failed: 0,
    held: 0,
    empty: 0,
  };
  const perPeer = new Map<string, PeerFrameCounters>();

  function peerCounters(nodeId: string): PeerFrameCounters {
    let entry = perPeer.get(nodeId);
    if (!entry) {
      entry = { opened: 0, receivedClear: 0, refusedClear: 0, failed: 0 };
      perPeer.set(nodeId, entry);
    }
    return entry;
  }

  function peer(nodeId: string): PeerKeys {
    let entry = peers.get(nodeId);
    if (!entry) {
      entry = { keys: new Map(), clearUntil: null };
      peers.set(nodeId, entry);
    }
    return entry;
  }

  function keyFor(nodeId: string, version: number): WebCryptoKey | null {
    const entry = peers.get(nodeId)?.keys.get(version);
    if (!entry) return null;
    if (entry.retiredAt !== null && now() - entry.retiredAt > graceMs) return null;
    return entry.key;
  }

  async function sendTransform(nodeId: string, frame: EncodedFrame): Promise<EncodedFrame | null> {
    const data = new Uint8Array(frame.data);
    if (!isEncrypting) {
      counters.sentClear++;
      frame.data = clearVoiceFrame(data).slice().buffer;
      return frame;
    }
    // Encryption on but no key this peer was handed: nothing leaves rather than audio in clear.
    const key = own.sealingKeyFor(nodeId);
    if (!key) {
      counters.withheld++;
      return null;
    }
    const sealed = await sealVoiceFrame(key.key, key.version, data);
    frame.data = sealed.slice().buffer;
    counters.sealed++;
    return frame;
  }

  async function receiveTransform(
    nodeId: string,
    frame: EncodedFrame,
    controller: TransformStreamDefaultController<EncodedFrame>,
  ): Promise<EncodedFrame | null> {
    counters.received++;
    // RTP padding (bandwidth probes) reaches the transform as an empty frame: no audio, dropped.
    if (frame.data.byteLength === 0) {
      counters.empty++;
      return null;
    }
    const open = () =>
      openVoiceFrame(new Uint8Array(frame.data), (version) => keyFor(nodeId, version));
    let opened = await open();
    // The key may have come while this frame was being opened.
    if (opened.status === 'no-key' && keyFor(nodeId, opened.version)) opened = await open();
    if (opened.status === 'no-key') {
      // Its key may be on its way (a call's start, a newcomer's key): held until it comes. No
      // await between the look-up and the hold, so a key that comes now releases this frame.
      if (held.hold(nodeId, opened.version, { frame, controller })) counters.noKey++;
      return null;
    }
    return accept(nodeId, frame, opened);
  }

  /** Frames of `nodeId` under `version` that waited for its key: opened and passed on, in order. */
  async function releaseHeld(nodeId: string, version: number): Promise<void> {
    for (const { frame, controller } of held.release(nodeId, version)) {
      const opened = await openVoiceFrame(new Uint8Array(frame.data), (wanted) =>
        keyFor(nodeId, wanted),
      );
      const out = accept(nodeId, frame, opened);
      if (!out) continue;
      counters.held++;
      try {
        controller.enqueue(out);
      } catch {
        // The receiver closed meanwhile: nothing to play it to.
      }
    }
  }

  /** Counts an opened frame and gives what to pass on, or null to drop it. */
  function accept(
    nodeId: string,
    frame: EncodedFrame,
    opened: OpenedVoiceFrame,
  ): EncodedFrame | null {
    const mine = peerCounters(nodeId);
    if (opened.status === 'sealed') {
      counters.opened++;
      mine.opened++;
      frame.data = opened.frame.slice().buffer;
      return frame;
    }
    if (opened.status === 'clear') {
      // Only under the sender's own verified word, never the relay's: else muted.
      const until = peers.get(nodeId)?.clearUntil ?? null;
      if (until === null || now() >= until) {
        counters.failed++;
        mine.refusedClear++;
        return null;
      }
      counters.receivedClear++;
      mine.receivedClear++;
      frame.data = opened.frame.slice().buffer;
      return frame;
    }
    if (opened.status === 'no-key') counters.noKey++;
    else {
      counters.failed++;
      mine.failed++;
    }
    return null;
  }

  function pipe(
    readable: ReadableStream,
    writable: WritableStream,
    options: TransformOptions,
  ): void {
    counters.transforms++;
    const transform = new TransformStream<EncodedFrame, EncodedFrame>({
      async transform(frame, controller) {
        const out =
          options.direction === 'send'
            ? await sendTransform(options.nodeId, frame)
            : await receiveTransform(options.nodeId, frame, controller);
        if (out) controller.enqueue(out);
      },
    });
    void readable
      .pipeThrough(transform)
      .pipeTo(writable)
      .catch(() => undefined);
  }

  function handle(message: FrameCryptoMessage): void {
    switch (message.type) {
      case 'streams':
        pipe(message.readable, message.writable, {
          direction: message.direction,
          nodeId: message.nodeId,
        });
        break;
      case 'own-key':
        ownKeyWork = ownKeyWork.then(async () => {
          const key = await importAesGcmKey(message.raw);
          message.raw.fill(0);
          own.add(message.version, key);
        });
        break;
      case 'activate-own-key':
        ownKeyWork = ownKeyWork.then(() => {
          if (own.activate(message.version))
            post({ type: 'own-key-active', version: message.version });
        });
        break;
      case 'own-key-handed':
        own.handed(message.nodeId, message.version);
        break;
      case 'peer-key':
        void importAesGcmKey(message.raw).then((key) => {
          message.raw.fill(0);
          const entry = peer(message.nodeId);
          const at = now();
          for (const old of entry.keys.values()) old.retiredAt ??= at;
          entry.keys.set(message.version, { key, retiredAt: null });
          for (const [version, old] of entry.keys) {
            if (old.retiredAt !== null && at - old.retiredAt > graceMs) entry.keys.delete(version);
          }
          return releaseHeld(message.nodeId, message.version);
        });
        break;
      case 'peer-clear':
        peer(message.nodeId).clearUntil = message.clearUntil;
        break;
      case 'forget-peer':
        peers.delete(message.nodeId);
        perPeer.delete(message.nodeId);
        own.forget(message.nodeId);
        counters.noKey += held.forget(message.nodeId);
        break;
      case 'encrypt':
        isEncrypting = message.enabled;
        break;
      case 'config':
        graceMs = message.previousKeyGraceMs;
        break;
      case 'stats':
        post({
          type: 'stats',
          counters: { ...counters },
          peers: Object.fromEntries([...perPeer].map(([nodeId, entry]) => [nodeId, { ...entry }])),
        });
        break;
    }
  }

  return { handle, pipe };
}
