/**
 * The baseline: a plain `ws` server doing the same shape of work as the chat hub and nothing
 * else. `{"type":"join_room","roomId"}` puts the socket in a room and is acknowledged with
 * `{"type":"room_joined","roomId"}`; every other frame is parsed once, wrapped as
 * `{"type":"new_message","message":{...frame, senderId, roomId}}`, serialized once per room and
 * written to every member, the sender included. No validation, no rate limits, no presence, no
 * storage, no HTTP framework.
 *
 * Env: BENCH_ROOMS (room ids "room-0" … are accepted; any id is, in fact). Prints one JSON line:
 * `{"url":"http://127.0.0.1:<port>","wsPath":"/","rooms":["room-0",…]}`.
 */
import { createServer } from 'node:http';
import { collectOnSignal, recordGcPauses } from './gc-on-signal.js';
import { WebSocketServer, type WebSocket } from 'ws';

interface Member {
  id: string;
  roomId: string | null;
}

const rooms = new Map<string, Set<WebSocket>>();
const members = new Map<WebSocket, Member>();
let nextId = 1;

function leave(socket: WebSocket, member: Member): void {
  if (!member.roomId) return;
  const room = rooms.get(member.roomId);
  room?.delete(socket);
  if (room?.size === 0) rooms.delete(member.roomId);
  member.roomId = null;
}

function onFrame(socket: WebSocket, member: Member, text: string): void {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof frame !== 'object' || frame === null) return;
  const record = frame as Record<string, unknown>; // checked to be a non-null object just above
  if (record.type === 'join_room' && typeof record.roomId === 'string') {
    leave(socket, member);
    let room = rooms.get(record.roomId);
    if (!room) {
      room = new Set();
      rooms.set(record.roomId, room);
    }
    room.add(socket);
    member.roomId = record.roomId;
    socket.send(JSON.stringify({ type: 'room_joined', roomId: record.roomId }));
    return;
  }
  if (!member.roomId) return;
  const payload = JSON.stringify({
    type: 'new_message',
    message: { ...record, senderId: member.id, roomId: member.roomId },
  });
  for (const peer of rooms.get(member.roomId) ?? []) peer.send(payload);
}

const http = createServer((_request, response) => {
  response.writeHead(404).end();
});
const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
wss.on('connection', (socket) => {
  const member: Member = { id: `bare_${nextId++}`, roomId: null };
  members.set(socket, member);
  socket.on('message', (data) => onFrame(socket, member, data.toString()));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    leave(socket, member);
    members.delete(socket);
  });
});

const roomCount = Number(process.env.BENCH_ROOMS ?? '0');
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const roomIds = Array.from({ length: roomCount + 1 }, (_, i) => `room-${i}`);
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${address.port}`, wsPath: '/', rooms: roomIds })}\n`,
  );
});

const stop = () => {
  for (const socket of members.keys()) socket.terminate();
  wss.close();
  http.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
collectOnSignal();
recordGcPauses();
process.stdin.on('end', stop);
process.stdin.resume();
