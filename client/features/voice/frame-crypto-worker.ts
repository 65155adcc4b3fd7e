/**
 * The call's end-to-end frame encryption, in a worker (docs/crypto-room.md "Voice"): every encoded
 * audio frame this browser sends is sealed under its own current frame key
 * (shared/crypto/voice/voice-frame.ts), every frame received is opened with the sending
 * participant's key of the frame's version. Frames are dropped, never passed on unopened, when
 * no key fits or the tag fails; a clear frame (0x00) is played only from a participant who
 * announced encryption off.
 *
 * Streams arrive either as `rtctransform` events (RTCRtpScriptTransform) or, where only
 * `createEncodedStreams` exists, posted by the page. The page hands keys in as raw bytes; they
 * are imported non-extractable here and the bytes are wiped.
 */
import {
  clearVoiceFrame,
  openVoiceFrame,
  sealVoiceFrame,
} from '../../../shared/crypto/voice/voice-frame.js';
import { importAesGcmKey } from '../../../shared/crypto/room/aes-gcm.js';
import { type WebCryptoKey } from '../../../shared/crypto/room/webcrypto.js';
import { type FrameCryptoCounters, type FrameCryptoMessage } from './frame-crypto-protocol.js';

interface EncodedFrame {
  data: ArrayBuffer;
}
interface TransformOptions {
  direction: 'send' | 'receive';
  nodeId: string;
}
interface PeerKeys {
  /** version → key, with when it was replaced (null: current). */
  keys: Map<number, { key: WebCryptoKey; retiredAt: number | null }>;
  allowsClear: boolean;
}

const scope = globalThis as unknown as {
  postMessage: (message: unknown) => void;
  onmessage: ((event: MessageEvent<FrameCryptoMessage>) => void) | null;
  onrtctransform?: (event: {
    transformer: { readable: ReadableStream; writable: WritableStream; options: TransformOptions };
  }) => void;
};

let own: { key: WebCryptoKey; version: number } | null = null;
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
};

function peer(nodeId: string): PeerKeys {
  let entry = peers.get(nodeId);
  if (!entry) {
    entry = { keys: new Map(), allowsClear: false };
    peers.set(nodeId, entry);
  }
  return entry;
}

function keyFor(nodeId: string, version: number): WebCryptoKey | null {
  const entry = peers.get(nodeId)?.keys.get(version);
  if (!entry) return null;
  if (entry.retiredAt !== null && Date.now() - entry.retiredAt > graceMs) return null;
  return entry.key;
}

async function sendTransform(frame: EncodedFrame): Promise<EncodedFrame | null> {
  const data = new Uint8Array(frame.data);
  if (!isEncrypting) {
    counters.sentClear++;
    frame.data = clearVoiceFrame(data).slice().buffer;
    return frame;
  }
  // Encryption on but no key yet: nothing leaves rather than audio in clear.
  if (!own) {
    counters.withheld++;
    return null;
  }
  const sealed = await sealVoiceFrame(own.key, own.version, data);
  frame.data = sealed.slice().buffer;
  counters.sealed++;
  return frame;
}

async function receiveTransform(nodeId: string, frame: EncodedFrame): Promise<EncodedFrame | null> {
  counters.received++;
  const opened = await openVoiceFrame(new Uint8Array(frame.data), (version) =>
    keyFor(nodeId, version),
  );
  if (opened.status === 'sealed') {
    counters.opened++;
    frame.data = opened.frame.slice().buffer;
    return frame;
  }
  if (opened.status === 'clear') {
    if (!peers.get(nodeId)?.allowsClear) {
      counters.failed++;
      return null;
    }
    counters.receivedClear++;
    frame.data = opened.frame.slice().buffer;
    return frame;
  }
  if (opened.status === 'no-key') counters.noKey++;
  else counters.failed++;
  return null;
}

function pipe(readable: ReadableStream, writable: WritableStream, options: TransformOptions): void {
  counters.transforms++;
  const transform = new TransformStream<EncodedFrame, EncodedFrame>({
    async transform(frame, controller) {
      const out =
        options.direction === 'send'
          ? await sendTransform(frame)
          : await receiveTransform(options.nodeId, frame);
      if (out) controller.enqueue(out);
    },
  });
  void readable
    .pipeThrough(transform)
    .pipeTo(writable)
    .catch(() => undefined);
}

scope.onrtctransform = (event) => {
  const { readable, writable, options } = event.transformer;
  pipe(readable, writable, options);
};

scope.onmessage = (event) => {
  const message = event.data;
  switch (message.type) {
    case 'streams':
      pipe(message.readable, message.writable, {
        direction: message.direction,
        nodeId: message.nodeId,
      });
      break;
    case 'own-key':
      void importAesGcmKey(message.raw).then((key) => {
        message.raw.fill(0);
        own = { key, version: message.version };
        scope.postMessage({ type: 'own-key-active', version: message.version });
      });
      break;
    case 'peer-key':
      void importAesGcmKey(message.raw).then((key) => {
        message.raw.fill(0);
        const entry = peer(message.nodeId);
        const now = Date.now();
        for (const old of entry.keys.values()) old.retiredAt ??= now;
        entry.keys.set(message.version, { key, retiredAt: null });
        for (const [version, old] of entry.keys) {
          if (old.retiredAt !== null && now - old.retiredAt > graceMs) entry.keys.delete(version);
        }
      });
      break;
    case 'peer-clear':
      peer(message.nodeId).allowsClear = message.allowsClear;
      break;
    case 'forget-peer':
      peers.delete(message.nodeId);
      break;
    case 'encrypt':
      isEncrypting = message.enabled;
      break;
    case 'config':
      graceMs = message.previousKeyGraceMs;
      break;
    case 'stats':
      scope.postMessage({ type: 'stats', counters: { ...counters } });
      break;
  }
};
