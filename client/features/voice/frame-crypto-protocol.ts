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
  /** Frames not sent: encryption on but no frame key yet. */
  withheld: number;
  /** Frames received and opened with the sender's key. */
  opened: number;
  /** Clear frames received from a participant who announced encryption off. */
  receivedClear: number;
  /** Frames dropped: no key of their version from their sender. */
  noKey: number;
  /** Frames dropped: malformed, tag failed, or clear without an announcement. */
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
  | { type: 'own-key'; raw: Uint8Array; version: number }
  | { type: 'peer-key'; nodeId: string; raw: Uint8Array; version: number }
  | { type: 'peer-clear'; nodeId: string; allowsClear: boolean }
  | { type: 'forget-peer'; nodeId: string }
  | { type: 'encrypt'; enabled: boolean }
  | { type: 'config'; previousKeyGraceMs: number }
  | { type: 'stats' };

export type FrameCryptoReply =
  { type: 'stats'; counters: FrameCryptoCounters } | { type: 'own-key-active'; version: number };
