/** A WebSocket test client that queues frames and waits for the ones a test expects. */
import WebSocket from 'ws';

export interface Frame {
  type: string;
  [key: string]: unknown;
}

/** A member list entry as the server sends it (spec 000 §3 "Room user"). */
export interface RosterUser {
  nodeId: string;
  username: string;
  role: string;
  status: string;
  isAuthenticated: boolean;
}

/** A join a socket heard of: the newcomer's list entry and the frame that carried it. */
export interface HeardJoin {
  username: string;
  nodeId: string;
  user: RosterUser;
  /** The `user_joined` or `users_joined` frame. */
  frame: Frame;
}

export class TestSocket {
  readonly frames: Frame[] = [];
  /**
   * The room's member list as a client keeps it: replaced by `user_list_update`, then changed by
   * the deltas `user_joined` (its `user` entry), `users_joined` (its `users`) and `user_left`.
   */
  readonly roster = new Map<string, RosterUser>();
  /**
   * The joins the room told this socket of, in order, not yet claimed by {@link nextJoin}: one per
   * `user_joined`, one per entry of a `users_joined` (the window's joins, told together).
   */
  readonly joins: HeardJoin[] = [];
  private joinWaiters: { username: string; resolve: (join: HeardJoin) => void }[] = [];
  private rosterWaiters: { predicate: () => boolean; resolve: () => void }[] = [];
  private waiters: { predicate: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  closeCode: number | null = null;
  private readonly closed: Promise<number>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.applyRoster(frame);
      this.hearJoins(frame);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.predicate(frame)) return true;
        waiter.resolve(frame);
        return false;
      });
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code) => {
        this.closeCode = code;
        resolve(code);
      });
    });
  }

  /** Opens a socket; `options` can set headers (`Origin`) or the local address to connect from. */
  static async connect(url: string, options?: WebSocket.ClientOptions): Promise<TestSocket> {
    const socket = new WebSocket(url, options);
    // Listen before the socket opens: the server may speak first (maintenance_mode).
    const client = new TestSocket(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /**
   * Drops the frames received so far that match `predicate`, so that a later `next` waits for a
   * frame an action yet to come sends, not for an older one of the same shape.
   */
  discard(predicate: (frame: Frame) => boolean): void {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      if (predicate(this.frames[i]!)) this.frames.splice(i, 1);
    }
  }

  /** Resolves with the first frame (already received or future) matching `predicate`. */
  next(predicate: (frame: Frame) => boolean | string, timeoutMs = 5000): Promise<Frame> {
    const match = (frame: Frame) => {
      const result = predicate(frame);
      return typeof result === 'string' ? frame.type === result : result;
    };
    const seen = this.frames.find(match);
    if (seen) {
      this.frames.splice(this.frames.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const seen = this.frames
          .slice(-5)
          .map((frame) => frame.type)
          .join(', ');
        reject(new Error(`Timed out waiting for a frame; last unclaimed: ${seen || 'none'}`));
      }, timeoutMs);
      this.waiters.push({
        predicate: match,
        resolve: (frame) => {
          clearTimeout(timer);
          this.frames.splice(this.frames.indexOf(frame), 1);
          resolve(frame);
        },
      });
    });
  }

  /**
   * Resolves with the first join of `username` the room told this socket of (heard already or
   * to come), whether in its own `user_joined` or in a window's `users_joined`, and claims it.
   */
  nextJoin(username: string, timeoutMs = 5000): Promise<HeardJoin> {
    const heard = this.joins.find((join) => join.username === username);
    if (heard) {
      this.joins.splice(this.joins.indexOf(heard), 1);
      return Promise.resolve(heard);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Timed out waiting for the join of ${username}`)),
        timeoutMs,
      );
      this.joinWaiters.push({
        username,
        resolve: (join) => {
          clearTimeout(timer);
          this.joins.splice(this.joins.indexOf(join), 1);
          resolve(join);
        },
      });
    });
  }

  private hearJoins(frame: Frame): void {
    const entries =
      frame.type === 'user_joined' && frame.user
        ? [frame.user as RosterUser]
        : frame.type === 'users_joined'
          ? (frame.users as RosterUser[])
          : [];
    for (const user of entries) {
      const join = { username: user.username, nodeId: user.nodeId, user, frame };
      this.joins.push(join);
      const waiter = this.joinWaiters.find((w) => w.username === user.username);
      if (waiter) {
        this.joinWaiters.splice(this.joinWaiters.indexOf(waiter), 1);
        waiter.resolve(join);
      }
    }
  }

  /** The member list's usernames, sorted. */
  rosterNames(): string[] {
    return [...this.roster.values()].map((user) => user.username).sort();
  }

  /** Resolves once the member list kept from the frames satisfies `predicate`. */
  waitForRoster(
    predicate: (roster: ReadonlyMap<string, RosterUser>) => boolean,
    timeoutMs = 5000,
  ): Promise<void> {
    if (predicate(this.roster)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`Timed out waiting for the member list; have ${this.rosterNames().join()}`),
          ),
        timeoutMs,
      );
      this.rosterWaiters.push({
        predicate: () => predicate(this.roster),
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Resolves once the member list holds exactly these usernames. */
  waitForMembers(names: string[], timeoutMs?: number): Promise<void> {
    const wanted = JSON.stringify([...names].sort());
    return this.waitForRoster(() => JSON.stringify(this.rosterNames()) === wanted, timeoutMs);
  }

  private applyRoster(frame: Frame): void {
    if (frame.type === 'user_list_update') {
      this.roster.clear();
      for (const user of frame.users as RosterUser[]) this.roster.set(user.nodeId, user);
    } else if (frame.type === 'user_joined' && frame.user) {
      const user = frame.user as RosterUser;
      this.roster.set(user.nodeId, user);
    } else if (frame.type === 'users_joined') {
      for (const user of frame.users as RosterUser[]) this.roster.set(user.nodeId, user);
    } else if (frame.type === 'user_left') {
      this.roster.delete(frame.nodeId as string);
    } else {
      return;
    }
    this.rosterWaiters = this.rosterWaiters.filter((waiter) => {
      if (!waiter.predicate()) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Waits for a frame of `type`. */
  nextOfType(type: string, timeoutMs?: number): Promise<Frame> {
    return this.next((frame) => frame.type === type, timeoutMs);
  }

  waitForClose(timeoutMs = 5000): Promise<number> {
    return Promise.race([
      this.closed,
      new Promise<number>((_, reject) =>
        setTimeout(() => reject(new Error('Socket did not close')), timeoutMs),
      ),
    ]);
  }

  close(): void {
    this.socket.close(1000);
  }
}
