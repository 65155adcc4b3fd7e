/**
 * WebSocket frames encoded once for many receivers. A room event goes to every member as the
 * same bytes, so the frame (RFC 6455 §5.2: unmasked, unfragmented, text) is built once per event
 * and the one buffer is written to each member's TCP socket, instead of `ws` converting the
 * string and framing it again for every member. docs/decisions.md explains why this is safe
 * beside `ws`'s own writes.
 */

const FIN_TEXT = 0x81;
const LENGTH_16 = 126;
const LENGTH_64 = 127;

/** The bytes of one final text frame carrying `payload`, as a server sends it (no mask). */
export function encodeTextFrame(payload: string): Buffer {
  const length = Buffer.byteLength(payload, 'utf8');
  const headerLength = length < LENGTH_16 ? 2 : length <= 0xffff ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  writeHeader(frame, length);
  frame.write(payload, headerLength, 'utf8');
  return frame;
}

/**
 * One text frame whose payload is `head`, then the UTF-8 bytes `body`, then `tail`, as three
 * buffers to write one after the other: `body` is not copied, so a large part shared by many
 * frames (a member list) is written as is.
 */
export function encodeTextFrameParts(head: string, body: Buffer, tail: string): Buffer[] {
  const headBytes = Buffer.byteLength(head, 'utf8');
  const length = headBytes + body.length + Buffer.byteLength(tail, 'utf8');
  const headerLength = length < LENGTH_16 ? 2 : length <= 0xffff ? 4 : 10;
  const first = Buffer.allocUnsafe(headerLength + headBytes);
  writeHeader(first, length);
  first.write(head, headerLength, 'utf8');
  return [first, body, Buffer.from(tail, 'utf8')];
}

/**
 * One text frame whose payload is `head + body + tail`, encoded once, and the view of `body`'s
 * UTF-8 bytes inside it: a caller that keeps `body`'s bytes (the message store) shares the
 * frame's instead of encoding the text a second time.
 */
export function encodeTextFrameAround(
  head: string,
  body: string,
  tail: string,
): { frame: SharedFrame; body: Buffer } {
  const bodyBytes = Buffer.byteLength(body, 'utf8');
  const length = Buffer.byteLength(head, 'utf8') + bodyBytes + Buffer.byteLength(tail, 'utf8');
  const headerLength = length < LENGTH_16 ? 2 : length <= 0xffff ? 4 : 10;
  const bytes = Buffer.allocUnsafe(headerLength + length);
  writeHeader(bytes, length);
  const bodyStart = headerLength + bytes.write(head, headerLength, 'utf8');
  bytes.write(body, bodyStart, 'utf8');
  bytes.write(tail, bodyStart + bodyBytes, 'utf8');
  return {
    frame: new SharedFrame(head + body + tail, bytes),
    body: bytes.subarray(bodyStart, bodyStart + bodyBytes),
  };
}

function writeHeader(frame: Buffer, length: number): void {
  frame[0] = FIN_TEXT;
  if (length < LENGTH_16) {
    frame[1] = length;
  } else if (length <= 0xffff) {
    frame[1] = LENGTH_16;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = LENGTH_64;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
}

/** One serialized frame for many receivers: the text, and its frame bytes built on first use. */
export class SharedFrame {
  constructor(
    readonly text: string,
    /** `encodeTextFrame(text)`, when the caller has it already. */
    private encoded: Buffer | null = null,
  ) {}

  bytes(): Buffer {
    this.encoded ??= encodeTextFrame(this.text);
    return this.encoded;
  }
}
