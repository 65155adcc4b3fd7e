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
  /** Clear frames received from a participant who announced encryption off. */
  receivedClear: number;
  /** Frames dropped: no key of their version from their sender (held past the bound). */
  noKey: number;
  /** Frames dropped: malformed, tag failed, or clear without an announcement. */
  failed: number;
  /** Frames that arrived before their key, were held, and opened when it came (in `opened`). */
  held: number;
  /** Empty frames (RTP padding), dropped: no audio in them. */
  empty: number;
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
  | { type: 'peer-clear'; nodeId: string; allowsClear: boolean }
  | { type: 'forget-peer'; nodeId: string }
  | { type: 'encrypt'; enabled: boolean }
  | { type: 'config'; previousKeyGraceMs: number }
  | { type: 'stats' };

export type FrameCryptoReply =
  { type: 'stats'; counters: FrameCryptoCounters } | { type: 'own-key-active'; version: number };
