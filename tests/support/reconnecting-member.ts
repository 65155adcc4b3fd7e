/**
 * A room member whose client joins again by itself when the server closes its socket, as the
 * browser does (tests/faults): it sends one message at a time and records what became of each,
 * and everything it received, live or in `room_joined`.
 *
 * Each socket is heard from its first frame: the room's frames held while the server joins a
 * socket are written right after `room_joined`, in the same read, so a listener attached once
 * `room_joined` is handled would miss them.
 */
import { TestSocket, type Frame } from './ws-client.js';

/** What became of a sent message: its echo came, it was refused, or neither (the socket closed). */
export type SendOutcome = 'acked' | 'refused' | 'silent';

export interface ReconnectingMemberOptions {
  /** The server a joining or reconnecting client is sent to (the load balancer): its base URL. */
  route: () => string;
  /** Which close codes the client joins again after; every one by default. */
  rejoinsAfter?: (code: number) => boolean;
}

const contentOf = (message: unknown) => (message as { content: string }).content;

export class ReconnectingMember {
  socket: TestSocket | null = null;
  readonly received = new Set<string>();
  readonly sent: { content: string; outcome: SendOutcome }[] = [];
  /** The close code of each socket the server closed (not those this member closed). */
  readonly closeCodes: number[] = [];
  /** The text of each error frame that refused a message. */
  readonly refusals: string[] = [];
  private pending: { content: string; settle: () => void } | null = null;
  private ready: Promise<void> = Promise.resolve();
  private isDone = false;

  constructor(
    readonly name: string,
    private readonly room: string,
    private readonly options: ReconnectingMemberOptions,
  ) {}

  /** How many times the client joined again after a close. */
  get reconnects(): number {
    return this.closeCodes.filter((code) => this.rejoinsAfter(code)).length;
  }

  /** Opens a socket to `url` (or the routed server), joins the room; retries for 20 s. */
  async join(url = this.options.route()): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      let socket: TestSocket | null = null;
      try {
        socket = await TestSocket.connect(`${url.replace('http', 'ws')}/chat-ws`);
        this.record(socket);
        socket.send({ type: 'join_room', roomId: this.room, username: this.name });
        const joined = await socket.next(
          (frame) => frame.type === 'room_joined' || frame.type === 'error',
          5_000,
        );
        if (joined.type !== 'room_joined') {
          throw new Error(`join refused: ${String(joined.message)}`);
        }
        for (const message of joined.messages as unknown[]) this.received.add(contentOf(message));
        // What the previous socket sent without seeing its echo: relayed if the room has it.
        for (const entry of this.sent) {
          if (entry.outcome === 'silent' && this.received.has(entry.content)) {
            entry.outcome = 'acked';
          }
        }
        this.listen(socket);
        return;
      } catch (error) {
        // A socket that did not join in time is not left in the room as a second copy.
        socket?.close();
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 300));
        url = this.options.route();
      }
    }
  }

  /** Sends one message (once joined) and waits for its echo, its refusal, the close, or 10 s. */
  async sendOne(content: string): Promise<void> {
    await this.ready;
    const socket = this.socket;
    if (!socket) return;
    const entry: (typeof this.sent)[number] = { content, outcome: 'silent' };
    this.sent.push(entry);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.pending = null;
        resolve();
      }, 10_000);
      this.pending = {
        content,
        settle: () => {
          clearTimeout(timer);
          this.pending = null;
          if (entry.outcome !== 'refused' && this.received.has(content)) entry.outcome = 'acked';
          resolve();
        },
      };
      socket.send({ type: 'send_message', content, encryptionType: 'PLAINTEXT' });
    });
  }

  /** Leaves for good: the socket closes and the client does not join again. */
  close(): void {
    this.isDone = true;
    this.socket?.close();
  }

  private rejoinsAfter(code: number): boolean {
    return this.options.rejoinsAfter?.(code) ?? true;
  }

  /** Every new_message `socket` receives, from its first frame; refusals once it is current. */
  private record(socket: TestSocket): void {
    socket.socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.type === 'error' && frame.frameType === 'send_message') {
        if (this.socket !== socket) return;
        this.refusals.push(String(frame.message));
        // Sent one at a time: an error answers the latest message (even after its own echo).
        const last = this.sent.at(-1);
        if (last) last.outcome = 'refused';
        this.pending?.settle();
        return;
      }
      if (frame.type !== 'new_message') return;
      const content = contentOf(frame.message);
      this.received.add(content);
      if (this.pending?.content === content) this.pending.settle();
    });
  }

  private listen(socket: TestSocket): void {
    this.socket = socket;
    socket.socket.on('close', (code) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.pending?.settle();
      if (this.isDone) return;
      this.closeCodes.push(code);
      if (!this.rejoinsAfter(code)) return;
      this.ready = new Promise((resolve) => setTimeout(resolve, 200)).then(() => this.join());
    });
  }
}
