/**
 * The fixed-rate loop that drives every game hosted by this process: one timer for all games,
 * 60 ticks a second, caught up after a late wake (at most a few ticks, so a stalled process does
 * not run a burst of catch-up work). Each tick's duration is reported, which is what the Pong
 * benchmark measures (tick p99 under 16.7 ms holds 60 Hz).
 */
import { performance } from 'node:perf_hooks';

export interface TickLoopOptions {
  /** Ticks per second. */
  rate: number;
  /** Called once per tick with the tick's number. */
  onTick: (tick: number) => void;
  /** Hears each tick's duration in milliseconds. */
  onTickTimed?: (durationMs: number) => void;
  now?: () => number;
}

const MAX_CATCH_UP = 4;

export class TickLoop {
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  private count = 0;
  private readonly interval: number;
  private readonly now: () => number;

  constructor(private readonly options: TickLoopOptions) {
    this.interval = 1000 / options.rate;
    this.now = options.now ?? (() => performance.now());
  }

  get isRunning(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.next = this.now() + this.interval;
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.wake(), Math.max(0, this.next - this.now()));
  }

  private wake(): void {
    let ran = 0;
    while (this.now() >= this.next && ran < MAX_CATCH_UP) {
      const started = this.now();
      this.count += 1;
      this.options.onTick(this.count);
      this.options.onTickTimed?.(this.now() - started);
      this.next += this.interval;
      ran += 1;
    }
    // Too far behind: drop the missed ticks rather than run them all at once.
    if (this.now() >= this.next) this.next = this.now() + this.interval;
    if (this.timer) this.schedule();
  }
}
