/**
 * The reply grammar of tor's control protocol (control-spec.txt §2.3, §4), as a bounded,
 * incremental parser. tor is a child we start, but its control port is a TCP socket: anything
 * that answers there (another process that took the port, a damaged tor) is treated as hostile.
 * Every malformed, oversized or unexpected input is a ControlProtocolError, never a throw from
 * deep inside a callback and never an unbounded buffer.
 *
 *   reply      = *(MidReplyLine / DataReplyLine) EndReplyLine
 *   MidReply   = StatusCode "-" text CRLF
 *   DataReply  = StatusCode "+" text CRLF data-lines "." CRLF   (a leading "." is doubled)
 *   EndReply   = StatusCode " " text CRLF
 *   StatusCode = 3DIGIT; 6xx are asynchronous events, everything else answers a command.
 */

/** One line of a reply; `data` holds the body of a "+" line. */
export interface ReplyLine {
  status: number;
  text: string;
  data: string | null;
}

/** A complete reply: its lines; `status` is the status of the last line. */
export interface ControlReply {
  status: number;
  lines: ReplyLine[];
}

export class ControlProtocolError extends Error {
  override readonly name = 'ControlProtocolError';
}

/** Longest line accepted (tor's own lines are far shorter; circuit paths stay under 4 KiB). */
export const MAX_LINE_BYTES = 16 * 1024;
/** Largest reply accepted: a busy tor's circuit-status fits many times over. */
export const MAX_REPLY_BYTES = 1024 * 1024;

const LINE = /^([0-9]{3})([ +-])(.*)$/s;
// Printable ASCII and tab only: tor's replies are ASCII; anything else is not tor.
const ALLOWED_TEXT = /^[\t\x20-\x7e]*$/;

/** Feeds bytes in, hands complete replies out. */
export class ReplyParser {
  private buffer = '';
  private lines: ReplyLine[] = [];
  private replyBytes = 0;
  private dataLine: ReplyLine | null = null;
  private dataParts: string[] = [];

  constructor(private readonly onReply: (reply: ControlReply) => void) {}

  /** Consumes a chunk; throws ControlProtocolError on anything malformed or too large. */
  push(chunk: Buffer): void {
    this.buffer += chunk.toString('latin1');
    for (;;) {
      const end = this.buffer.indexOf('\n');
      if (end === -1) break;
      const raw = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.length > MAX_LINE_BYTES) throw new ControlProtocolError('control line too long');
      this.replyBytes += line.length + 2;
      if (this.replyBytes > MAX_REPLY_BYTES)
        throw new ControlProtocolError('control reply too large');
      this.takeLine(line);
    }
    if (this.buffer.length > MAX_LINE_BYTES)
      throw new ControlProtocolError('control line too long');
  }

  private takeLine(line: string): void {
    if (!ALLOWED_TEXT.test(line)) throw new ControlProtocolError('control reply is not ASCII text');
    if (this.dataLine) {
      if (line === '.') {
        this.dataLine.data = this.dataParts.join('\n');
        this.lines.push(this.dataLine);
        this.dataLine = null;
        this.dataParts = [];
      } else {
        this.dataParts.push(line.startsWith('.') ? line.slice(1) : line);
      }
      return;
    }
    const match = LINE.exec(line);
    if (!match) throw new ControlProtocolError('malformed control reply line');
    const status = Number(match[1]);
    const kind = match[2];
    const text = match[3]!;
    const previous = this.lines[0];
    if (previous && previous.status !== status) {
      throw new ControlProtocolError('status code changed inside one reply');
    }
    const replyLine: ReplyLine = { status, text, data: null };
    if (kind === '+') {
      this.dataLine = replyLine;
      return;
    }
    this.lines.push(replyLine);
    if (kind === ' ') {
      const reply = { status, lines: this.lines };
      this.lines = [];
      this.replyBytes = 0;
      this.onReply(reply);
    }
  }
}

/** The `key=value` pairs of a GETINFO reply; keys not asked for are refused. */
export function parseGetInfo(reply: ControlReply, keys: readonly string[]): Map<string, string> {
  const wanted = new Set(keys);
  const values = new Map<string, string>();
  for (const line of reply.lines) {
    if (line.text === 'OK' && line.data === null) continue;
    const equals = line.text.indexOf('=');
    if (equals <= 0) throw new ControlProtocolError('malformed GETINFO line');
    const key = line.text.slice(0, equals);
    if (!wanted.has(key)) throw new ControlProtocolError('GETINFO answered a key not asked for');
    values.set(key, line.data ?? line.text.slice(equals + 1));
  }
  for (const key of keys) {
    if (!values.has(key)) throw new ControlProtocolError('GETINFO reply is missing a key');
  }
  return values;
}

/**
 * `KEY=value KEY="quoted value"` pairs after a leading keyword list, as in
 * `BOOTSTRAP PROGRESS=10 TAG=conn SUMMARY="Connecting"` or PROTOCOLINFO's AUTH line.
 */
export function parseKeywordArgs(text: string): Map<string, string> {
  const result = new Map<string, string>();
  const pattern = /([A-Za-z_][A-Za-z0-9_]*)=(?:"((?:[^"\\]|\\.)*)"|([^ "]*))/g;
  for (const match of text.matchAll(pattern)) {
    const quoted = match[2];
    result.set(match[1]!, quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : match[3]!);
  }
  return result;
}

/** Text of a reply safe to show (errors from tor go into messages): short, printable. */
export function describeReply(reply: ControlReply): string {
  const text = reply.lines.at(-1)?.text ?? '';
  return `${reply.status} ${text.slice(0, 160)}`;
}
