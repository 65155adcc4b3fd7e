/**
 * A voice call in Node that runs the REAL client classes — VoiceCall (client/features/voice/
 * voice-call.ts) over a NodeMember's socket and RoomKeyManager, and the frame-encryption engine
 * the browser's worker runs (frame-crypto-engine.ts), in-process — with WebRTC and Web Audio
 * replaced by fakes that carry no media. Encoded frames are the test's: `send(to, opus)` passes a
 * frame through this participant's send transform for one peer and returns what would go on the
 * wire (sealed, clear, or nothing: withheld); `receive(from, bytes)` puts bytes on the wire from a
 * peer (as a relay in the media path could) and `played(from)` is what the receive transform let
 * through to the speaker.
 *
 * The fakes are the `createEncodedStreams` kind of browser (Chromium's encoded insertable
 * streams): every sender and receiver of a peer connection hands its encoded streams to the page,
 * which posts them to the worker named by peer node id, which is where this file taps them.
 */
import { vi } from 'vitest';
import {
  createFrameCryptoEngine,
  type EncodedFrame,
} from '../../../client/features/voice/frame-crypto-engine.js';
import {
  type FrameCryptoMessage,
  type FrameCryptoReply,
} from '../../../client/features/voice/frame-crypto-protocol.js';
import { statusKeysOf } from '../../../client/features/voice/call-encryption-status.js';
import { VoiceCall, type CallSocket } from '../../../client/features/voice/voice-call.js';
import { DEFAULT_VOICE_SETTINGS } from '../../../client/features/voice/voice-settings.js';
import { type NodeMember } from './node-member.js';

/** One encoded-stream pair: the test writes into `input`, the transform's output is in `output`. */
interface Tap {
  input: WritableStreamDefaultWriter<EncodedFrame>;
  output: Uint8Array[];
}

const TAP = Symbol('tap');
type Tapped = { [TAP]?: Tap };

function encodedStreams(): { readable: ReadableStream; writable: WritableStream } {
  const wire = new TransformStream<EncodedFrame, EncodedFrame>();
  const output: Uint8Array[] = [];
  const writable = new WritableStream<EncodedFrame>({
    write: (frame) => {
      output.push(new Uint8Array(frame.data));
    },
  });
  (wire.readable as Tapped)[TAP] = { input: wire.writable.getWriter(), output };
  return { readable: wire.readable, writable };
}

class FakeTrack {
  kind = 'audio';
  enabled = true;
  readyState = 'live';
  stop() {
    this.readyState = 'ended';
  }
}

class FakeStream {
  constructor(private readonly tracks: FakeTrack[] = [new FakeTrack()]) {}
  getTracks() {
    return this.tracks;
  }
  getAudioTracks() {
    return this.tracks;
  }
}

class FakeEndpoint {
  transform: unknown = undefined;
  createEncodedStreams() {
    return encodedStreams();
  }
}

class FakePeerConnection {
  connectionState = 'new';
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  onconnectionstatechange: (() => void) | null = null;
  readonly transceivers: { sender: FakeEndpoint & { track: FakeTrack }; receiver: FakeEndpoint }[] =
    [];
  addTrack(track: FakeTrack) {
    const sender = Object.assign(new FakeEndpoint(), { track });
    this.transceivers.push({ sender, receiver: new FakeEndpoint() });
    return sender;
  }
  getTransceivers() {
    return this.transceivers;
  }
  getSenders() {
    return this.transceivers.map((transceiver) => transceiver.sender);
  }
  createOffer() {
    return Promise.resolve({ type: 'offer', sdp: 'v=0 offer' });
  }
  createAnswer() {
    return Promise.resolve({ type: 'answer', sdp: 'v=0 answer' });
  }
  setLocalDescription() {
    return Promise.resolve();
  }
  setRemoteDescription() {
    return Promise.resolve();
  }
  addIceCandidate() {
    return Promise.resolve();
  }
  getStats() {
    return Promise.resolve(new Map());
  }
  close() {
    this.connectionState = 'closed';
  }
}

