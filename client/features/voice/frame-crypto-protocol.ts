/** Messages between the page and the frame-encryption worker (frame-crypto-worker.ts). */

export interface FrameCryptoCounters {
  /** Encoded transforms attached (one per sender and per receiver). */
  transforms: number;
  /** Frames that entered a receive transform. */
  received: number;
  /** Frames sent sealed under this browser's frame key. */
  sealed: number;
  /** Frames sent in clear (encryption toggled off). */
  sentClear: number;
  /** Frames not sent: encryption on but no frame key handed to that peer yet. */
  withheld: number;
  /** Frames received and opened with the sender's key. */
  opened: number;
  /** Clear frames received from a participant whose signed "encryption off" was verified. */
  receivedClear: number;
  /** Frames dropped: no key of their version from their sender (held past the bound). */
  noKey: number;
  /** Frames dropped: malformed, tag failed, or clear without a verified "encryption off". */
  failed: number;
  /** Frames that arrived before their key, were held, and opened when it came (in `opened`). */
  held: number;
  /** Empty frames (RTP padding), dropped: no audio in them. */
  empty: number;
}

/** One sender's received frames, for the window to say whose audio is refused. */
export interface PeerFrameCounters {
  opened: number;
  receivedClear: number;
  /** Clear frames dropped: no verified, unexpired "encryption off" from this sender. */
  refusedClear: number;
  /** Frames dropped: malformed or tag failed. */
  failed: number;
}

export type FrameCryptoMessage =
  | {
      type: 'streams';
      direction: 'send' | 'receive';
      nodeId: string;
      readable: ReadableStream;
      writable: WritableStream;
    }
  /** A new own key: sealed under once activated, or for a peer handed only this key. */
  | { type: 'own-key'; raw: Uint8Array; version: number }
  | { type: 'activate-own-key'; version: number }
  /** `version` of this browser's key went to `nodeId` through the key channel. */
  | { type: 'own-key-handed'; nodeId: string; version: number }
  | { type: 'peer-key'; nodeId: string; raw: Uint8Array; version: number }
  /** Clear frames of `nodeId` may play until `clearUntil` (Date.now ms); null: never. */
  | { type: 'peer-clear'; nodeId: string; clearUntil: number | null }
  | { type: 'forget-peer'; nodeId: string }
  | { type: 'encrypt'; enabled: boolean }
  | { type: 'config'; previousKeyGraceMs: number }
  | { type: 'stats' };

export type FrameCryptoReply =
  | { type: 'stats'; counters: FrameCryptoCounters; peers: Record<string, PeerFrameCounters> }
  | { type: 'own-key-active'; version: number };
