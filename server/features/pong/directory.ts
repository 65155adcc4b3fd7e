/**
 * Which process hosts which game. A game lives on exactly one process; the first process that
 * needs a game claims it, and keeps the claim alive while it hosts it. With Redis the claim is a
 * TTL key (server/redis/redis-pong-directory.ts); alone, it is this map.
 */
export interface GameDirectory {
  /** Claims `gameId` for `processId` unless a live process holds it; returns the holder. */
  claim(gameId: string, processId: string): Promise<string>;
  /** The process hosting `gameId`, or null when none (or a dead one) does. */
  owner(gameId: string): Promise<string | null>;
  /** Keeps this process's claims alive. */
  refresh(gameIds: string[], processId: string): Promise<void>;
  release(gameId: string, processId: string): Promise<void>;
  /** False once a process has stopped its heartbeat. */
  isAlive(processId: string): Promise<boolean>;
}

export class MemoryGameDirectory implements GameDirectory {
  private readonly owners = new Map<string, string>();

  async claim(gameId: string, processId: string): Promise<string> {
    const owner = this.owners.get(gameId);
    if (owner) return owner;
    this.owners.set(gameId, processId);
    return processId;
  }

  async owner(gameId: string): Promise<string | null> {
    return this.owners.get(gameId) ?? null;
  }

  async refresh(): Promise<void> {}

  async release(gameId: string, processId: string): Promise<void> {
    if (this.owners.get(gameId) === processId) this.owners.delete(gameId);
  }

  async isAlive(): Promise<boolean> {
    return true;
  }
}
