/**
 * The baseline: a plain `ws` server doing the same shape of work as the chat hub and nothing
 * else. `{"type":"join_room","roomId"}` puts the socket in a room and is acknowledged with
 * `{"type":"room_joined","roomId"}`; every other frame is parsed once, wrapped as
 * `{"type":"new_message","message":{...frame, senderId, roomId}}`, serialized once per room and
 * written to every member, the sender included. No validation, no rate limits, no presence, no
 * storage, no HTTP framework.
 *
 * With BENCH_SPEC_BYTES=1 it is the floor of a SecureChannel join instead: the bytes the spec's
 * frames carry, without the logic behind them (no identity, grant, moderation, limits or
 * validation). A join then writes what SecureChannel writes to a visitor joining a room without
 * messages or key holders: `room_joined` with a node id and an access token, the whole member
 * list (`user_list_update`, one spec 000 §3 room user per member), `key_bundles` and
 * `moderation_state`; and the room hears of the joins of each 50 ms window as SecureChannel tells
 * them (docs/protocol.md "Joins told together": one `user_joined` to the others, or one
 * `users_joined` to all). The bytes are written the way SecureChannel writes them, so that only
 * the logic is left out, with SecureChannel's own pieces: frames encoded by
 * server/realtime/ws-frame.ts straight to the TCP socket, one frame's bytes shared by the whole
 * room, each entry's JSON kept (presence.ts `roomUserJson`) and a large room's entries kept as
 * bytes (member-list.ts), a member's frames of one turn in one write (write-batch.ts). `request_user_list` answers with the list after the room's
 * held joins. The connect scenario measures it beside the two servers.
 *
 * Env: BENCH_ROOMS (room ids "room-0" … are accepted; any id is, in fact), BENCH_SPEC_BYTES.
 * Prints one JSON line: `{"url":"http://127.0.0.1:<port>","wsPath":"/","rooms":["room-0",…]}`.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { KEPT_LIST_MIN_MEMBERS, MemberListBytes } from '../../server/features/rooms/member-list.js';
import { roomUserJson, type PresenceMember } from '../../server/features/rooms/presence.js';
import { BatchedSocket, batchThisTurn } from '../../server/realtime/write-batch.js';
import { encodeTextFrame, encodeTextFrameParts } from '../../server/realtime/ws-frame.js';
import { collectOnSignal, recordGcPauses } from './gc-on-signal.js';
import { WebSocketServer, type WebSocket } from 'ws';

interface Member {
  id: string;
  roomId: string | null;
  /** The TCP socket under the WebSocket, written to directly in the spec-bytes mode. */
  tcp: Socket;
  /** Its place in the turn's write batch (write-batch.ts). */
  batched: BatchedSocket;
  /** Spec-bytes mode: a callsign as long as a visitor's ("Ghost" and three digits). */
  username: string;
  /** Spec-bytes mode: this member as SecureChannel's presence keeps it, once joined. */
  presence: PresenceMember | null;
}

const SPEC_BYTES = process.env.BENCH_SPEC_BYTES === '1';
/** How long SecureChannel holds a room's joins to tell them together (room-channels.ts). */
const JOIN_WINDOW_MS = 50;

const rooms = new Map<string, Set<WebSocket>>();
const members = new Map<WebSocket, Member>();
/** Spec-bytes mode: per room, the joins of the open window and its timer. */
const heldJoins = new Map<string, { joins: [WebSocket, Member][]; timer: NodeJS.Timeout }>();
let nextId = 1;

function leave(socket: WebSocket, member: Member): void {
  if (!member.roomId) return;
  const room = rooms.get(member.roomId);
  room?.delete(socket);
  if (room?.size === 0) rooms.delete(member.roomId);
  member.roomId = null;
}

/** Spec-bytes mode: frame bytes to the member's TCP socket, its frames of a turn in one write. */
function writeBatched(member: Member, ...buffers: Buffer[]): void {
  batchThisTurn(member.batched);
  for (const buffer of buffers) member.tcp.write(buffer);
}

/** Spec-bytes mode: the room's members in the order they joined, as presence lists them. */
function roomMembers(roomId: string): PresenceMember[] {
  const list: PresenceMember[] = [];
  for (const socket of rooms.get(roomId) ?? []) {
    const presence = members.get(socket)?.presence;
    if (presence) list.push(presence);
  }
  return list;
}

