/**
 * The worker that runs the call's end-to-end frame encryption (frame-crypto-engine.ts,
 * docs/crypto-room.md §15 "Voice"). Streams arrive either as `rtctransform` events
 * (RTCRtpScriptTransform) or, where only `createEncodedStreams` exists, posted by the page.
 */
import { type FrameCryptoMessage } from './frame-crypto-protocol.js';
import { createFrameCryptoEngine, type TransformOptions } from './frame-crypto-engine.js';

const scope = globalThis as unknown as {
  postMessage: (message: unknown) => void;
  onmessage: ((event: MessageEvent<FrameCryptoMessage>) => void) | null;
  onrtctransform?: (event: {
    transformer: { readable: ReadableStream; writable: WritableStream; options: TransformOptions };
  }) => void;
};

const engine = createFrameCryptoEngine((reply) => scope.postMessage(reply));

scope.onrtctransform = (event) => {
  const { readable, writable, options } = event.transformer;
  engine.pipe(readable, writable, options);
};

scope.onmessage = (event) => engine.handle(event.data);