/** Puts the fakes in place (an encoded-insertable-streams browser); undo with vi.unstubAllGlobals. */
export function installCallFakes(): void {
  const context = {
    state: 'running',
    audioWorklet: { addModule: () => Promise.resolve() },
    createMediaStreamSource: () => ({ connect: (node: unknown) => node }),
    createMediaStreamDestination: () => ({ channelCount: 1, stream: new FakeStream() }),
    resume: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  vi.stubGlobal('window', globalThis);
  vi.stubGlobal('navigator', {
    mediaDevices: { getUserMedia: () => Promise.resolve(new FakeStream()) },
  });
  vi.stubGlobal(
    'AudioContext',
    vi.fn(function AudioContext() {
      return context;
    }),
  );
  vi.stubGlobal(
    'AudioWorkletNode',
    vi.fn(function AudioWorkletNode() {
      return {
        connect: (node: unknown) => node,
        disconnect: () => undefined,
        port: { postMessage: () => undefined },
      };
    }),
  );
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('RTCRtpScriptTransform', undefined);
  vi.stubGlobal('RTCRtpSender', FakeEndpoint);
  vi.stubGlobal('MediaStream', FakeStream);
}

export class NodeCall {
  readonly call: VoiceCall;
  readonly #taps = new Map<string, Tap>();

  private constructor(readonly member: NodeMember) {
    const socket: CallSocket = {
      send: (frame) => member.send(frame),
      on: (type, listener) =>
        member.on((frame) => {
          if (frame.type === type) listener(frame as never);
        }),
    };
    this.call = new VoiceCall({
      socket,
      keys: member.manager,
      statusKeys: statusKeysOf(member.manager),
      roomId: member.manager.room!.roomId,
      selfNodeId: member.nodeId,
      username: member.options.username,
      settings: DEFAULT_VOICE_SETTINGS,
      getIceServers: () => Promise.resolve([]),
      isTor: false,
      workletUrl: '/worklet.js',
      createWorker: () => this.#worker(),
    });
  }

  /** Joins the room's call (voice_call_start) with the member's keys. */
  static async start(member: NodeMember): Promise<NodeCall> {
    const call = new NodeCall(member);
    await call.call.start();
    if (call.call.getState().error) throw new Error(call.call.getState().error!);
    return call;
  }

  /** A worker whose engine runs here; the streams it is handed are tapped by peer and direction. */
  #worker(): Worker {
    const fake = {
      onmessage: null as ((event: { data: FrameCryptoReply }) => void) | null,
      postMessage: (message: FrameCryptoMessage) => {
        if (message.type === 'streams') {
          const tap = (message.readable as Tapped)[TAP];
          if (tap) this.#taps.set(`${message.direction}:${message.nodeId}`, tap);
        }
        engine.handle(message);
      },
      terminate: () => undefined,
    };
    const engine = createFrameCryptoEngine((reply) =>
      queueMicrotask(() => fake.onmessage?.({ data: reply })),
    );
    return fake as unknown as Worker;
  }

  #tap(direction: 'send' | 'receive', nodeId: string): Tap {
    const tap = this.#taps.get(`${direction}:${nodeId}`);
    if (!tap) throw new Error(`no ${direction} transform for ${nodeId} yet`);
    return tap;
  }

  hasPeer(nodeId: string): boolean {
    return this.#taps.has(`send:${nodeId}`) && this.#taps.has(`receive:${nodeId}`);
  }

  /** One encoded frame through the send transform to `nodeId`: what leaves, or null (withheld). */
  async send(nodeId: string, opus: Uint8Array): Promise<Uint8Array | null> {
    const tap = this.#tap('send', nodeId);
    const before = tap.output.length;
    await tap.input.write({ data: opus.slice().buffer });
    // The transform is async (WebCrypto); a withheld frame produces nothing.
    for (let turn = 0; turn < 50 && tap.output.length === before; turn++)
      await new Promise((resolve) => setTimeout(resolve, 2));
    return tap.output.length > before ? tap.output.at(-1)! : null;
  }

  /** Bytes arriving on the wire from `nodeId`, into this participant's receive transform. */
  async receive(nodeId: string, bytes: Uint8Array): Promise<void> {
    await this.#tap('receive', nodeId).input.write({ data: bytes.slice().buffer });
    await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** What the receive transform passed on to the speaker from `nodeId`. */
  played(nodeId: string): Uint8Array[] {
    return this.#tap('receive', nodeId).output;
  }

  close(): void {
    this.call.close();
  }
}
