/**
 * Voice calls across two server processes on one PostgreSQL and one Redis (issue 16): the call's
 * participants are one list on both processes, signalling reaches the target's socket on the
 * other process and no one else, the participant cap holds when members of both processes join
 * at once, and a process that dies takes its participants out of the call.
 *
 * Scenario: alice and dave on process A, bob, carol and erin on process B, in one room. Alice
 * starts the call on A, bob joins on B; offer, answer, candidate and encryption status cross
 * between them; carol (B) and dave (A), in the room but not the call, receive no signalling. Four
 * members race for the last two places. Erin's grant from B opens the ICE route on A. Then B is
 * killed and alice sees its participants leave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import { IceServersResponseSchema } from '../../shared/protocol/http/voice.js';
import { VoiceCallParticipantsFrameSchema } from '../../shared/protocol/ws/voice.js';
import { connectRedis } from '../../server/redis/connect.js';
import { createThrowawayPostgres } from '../support/database.js';
import { startServerProcess, type ServerProcess } from '../support/processes.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

const SIGNAL_TYPES = new Set([
  'webrtc_signaling',
  'webrtc_offer',
  'webrtc_answer',
  'webrtc_ice_candidate',
  'encryption_status',
]);
/** Generous: two processes and Redis on a shared machine. */
const WAIT_MS = 20_000;

interface Member {
  socket: TestSocket;
  nodeId: string;
  roomId: string;
  grant: string;
}

