/**
 * Paces this browser's key-agreement frames (announces and sender keys) below the relay's flood
 * limit (20 frames a second, bursts of 40: server/realtime/hub.ts), so that a rotation in a large
 * room cannot get the member's socket throttled or closed. Frames leave in order.
 *
 * A frame may carry a key (`announce`, `sk:<nodeId>:classic`, ...): a newer frame with the same key
 * replaces the queued one in its place, so the queue holds at most one frame per key. A member
 * whose bundle churns therefore cannot grow this queue and delay the keys of the others (issue 14).
 */

/** Key frames a second, after a burst: half the relay's limit, leaving room for messages. */
export const KEY_FRAMES_PER_SECOND = 10;
export const KEY_FRAME_BURST = 20;

interface QueuedFrame {
  key: string | null;
  send: () => boolean;
}

export class FrameOutbox {
  readonly #queue: QueuedFrame[] = [];
  #tokens: number;
  #refilledAt: number;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly onIdle: () => void,
    private readonly perSecond = KEY_FRAMES_PER_SECOND,
    private readonly burst = KEY_FRAME_BURST,
    private readonly now: () => number = Date.now,
  ) {
    this.#tokens = burst;
    this.#refilledAt = now();
  }

  /** True when nothing is waiting to leave. */
  get isIdle(): boolean {
    return this.#queue.length === 0;
  }

  /** How many frames are waiting. */
  get size(): number {
    return this.#queue.length;
  }

  /**
   * Queues a frame; `send` returns false when the socket is closed (the frame is dropped). With a
   * `key`, a queued frame of the same key is replaced by this one, in its place.
   */
  push(send: () => boolean, key: string | null = null): void {
    const queued = key === null ? undefined : this.#queue.find((frame) => frame.key === key);
    if (queued) queued.send = send;
    else this.#queue.push({ key, send });
    this.#flush();
  }

  /** Drops everything queued (leaving the room: those keys are for a room this node left). */
  clear(): void {
    this.#queue.length = 0;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.onIdle();
  }

  #flush(): void {
    const now = this.now();
    this.#tokens = Math.min(
      this.burst,
      this.#tokens + ((now - this.#refilledAt) / 1000) * this.perSecond,
    );
    this.#refilledAt = now;
    while (this.#queue.length > 0 && this.#tokens >= 1) {
      this.#tokens -= 1;
      this.#queue.shift()!.send();
    }
    if (this.#queue.length === 0) {
      this.onIdle();
      return;
    }
    if (this.#timer === null) {
      this.#timer = setTimeout(
        () => {
          this.#timer = null;
          this.#flush();
        },
        Math.ceil(1000 / this.perSecond),
      );
    }
  }
}
