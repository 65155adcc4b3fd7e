import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import {
  SharedFrame,
  encodeTextFrame,
  encodeTextFrameAround,
  encodeTextFrameParts,
} from '../../../server/realtime/ws-frame.js';
import {
  Connection,
  type FrameTransport,
  type SocketLike,
} from '../../../server/realtime/connection.js';
import { fakeSocket } from '../../support/fake-socket.js';

/**
 * `ws`'s own framing and parsing, which it exports at run time but its type definitions do not
 * describe; typed here with the members this test uses.
 */
interface WsInternals {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; rsv1: boolean; opcode: number; mask: boolean; readOnly: boolean },
    ): Buffer[];
  };
  Receiver: new (options: { isServer: boolean }) => Writable;
}
const { Sender, Receiver } = createRequire(import.meta.url)('ws') as WsInternals;

/** What `ws` itself writes for `payload`: its header and payload chunks, joined. */
function framedByWs(payload: string): Buffer {
  const chunks = Sender.frame(Buffer.from(payload), {
    fin: true,
    rsv1: false,
    opcode: 1,
    mask: false,
    readOnly: false,
  });
  return Buffer.concat(chunks);
}

/** Decodes frames as a client would (`ws`'s own receiver, client side). */
function decode(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const messages: string[] = [];
    const receiver = new Receiver({ isServer: false });
    receiver.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) reject(new Error('binary frame'));
      messages.push(data.toString('utf8'));
    });
    receiver.on('error', reject);
    receiver.write(bytes, () => resolve(messages));
  });
}

const SIZES = [0, 1, 125, 126, 127, 65_535, 65_536, 200_000];

describe('encodeTextFrame', () => {
  it.each(SIZES)('matches ws byte for byte for a %i-byte payload', (size) => {
    const payload = 'x'.repeat(size);
    expect(encodeTextFrame(payload).equals(framedByWs(payload))).toBe(true);
  });

  it('counts the length in UTF-8 bytes, not characters', async () => {
    // 42 characters, 126 bytes: the first length that needs the 16-bit form.
    const payload = '€'.repeat(42);
    const frame = encodeTextFrame(payload);
    expect(frame.equals(framedByWs(payload))).toBe(true);
    expect(await decode(frame)).toEqual([payload]);
  });

  it('decodes back to the same text, frames one after another', async () => {
    const payloads = ['{"type":"new_message"}', 'ü'.repeat(40_000), ''];
    const bytes = Buffer.concat(payloads.map(encodeTextFrame));
    expect(await decode(bytes)).toEqual(payloads);
  });
});

describe('encodeTextFrameParts', () => {
  it.each(SIZES)('gives the bytes of encodeTextFrame with a %i-byte body', (size) => {
    const body = 'ü'.repeat(Math.floor(size / 2)) + 'x'.repeat(size % 2);
    const parts = encodeTextFrameParts('{"a":"€",', Buffer.from(body), '"z":1}');
    const whole = encodeTextFrame(`{"a":"€",${body}"z":1}`);
    expect(Buffer.concat(parts).equals(whole)).toBe(true);
  });
});

describe('encodeTextFrameAround', () => {
  it.each(SIZES)(
    'gives the bytes of encodeTextFrame and a view of the body with a %i-byte body',
    (size) => {
      const body = 'ü'.repeat(Math.floor(size / 2)) + 'x'.repeat(size % 2);
      const { frame, body: view } = encodeTextFrameAround('{"a":"€",', body, '"z":1}');
      const whole = `{"a":"€",${body}"z":1}`;
      expect(frame.text).toBe(whole);
      expect(frame.bytes().equals(encodeTextFrame(whole))).toBe(true);
      expect(view.equals(Buffer.from(body, 'utf8'))).toBe(true);
      // A view of the frame's own bytes, not a second copy.
      expect(view.buffer).toBe(frame.bytes().buffer);
    },
  );
});

