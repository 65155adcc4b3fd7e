/**
 * Voice calls on one server (issue 16; spec 000 §7; docs/protocol.md "Voice calls"): the room
 * hears calls start, change and end; offers, answers, ICE candidates and encryption status reach
 * only their target participants; bad signalling gets an error and goes nowhere; leaving the room,
 * closing the socket and the room's destruction take a participant out of the call.
 *
 * Each test uses a room of its own. "Nothing was relayed" is checked with a sentinel: a later
 * frame on the same room channel (delivered in order) reaches the member, and no signalling
 * frame came before it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  VoiceCallEndedFrameSchema,
  VoiceCallParticipantsFrameSchema,
  VoiceCallStartedFrameSchema,
  WebrtcDirectRelayFrameSchema,
  WebrtcSignalingRelayFrameSchema,
} from '../../shared/protocol/ws/voice.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

const SIGNAL_TYPES = new Set([
  'webrtc_signaling',
  'webrtc_offer',
  'webrtc_answer',
  'webrtc_ice_candidate',
  'encryption_status',
]);

const offer = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };

interface Member {
  name: string;
  socket: TestSocket;
  nodeId: string;
  roomId: string;
}

describe('voice calls on one server', () => {
  let server: TestServer;
  let frozenAt: number | null = null;
  const now = () => frozenAt ?? Date.now();
  const sockets: TestSocket[] = [];
  let roomCount = 0;

  beforeAll(async () => {
    server = await startServer({
      deps: { now },
      env: {
        VOICE_MAX_PARTICIPANTS: '3',
        VOICE_SIGNALS_PER_SECOND: '2',
        VOICE_CALL_SIGNALS_PER_SECOND: '10',
      },
    });
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    frozenAt = null;
  });

  async function newRoom(selfDestructTimer: number | null = null): Promise<string> {
    roomCount += 1;
    const room = await server.rooms.createRoom({
      name: `Voice ${roomCount}`,
      isPrivate: false,
      securityLevel: 'public',
      selfDestructTimer: selfDestructTimer as null,
    });
    return room.secureId;
  }

  async function join(
    roomSecureId: string,
    name: string,
    socket?: TestSocket,
    sessionToken?: string,
  ): Promise<Member> {
    const connected = socket ?? (await TestSocket.connect(server.wsUrl()));
    if (!socket) sockets.push(connected);
    connected.send({ type: 'join_room', roomId: roomSecureId, username: name, sessionToken });
    const joined = await connected.nextOfType('room_joined');
    return {
      name,
      socket: connected,
      nodeId: joined.nodeId as string,
      roomId: joined.roomId as string,
    };
  }

  /** Joins the call and waits until the room's list shows `expected` participants. */
  async function startCall(member: Member, expected: number) {
    member.socket.send({ type: 'voice_call_start', username: member.name });
    return participantsOf(member, expected);
  }

  /** Reads participant lists in order until one has `expected` participants. */
  async function participantsOf(member: Member, expected: number) {
    for (;;) {
      const frame = VoiceCallParticipantsFrameSchema.parse(
        await member.socket.nextOfType('voice_call_participants'),
      );
      if (frame.participants.length === expected) return frame;
    }
  }

  /** A frame on the room channel after everything sent before it: typing from `from`. */
  async function sentinel(from: Member, to: Member[]) {
    from.socket.send({ type: 'typing_start' });
    for (const member of to)
      await member.socket.next(
        (frame) => frame.type === 'typing_start' && frame.nodeId === from.nodeId,
      );
  }

  const signalsIn = (member: Member) =>
    member.socket.frames.filter((frame) => SIGNAL_TYPES.has(frame.type));

  const errorOf = (member: Member) => member.socket.nextOfType('error');

  it('tells every member of the room when a call starts, changes and ends', async () => {
    const room = await newRoom();
    const alice = await join(room, 'Agent101');
    const bob = await join(room, 'Agent102');
    const carol = await join(room, 'Agent103');

    alice.socket.send({ type: 'voice_call_start', username: alice.name });
    for (const member of [alice, bob, carol]) {
      const started = VoiceCallStartedFrameSchema.parse(
        await member.socket.nextOfType('voice_call_start'),
      );
      expect(started).toEqual({
        type: 'voice_call_start',
        roomId: alice.roomId,
        username: 'Agent101',
        nodeId: alice.nodeId,
      });
      const list = await participantsOf(member, 1);
      expect(list.participants[0]).toMatchObject({ nodeId: alice.nodeId, username: 'Agent101' });
      expect(list.startedAt).toBe(list.participants[0]?.joinedAt);
    }

    const withBob = await startCall(bob, 2);
    // Joining order; two joins within one millisecond may list either first.
    expect(new Set(withBob.participants.map((participant) => participant.nodeId))).toEqual(
      new Set([alice.nodeId, bob.nodeId]),
    );
    await participantsOf(carol, 2);
    // The user list marks who is in the call.
    const users = await carol.socket.next(
      (frame) =>
        frame.type === 'user_list_update' &&
        (frame.users as { nodeId: string; isVoiceActive: boolean }[]).some(
          (user) => user.nodeId === bob.nodeId && user.isVoiceActive,
        ),
    );
    expect(
      (users.users as { nodeId: string; isVoiceActive: boolean }[]).find(
        (user) => user.nodeId === carol.nodeId,
      )?.isVoiceActive,
    ).toBe(false);

    // A member joining the room while the call is on learns of it once.
    const dave = await join(room, 'Agent104');
    const current = await participantsOf(dave, 2);
    expect(current.roomId).toBe(alice.roomId);

    alice.socket.send({ type: 'voice_call_end', username: alice.name });
    const afterAlice = await participantsOf(carol, 1);
    expect(afterAlice.participants[0]?.nodeId).toBe(bob.nodeId);
    bob.socket.send({ type: 'voice_call_end', username: bob.name });
    for (const member of [alice, bob, carol, dave]) {
      const empty = await participantsOf(member, 0);
      expect(empty.startedAt).toBeNull();
      const ended = VoiceCallEndedFrameSchema.parse(
        await member.socket.nextOfType('voice_call_end'),
      );
      expect(ended).toEqual({
        type: 'voice_call_end',
        roomId: alice.roomId,
        username: 'Agent102',
        nodeId: bob.nodeId,
      });
    }
    // Hanging up twice is harmless: no error, no frame.
    bob.socket.send({ type: 'voice_call_end', username: bob.name });
    await sentinel(bob, [alice]);
    expect(bob.socket.frames.filter((frame) => frame.type === 'error')).toEqual([]);
    expect(alice.socket.frames.some((frame) => frame.type === 'voice_call_end')).toBe(false);

    // A room with no call sends nothing about calls to a newcomer.
    const erin = await join(room, 'Agent105');
    await sentinel(alice, [erin]);
    expect(erin.socket.frames.some((frame) => frame.type.startsWith('voice_'))).toBe(false);
  });

  it('relays offers, answers and candidates to their target only', async () => {
    const room = await newRoom();
    const alice = await join(room, 'Agent111');
    const bob = await join(room, 'Agent112');
    const carol = await join(room, 'Agent113');
    await startCall(alice, 1);
    await startCall(bob, 2);
    await participantsOf(alice, 2);

    alice.socket.send({
      type: 'webrtc_signaling',
      roomId: alice.roomId,
      targetParticipant: bob.nodeId,
      signalType: 'offer',
      data: offer,
    });
    const received = WebrtcSignalingRelayFrameSchema.parse(
      await bob.socket.nextOfType('webrtc_signaling'),
    );
    expect(received).toEqual({
      type: 'webrtc_signaling',
      roomId: alice.roomId,
      fromParticipant: alice.nodeId,
      targetParticipant: bob.nodeId,
      signalType: 'offer',
      data: offer,
    });
    bob.socket.send({
      type: 'webrtc_signaling',
      roomId: bob.roomId,
      targetParticipant: alice.nodeId,
      signalType: 'answer',
      data: { type: 'answer', sdp: 'v=0' },
    });
    expect(await alice.socket.nextOfType('webrtc_signaling')).toMatchObject({
      fromParticipant: bob.nodeId,
      signalType: 'answer',
    });

    // The spec's older targeted frames take the same path.
    const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0' };
    alice.socket.send({ type: 'webrtc_ice_candidate', target: bob.nodeId, data: candidate });
    expect(
      WebrtcDirectRelayFrameSchema.parse(await bob.socket.nextOfType('webrtc_ice_candidate')),
    ).toEqual({
      type: 'webrtc_ice_candidate',
      from: alice.nodeId,
      target: bob.nodeId,
      data: candidate,
    });

    // Encryption status goes to the other participants, not to members outside the call.
    alice.socket.send({
      type: 'encryption_status',
      roomId: alice.roomId,
      encryptionEnabled: true,
      timestamp: 1_700_000_000_000,
    });
    expect(await bob.socket.nextOfType('encryption_status')).toEqual({
      type: 'encryption_status',
      roomId: alice.roomId,
      fromParticipant: alice.nodeId,
      encryptionEnabled: true,
      timestamp: 1_700_000_000_000,
    });
    // The sender's signature (its proof) is relayed as it came, for bob to verify.
    const proof = {
      v: 1,
      ts: 1_700_000_000_001,
      to: { [bob.nodeId]: 'ab'.repeat(12) },
      sig: 'c2ln',
    };
    alice.socket.send({
      type: 'encryption_status',
      roomId: alice.roomId,
      encryptionEnabled: false,
      timestamp: 1_700_000_000_001,
      proof,
    });
    expect(await bob.socket.nextOfType('encryption_status')).toEqual({
      type: 'encryption_status',
      roomId: alice.roomId,
      fromParticipant: alice.nodeId,
      encryptionEnabled: false,
      timestamp: 1_700_000_000_001,
      proof,
    });

    await sentinel(bob, [alice, carol]);
    expect(signalsIn(carol)).toEqual([]);
    expect(signalsIn(alice)).toEqual([]);
  });

  it('refuses bad signalling with an error and relays nothing', async () => {
    const room = await newRoom();
    const otherRoom = await newRoom();
    const alice = await join(room, 'Agent121');
    const bob = await join(room, 'Agent122');
    const carol = await join(room, 'Agent123');
    const dave = await join(otherRoom, 'Agent124');
    const erin = await join(otherRoom, 'Agent126');
    const signal = (from: Member, fields: Record<string, unknown>) =>
      from.socket.send({
        type: 'webrtc_signaling',
        roomId: from.roomId,
        targetParticipant: bob.nodeId,
        signalType: 'offer',
        data: offer,
        ...fields,
      });

    // Not in the call yet.
    signal(alice, {});
    expect((await errorOf(alice)).message).toBe('Join the voice call before signalling');

    await startCall(alice, 1);
    await startCall(dave, 1);

    // Bob is in the room but not in the call; carol neither; dave is in another room's call.
    signal(alice, {});
    expect((await errorOf(alice)).message).toBe('Voice target is not in this call');
    signal(alice, { targetParticipant: dave.nodeId });
    expect((await errorOf(alice)).message).toBe('Voice target is not in this call');
    signal(alice, { targetParticipant: 'node_0000000000000000' });
    expect((await errorOf(alice)).message).toBe('Voice target is not in this call');
    signal(alice, { targetParticipant: alice.nodeId });
    expect((await errorOf(alice)).message).toBe('Voice target is not in this call');
    alice.socket.send({ type: 'webrtc_offer', target: dave.nodeId, data: offer });
    expect((await errorOf(alice)).message).toBe('Voice target is not in this call');

    await startCall(bob, 2);
    // A room that is not the sender's.
    signal(alice, { roomId: dave.roomId });
    expect((await errorOf(alice)).message).toBe('That voice call is in another channel');
    alice.socket.send({
      type: 'encryption_status',
      roomId: dave.roomId,
      encryptionEnabled: false,
      timestamp: 1,
    });
    expect((await errorOf(alice)).message).toBe('That voice call is in another channel');
    // A proof that is not one (its format is checked; its signature only by the receivers).
    alice.socket.send({
      type: 'encryption_status',
      roomId: alice.roomId,
      encryptionEnabled: false,
      timestamp: 1,
      proof: { v: 1, ts: 1, to: {}, sig: 'c2ln', extra: true },
    });
    expect((await errorOf(alice)).frameType).toBe('encryption_status');
    // An SDP over 16 000 characters.
    signal(alice, { data: { type: 'offer', sdp: 'a'.repeat(16_001) } });
    expect(await errorOf(alice)).toMatchObject({
      message: 'Invalid webrtc_signaling frame: Signal payload too large',
      frameType: 'webrtc_signaling',
    });
    // Carol, outside the call, cannot reach a participant.
    signal(carol, {});
    expect((await errorOf(carol)).message).toBe('Join the voice call before signalling');
    // A socket in no room.
    const loner = await TestSocket.connect(server.wsUrl());
    sockets.push(loner);
    loner.send({ type: 'voice_call_start', username: 'Agent125' });
    expect((await loner.nextOfType('error')).message).toBe(
      'Join a channel before starting a voice call',
    );

    await sentinel(alice, [bob, carol]);
    await sentinel(erin, [dave]);
    expect(signalsIn(bob)).toEqual([]);
    expect(signalsIn(carol)).toEqual([]);
    expect(signalsIn(dave)).toEqual([]);
    // The sockets stay open.
    expect(alice.socket.closeCode).toBeNull();
  });

  it('caps a call at VOICE_MAX_PARTICIPANTS', async () => {
    const room = await newRoom();
    const members = await Promise.all(
      ['Agent131', 'Agent132', 'Agent133', 'Agent134'].map((name) => join(room, name)),
    );
    const [first, second, third, fourth] = members as [Member, Member, Member, Member];
    await startCall(first, 1);
    await startCall(second, 2);
    await startCall(third, 3);
    fourth.socket.send({ type: 'voice_call_start', username: fourth.name });
    expect((await errorOf(fourth)).message).toBe('This voice call is full (3 participants)');
    await sentinel(first, [fourth]);
    expect(
      fourth.socket.frames.some(
        (frame) =>
          frame.type === 'voice_call_participants' &&
          (frame.participants as { nodeId: string }[]).some(
            (participant) => participant.nodeId === fourth.nodeId,
          ),
      ),
    ).toBe(false);
    // Once someone leaves there is room again.
    first.socket.send({ type: 'voice_call_end', username: first.name });
    await participantsOf(fourth, 2);
    await startCall(fourth, 3);
  });

  it('limits signalling per socket and per call', async () => {
    const room = await newRoom();
    const alice = await join(room, 'Agent141');
    const bob = await join(room, 'Agent142');
    await startCall(alice, 1);
    await startCall(bob, 2);
    await participantsOf(alice, 2);
    frozenAt = Date.now();
    const candidate = (index: number) => ({ candidate: `candidate:${index}`, sdpMid: '0' });
    // A socket's bucket holds 4 s of its 2 a second: 8, then errors.
    for (let index = 0; index < 10; index += 1) {
      alice.socket.send({
        type: 'webrtc_signaling',
        roomId: alice.roomId,
        targetParticipant: bob.nodeId,
        signalType: 'ice_candidate',
        data: candidate(index),
      });
    }
    for (let index = 0; index < 2; index += 1)
      expect((await errorOf(alice)).message).toBe('Too many voice signalling frames: slow down');
    // The call's 10 a second, shared by its participants: 2 more from bob, then errors.
    for (let index = 0; index < 4; index += 1) {
      bob.socket.send({ type: 'webrtc_answer', target: alice.nodeId, data: candidate(index) });
    }
    for (let index = 0; index < 2; index += 1)
      expect((await errorOf(bob)).message).toBe('Too many voice signalling frames: slow down');
    await sentinel(alice, [bob]);
    await sentinel(bob, [alice]);
    const toBob = signalsIn(bob) as Frame[];
    expect(toBob.map((frame) => (frame.data as { candidate: string }).candidate)).toEqual(
      Array.from({ length: 8 }, (_, index) => `candidate:${index}`),
    );
    expect(signalsIn(alice)).toHaveLength(2);
  });

  it('takes a participant out of the call when it leaves the room or its socket closes', async () => {
    const room = await newRoom();
    const otherRoom = await newRoom();
    const alice = await join(room, 'Agent151');
    const bob = await join(room, 'Agent152');
    const carol = await join(room, 'Agent153');
    await startCall(alice, 1);
    await startCall(bob, 2);
    await startCall(carol, 3);
    await participantsOf(alice, 3);

    // Bob joins another room on the same socket.
    await join(otherRoom, bob.name, bob.socket);
    const withoutBob = await participantsOf(alice, 2);
    // Joining order; two joins within one millisecond may list either first.
    expect(new Set(withoutBob.participants.map((participant) => participant.nodeId))).toEqual(
      new Set([alice.nodeId, carol.nodeId]),
    );
    alice.socket.send({
      type: 'webrtc_signaling',
      roomId: alice.roomId,
      targetParticipant: bob.nodeId,
      signalType: 'offer',
      data: offer,
    });
    expect((await errorOf(alice)).message).toBe('Voice target is not in this call');

    // Carol's socket closes, then alice's: the call ends.
    const dan = await join(room, 'Agent155');
    carol.socket.close();
    await participantsOf(alice, 1);
    alice.socket.close();
    await participantsOf(dan, 0);
    expect((await dan.socket.nextOfType('voice_call_end')).nodeId).toBe(alice.nodeId);
    const watcher = await join(room, 'Agent154');
    await sentinel(dan, [watcher]);
    expect(watcher.socket.frames.some((frame) => frame.type === 'voice_call_participants')).toBe(
      false,
    );
  });

  it('takes a kicked participant out of the call', async () => {
    const chief = await makeRegisteredKey(server.baseUrl, { username: 'chief', level: 'admin' });
    const token = (await login(server.baseUrl, chief)).body.sessionToken as string;
    const room = await newRoom();
    const admin = await join(room, 'chief', undefined, token);
    const alice = await join(room, 'Agent171');
    const bob = await join(room, 'Agent172');
    await startCall(alice, 1);
    await startCall(bob, 2);
    await participantsOf(admin, 2);
    admin.socket.send({ type: 'kick_member', nodeId: bob.nodeId });
    await bob.socket.nextOfType('removed_from_room');
    const after = await participantsOf(admin, 1);
    expect(after.participants[0]?.nodeId).toBe(alice.nodeId);
    alice.socket.send({ type: 'webrtc_offer', target: bob.nodeId, data: offer });
    expect((await errorOf(alice)).message).toBe('Voice target is not in this call');
  });

  it('ends the call of a room that self-destructs before the room goes', async () => {
    const room = await newRoom(0.5);
    const alice = await join(room, 'Agent161');
    const bob = await join(room, 'Agent162');
    await startCall(alice, 1);
    await startCall(bob, 2);
    frozenAt = Date.now() + 60_000;
    await server.rooms.destroyDueRooms();
    await participantsOf(bob, 0);
    const ended = await bob.socket.nextOfType('voice_call_end');
    expect(ended.roomId).toBe(alice.roomId);
    await bob.socket.nextOfType('room_destroyed');
    // The call is gone with the room: joining a call needs a room again.
    bob.socket.send({ type: 'voice_call_start', username: bob.name });
    expect((await errorOf(bob)).message).toBe('Join a channel before starting a voice call');
  });
});
