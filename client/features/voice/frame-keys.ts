/**
 * Which frame key seals what, and frames that arrive before their key (docs/crypto-room.md §15,
 * "Call start"). Pure bookkeeping for frame-crypto-worker.ts, tested in Node.
 *
 * - Sending: each peer connection has its own send transform, so each peer gets frames sealed
 *   under a key that was handed to that peer: the active key when it has it, otherwise a newer key
 *   not yet active for the others (a newcomer gets only the key made for its arrival), otherwise
 *   nothing (the frame is withheld, never sent in clear or under a key the peer lacks).
 * - Receiving: a frame under a version whose key has not arrived yet from its sender is held, a
 *   bounded number per sender, and opened when that key arrives; past the bound the oldest held
 *   frame is dropped.
 */

/** This browser's own frame keys, and which of them each peer has been handed. */
export class OwnFrameKeys<K> {
  /** version → key, oldest first; the active one and any newer, not yet active. */
  readonly #keys = new Map<number, K>();
  #active: number | null = null;
  readonly #handed = new Map<string, Set<number>>();

  /** A new key, not sealed under until `activate` (except for peers handed only this one). */
  add(version: number, key: K): void {
    this.#keys.delete(version);
    this.#keys.set(version, key);
  }

  /** Seals under `version` from now on; older keys are forgotten. */
  activate(version: number): boolean {
    if (!this.#keys.has(version)) return false;
    for (const known of [...this.#keys.keys()]) {
      if (known === version) break;
      this.#keys.delete(known);
    }
    this.#active = version;
    return true;
  }

  get activeVersion(): number | null {
    return this.#active;
  }

  /** `version` went to `nodeId` through the room's key channel. */
  handed(nodeId: string, version: number): void {
    let versions = this.#handed.get(nodeId);
    if (!versions) {
      versions = new Set();
      this.#handed.set(nodeId, versions);
    }
    versions.add(version);
  }

  forget(nodeId: string): void {
    this.#handed.delete(nodeId);
  }

  /** The key to seal a frame for `nodeId` under, or null: withhold the frame. */
  sealingKeyFor(nodeId: string): { version: number; key: K } | null {
    const handed = this.#handed.get(nodeId);
    if (!handed) return null;
    const active = this.#active;
    const activeKey = active === null ? undefined : this.#keys.get(active);
    if (active !== null && activeKey !== undefined && handed.has(active))
      return { version: active, key: activeKey };
    // Not the active key: the newest newer one this peer has (keys are kept oldest first).
    const newer = [...this.#keys].reverse();
    for (const [version, key] of newer) {
      if (version === this.#active) break;
      if (handed.has(version)) return { version, key };
    }
    return null;
  }
}

/** Frames held per sender until the key of their version arrives. */
export class HeldFrames<F> {
  readonly #held = new Map<string, { version: number; frame: F }[]>();

  constructor(readonly bound: number) {}

  /** Holds `frame`; returns the frame dropped to stay within the bound, if any. */
  hold(nodeId: string, version: number, frame: F): F | null {
    let queue = this.#held.get(nodeId);
    if (!queue) {
      queue = [];
      this.#held.set(nodeId, queue);
    }
    queue.push({ version, frame });
    return queue.length > this.bound ? queue.shift()!.frame : null;
  }

  /** The frames of `nodeId` under `version`, in arrival order, no longer held. */
  release(nodeId: string, version: number): F[] {
    const queue = this.#held.get(nodeId);
    if (!queue) return [];
    const released = queue.filter((entry) => entry.version === version);
    const kept = queue.filter((entry) => entry.version !== version);
    if (kept.length === 0) this.#held.delete(nodeId);
    else this.#held.set(nodeId, kept);
    return released.map((entry) => entry.frame);
  }

  /** Drops every frame held for `nodeId`; returns how many. */
  forget(nodeId: string): number {
    const count = this.#held.get(nodeId)?.length ?? 0;
    this.#held.delete(nodeId);
    return count;
  }
}