const listBytes = new MemberListBytes();

/** The whole member list, as SecureChannel's `sendUserList` writes it. */
function writeUserList(member: Member, roomId: string): void {
  const list = roomMembers(roomId);
  const head = `{"type":"user_list_update","roomId":${JSON.stringify(roomId)},"users":[`;
  const tail = `],"timestamp":"${new Date().toISOString()}"}`;
  if (list.length >= KEPT_LIST_MIN_MEMBERS) {
    writeBatched(member, ...encodeTextFrameParts(head, listBytes.entries(roomId, list), tail));
  } else {
    writeBatched(member, encodeTextFrame(head + list.map(roomUserJson).join(',') + tail));
  }
}

/** Tells the room of its held joins, as SecureChannel's window does: one frame for all. */
function tellJoins(roomId: string): void {
  const held = heldJoins.get(roomId);
  if (!held) return;
  heldJoins.delete(roomId);
  clearTimeout(held.timer);
  const room = rooms.get(roomId);
  if (!room) return;
  const id = JSON.stringify(roomId);
  const only = held.joins.length === 1 ? held.joins[0] : undefined;
  const entry = (member: Member) => (member.presence ? roomUserJson(member.presence) : 'null');
  const frame = encodeTextFrame(
    only
      ? `{"type":"user_joined","roomId":${id},"username":"${only[1].username}","nodeId":"${only[1].id}","memberCount":${room.size},"user":${entry(only[1])}}`
      : `{"type":"users_joined","roomId":${id},"memberCount":${room.size},"users":[${held.joins.map(([, member]) => entry(member)).join(',')}]}`,
  );
  for (const peer of room) {
    const member = members.get(peer);
    if (member && peer !== only?.[0]) writeBatched(member, frame);
  }
}

/** Spec-bytes mode: what SecureChannel writes for a visitor's join, without deciding anything. */
function joinWithSpecBytes(socket: WebSocket, member: Member, roomId: string): void {
  const now = new Date().toISOString();
  member.presence = {
    roomId,
    nodeId: member.id,
    username: member.username,
    status: 'online',
    role: 'user',
    isAuthenticated: false,
    keyId: null,
    moderationRole: 'member',
    addressTag: null,
    connectionTime: now,
    lastSeen: now,
    isVoiceActive: false,
    entry: 'open',
  };
  const memberCount = rooms.get(roomId)?.size ?? 0;
  const roomJoined = JSON.stringify({
    type: 'room_joined',
    roomId,
    nodeId: member.id,
    messages: [],
    memberCount,
    accessToken: randomBytes(24).toString('base64url'),
  });
  writeBatched(member, encodeTextFrame(roomJoined));
  writeUserList(member, roomId);
  writeBatched(member, KEY_BUNDLES);
  writeBatched(
    member,
    encodeTextFrame(
      JSON.stringify({
        type: 'moderation_state',
        roomId,
        role: 'member',
        isLocked: false,
        mutedUntil: null,
      }),
    ),
  );
  const held = heldJoins.get(roomId);
  if (held) held.joins.push([socket, member]);
  else {
    const timer = setTimeout(() => tellJoins(roomId), JOIN_WINDOW_MS);
    heldJoins.set(roomId, { joins: [[socket, member]], timer });
  }
}
const KEY_BUNDLES = encodeTextFrame('{"type":"key_bundles","bundles":[]}');

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
    if (SPEC_BYTES) joinWithSpecBytes(socket, member, record.roomId);
    else socket.send(JSON.stringify({ type: 'room_joined', roomId: record.roomId }));
    return;
  }
  if (!member.roomId) return;
  if (SPEC_BYTES && record.type === 'request_user_list') {
    tellJoins(member.roomId);
    writeUserList(member, member.roomId);
    return;
  }
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
wss.on('connection', (socket, request) => {
  const n = nextId++;
  const tcp = request.socket;
  const member: Member = {
    id: SPEC_BYTES ? `node_${n.toString(16).padStart(16, '0')}` : `bare_${n}`,
    roomId: null,
    tcp,
    batched: new BatchedSocket(tcp),
    username: `Ghost${100 + (n % 900)}`,
    presence: null,
  };
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
