/**
 * Publish/subscribe seam for room events. The in-process implementation delivers synchronously;
 * a Redis implementation (REDIS_URL) slots in behind the same interface so that room logic never
 * knows how many processes there are.
 */

/** A payload is already-serialized JSON, so it is serialized once per event, not per member. */
export type FanoutHandler = (payload: string) => void;

export interface Fanout {
  /**
   * True when `publish` reaches only this process's subscribers, within the call (LocalFanout):
   * room events can then be handed to the members without their published form.
   */
  readonly inProcess?: boolean;
  publish(channel: string, payload: string): Promise<void>;
  /** Returns the function that ends the subscription. */
  subscribe(channel: string, handler: FanoutHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** In-process fan-out: one process, no network. */
export class LocalFanout implements Fanout {
  readonly inProcess = true;
  private readonly channels = new Map<string, Set<FanoutHandler>>();

  async publish(channel: string, payload: string): Promise<void> {
    const handlers = this.channels.get(channel);
    if (!handlers) return;
    for (const handler of handlers) handler(payload);
  }

  async subscribe(channel: string, handler: FanoutHandler): Promise<() => Promise<void>> {
    let handlers = this.channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.channels.set(channel, handlers);
    }
    handlers.add(handler);
    return async () => {
      const current = this.channels.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