describe('voice calls across two processes on Redis', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let drop: () => Promise<void>;
  const prefix = testPrefix();
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const database = await createThrowawayPostgres();
    drop = database.drop;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_PREFIX: prefix,
      ADMIN_PASSWORD: 'voice-cluster-password-1',
      LOG_LEVEL: 'info',
      VOICE_MAX_PARTICIPANTS: '4',
      TURN_URL: 'turn:127.0.0.1:3478?transport=udp',
      TURN_SECRET: 'cluster-turn-secret-0123456789',
    };
    [a, b] = (await Promise.all([
      startServerProcess(env, 100_000),
      startServerProcess(env, 100_000),
    ])) as [ServerProcess, ServerProcess];
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all([a, b].filter(Boolean).map((server) => server.stop('SIGKILL')));
    const redis = await connectRedis(REDIS_TEST_URL, prefix);
    await deletePrefix(redis, prefix);
    await redis.close();
    await drop();
  });

  const wsUrl = (server: ServerProcess) => `${server.url.replace('http', 'ws')}/chat-ws`;
  async function join(server: ServerProcess, room: Room, username: string): Promise<Member> {
    const socket = await TestSocket.connect(wsUrl(server));
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId: room.secureId, username });
    const joined = await socket.nextOfType('room_joined', WAIT_MS);
    return {
      socket,
      nodeId: joined.nodeId as string,
      roomId: joined.roomId as string,
      grant: joined.accessToken as string,
    };
  }
  async function participantsOf(member: Member, predicate: (nodeIds: string[]) => boolean) {
    for (;;) {
      const frame = VoiceCallParticipantsFrameSchema.parse(
        await member.socket.nextOfType('voice_call_participants', WAIT_MS),
      );
      const nodeIds = frame.participants.map((participant) => participant.nodeId);
      if (predicate(nodeIds)) return nodeIds;
    }
  }
  const signalsIn = (member: Member) =>
    member.socket.frames.filter((frame) => SIGNAL_TYPES.has(frame.type));

  it('relays signalling between processes to the target only', async () => {
    const room = RoomSchema.parse(
      await (
        await fetch(`${a.url}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'voice-cluster' }),
        })
      ).json(),
    );
    const alice = await join(a, room, 'Agent201');
    const dave = await join(a, room, 'Agent204');
    const bob = await join(b, room, 'Agent202');
    const carol = await join(b, room, 'Agent203');
    const erin = await join(b, room, 'Agent205');

    alice.socket.send({ type: 'voice_call_start', username: 'Agent201' });
    expect((await bob.socket.nextOfType('voice_call_start', WAIT_MS)).nodeId).toBe(alice.nodeId);
    await participantsOf(bob, (nodeIds) => nodeIds.length === 1);
    bob.socket.send({ type: 'voice_call_start', username: 'Agent202' });
    // Joining order; two joins within one millisecond may list either first.
    expect(new Set(await participantsOf(alice, (nodeIds) => nodeIds.length === 2))).toEqual(
      new Set([alice.nodeId, bob.nodeId]),
    );
    await participantsOf(dave, (nodeIds) => nodeIds.length === 2);
    // The shared user list marks both participants (presence in Redis).
    await dave.socket.next((frame) => {
      if (frame.type !== 'user_list_update') return false;
      const users = frame.users as { nodeId: string; isVoiceActive: boolean }[];
      return users.filter((user) => user.isVoiceActive).length === 2 && users.length === 5;
    }, WAIT_MS);

    // A → B and B → A, in both frame forms.
    const offer = { type: 'offer', sdp: 'v=0 cluster' };
    alice.socket.send({
      type: 'webrtc_signaling',
      roomId: alice.roomId,
      targetParticipant: bob.nodeId,
      signalType: 'offer',
      data: offer,
    });
    expect(await bob.socket.nextOfType('webrtc_signaling', WAIT_MS)).toMatchObject({
      fromParticipant: alice.nodeId,
      targetParticipant: bob.nodeId,
      signalType: 'offer',
      data: offer,
    });
    bob.socket.send({ type: 'webrtc_answer', target: alice.nodeId, data: { sdp: 'answer' } });
    expect(await alice.socket.nextOfType('webrtc_answer', WAIT_MS)).toEqual({
      type: 'webrtc_answer',
      from: bob.nodeId,
      target: alice.nodeId,
      data: { sdp: 'answer' },
    });
    bob.socket.send({
      type: 'encryption_status',
      roomId: bob.roomId,
      encryptionEnabled: true,
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    expect(await alice.socket.nextOfType('encryption_status', WAIT_MS)).toMatchObject({
      fromParticipant: bob.nodeId,
      encryptionEnabled: true,
    });

    // A member of the room on the other process who is not in the call is no target.
    alice.socket.send({
      type: 'webrtc_signaling',
      roomId: alice.roomId,
      targetParticipant: carol.nodeId,
      signalType: 'offer',
      data: offer,
    });
    expect((await alice.socket.nextOfType('error', WAIT_MS)).message).toBe(
      'Voice target is not in this call',
    );

    // Sentinels on the room channel from each process: nothing reached carol or dave before.
    alice.socket.send({ type: 'typing_start' });
    bob.socket.send({ type: 'typing_start' });
    for (const member of [carol, dave]) {
      for (const from of [alice, bob])
        await member.socket.next(
          (frame: Frame) => frame.type === 'typing_start' && frame.nodeId === from.nodeId,
          WAIT_MS,
        );
      expect(signalsIn(member)).toEqual([]);
    }
    expect(signalsIn(bob)).toEqual([]);

    // Four members, on both processes, race for the last two places of a call of four.
    const raceMembers = [dave, carol, erin];
    for (const member of raceMembers)
      member.socket.send({ type: 'voice_call_start', username: 'x' });
    const outcomes = await Promise.all(
      raceMembers.map((member) =>
        member.socket.next(
          (frame) =>
            frame.type === 'error' ||
            (frame.type === 'voice_call_participants' &&
              (frame.participants as { nodeId: string }[]).some(
                (participant) => participant.nodeId === member.nodeId,
              )),
          WAIT_MS,
        ),
      ),
    );
    const refused = outcomes.filter((frame) => frame.type === 'error');
    expect(refused.map((frame) => frame.message)).toEqual([
      'This voice call is full (4 participants)',
    ]);
    const full = await participantsOf(alice, (nodeIds) => nodeIds.length === 4);
    expect(full).toHaveLength(4);

    // A grant from a socket on B opens the ICE route on A.
    const response = await fetch(`${a.url}/api/voice/ice-servers`, {
      headers: { 'x-room-access': erin.grant },
    });
    expect(response.status).toBe(200);
    const ice = IceServersResponseSchema.parse(await response.json());
    expect(ice.iceServers.at(-1)?.username).toMatch(new RegExp(`^\\d+:${erin.nodeId}$`));

    // B dies: its participants leave the call within the presence sweep (15 s).
    const inCallOnB = full.filter((nodeId) => [bob, carol, erin].some((m) => m.nodeId === nodeId));
    await b.stop('SIGKILL');
    const remaining = await participantsOf(alice, (nodeIds) =>
      inCallOnB.every((nodeId) => !nodeIds.includes(nodeId)),
    );
    expect(remaining).toContain(alice.nodeId);
  }, 90_000);
});