describe('Connection.sendShared', () => {
  function connection(options: { transport: boolean; readyState?: number; buffered?: number }) {
    const sent: string[] = [];
    const written: Uint8Array[] = [];
    const closed: number[] = [];
    const socket: SocketLike = {
      readyState: options.readyState ?? 1,
      bufferedAmount: options.buffered ?? 0,
      send: (data) => sent.push(data),
      close: (code) => closed.push(code ?? 0),
    };
    const transport: FrameTransport = {
      writable: true,
      write: (frame) => written.push(frame) > 0,
    };
    const member = new Connection(socket, '127.0.0.1', '/ws', options.transport ? transport : null);
    return { member, sent, written, closed };
  }

  it('writes one encoded buffer, the same object, to every member with a transport', () => {
    const frame = new SharedFrame('{"type":"new_message"}');
    const a = connection({ transport: true });
    const b = connection({ transport: true });
    a.member.sendShared(frame);
    b.member.sendShared(frame);
    expect(a.written).toHaveLength(1);
    expect(a.written[0]).toBe(b.written[0]);
    expect(a.sent).toEqual([]);
  });

  it('falls back to the socket for members without a transport', () => {
    const plain = connection({ transport: false });
    plain.member.sendShared(new SharedFrame('{"type":"x"}'));
    expect(plain.sent).toEqual(['{"type":"x"}']);
  });

  it('writes nothing to a closing socket and closes a reader too far behind', () => {
    const closing = connection({ transport: true, readyState: 2 });
    closing.member.sendShared(new SharedFrame('{}'));
    expect(closing.written).toEqual([]);
    const slow = connection({ transport: true, buffered: 5 * 1024 * 1024 });
    slow.member.sendShared(new SharedFrame('{}'));
    expect(slow.written).toEqual([]);
    expect(slow.closed).toEqual([1013]);
  });
});

/** A member's connection with (or without) a frame transport, recording what leaves it. */
function member(transport: boolean) {
  const { socket, sent } = fakeSocket();
  const written: Buffer[] = [];
  const wire: FrameTransport = {
    writable: true,
    write: (frame) => written.push(Buffer.from(frame)) > 0,
  };
  return {
    connection: new Connection(socket, '127.0.0.1', '/ws', transport ? wire : null),
    sent,
    written,
  };
}

describe('Connection.releaseRoomFrames', () => {
  const texts = ['{"type":"a"}', 'é'.repeat(70), '{"type":"c"}'];
  it('drops on release the held frames the joiner has already', async () => {
    const a = member(true);
    a.connection.holdRoomFrames();
    for (const text of texts) a.connection.sendShared(new SharedFrame(text));
    a.connection.releaseRoomFrames((frame) => frame.text === texts[1]);
    expect(await decode(Buffer.concat(a.written))).toEqual([texts[0], texts[2]]);
    // Released: nothing is held or dropped any more.
    a.connection.sendShared(new SharedFrame(texts[1] ?? ''));
    expect(await decode(Buffer.concat(a.written))).toEqual([texts[0], texts[2], texts[1]]);
  });
});

describe('Connection.sendParts', () => {
  it('writes one frame around the body, or sends its text without a transport', async () => {
    const body = Buffer.from('{"n":"é"},{"n":2}');
    const wired = member(true);
    wired.connection.sendParts('{"users":[', body, ']}');
    expect(await decode(Buffer.concat(wired.written))).toEqual(['{"users":[{"n":"é"},{"n":2}]}']);
    const plain = member(false);
    plain.connection.sendParts('{"users":[', body, ']}');
    expect(plain.sent).toEqual(['{"users":[{"n":"é"},{"n":2}]}']);
  });
});

describe('Connection.send', () => {
  it("frames a connection's own frame itself: one write to the transport, in order with the room's", async () => {
    const wired = member(true);
    wired.connection.send({ type: 'room_joined', roomId: 'é' });
    wired.connection.sendShared(new SharedFrame('{"type":"user_joined"}'));
    wired.connection.sendRaw('{"type":"key_bundles","bundles":[]}');
    expect(wired.sent).toEqual([]);
    expect(wired.written).toHaveLength(3);
    expect(wired.written[0]?.equals(framedByWs('{"type":"room_joined","roomId":"é"}'))).toBe(true);
    expect(await decode(Buffer.concat(wired.written))).toEqual([
      '{"type":"room_joined","roomId":"é"}',
      '{"type":"user_joined"}',
      '{"type":"key_bundles","bundles":[]}',
    ]);
    const plain = member(false);
    plain.connection.send({ type: 'x' });
    expect(plain.sent).toEqual(['{"type":"x"}']);
  });
});
