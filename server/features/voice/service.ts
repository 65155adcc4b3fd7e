/**
 * Voice calls (spec 000 §4 "Voice call", §7; DESIGN.md "Voice"): who is in each room's call, and
 * the relay of signalling between its participants. No sockets, no Redis: the store and the
 * room publisher come in as arguments. The server sees SDP and ICE candidates (addresses and
 * DTLS fingerprints) but never media or media keys.
 */
import type { VoiceParticipant, VoiceStatusProof } from '../../../shared/protocol/ws/voice.js';
import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { VoiceCall, VoiceCallStore } from './store.js';

export const VOICE_TEXT = {
  notInRoom: 'Join a channel before starting a voice call',
  otherRoom: 'That voice call is in another channel',
  notInCall: 'Join the voice call before signalling',
  targetNotInCall: 'Voice target is not in this call',
  tooFast: 'Too many voice signalling frames: slow down',
  notMember: 'Only members of this channel can use voice',
  callFull: (max: number) => `This voice call is full (${max} participants)`,
} as const;

/** A socket in a room, as voice knows it. */
export interface VoiceMember {
  roomId: string;
  nodeId: string;
  username: string;
}

/** A frame for the room's members: all of them, or the one `onlyNodeId` names. */
export type VoicePublish = (
  roomId: string,
  frame: { type: string } & Record<string, unknown>,
  options?: { onlyNodeId?: string },
) => Promise<void>;

export interface VoiceServiceDeps {
  store: VoiceCallStore;
  publish: VoicePublish;
  /** Marks the member in the room's user list (`isVoiceActive`) and republishes the list. */
  setVoiceActive: (roomId: string, nodeId: string, isVoiceActive: boolean) => Promise<void>;
  /**
   * The node ids of the room's members now (presence). A participant that is not one is a ghost:
   * its process stopped between leaving the room and leaving the call.
   */
  roomMembers: (roomId: string) => Promise<Set<string>>;
  /** Signalling frames per call (key: room id) in a one-second window, on every process. */
  callSignals: RateLimiter;
  maxParticipants: number;
  now: () => number;
}

export type SignalKind = 'webrtc_offer' | 'webrtc_answer' | 'webrtc_ice_candidate';

export class VoiceService {
  constructor(private readonly deps: VoiceServiceDeps) {}

  /** `voice_call_participants` for `roomId` as every member receives it. */
  participantsFrame(roomId: string, call: VoiceCall | null) {
    return {
      type: 'voice_call_participants',
      roomId,
      participants: call?.participants ?? [],
      startedAt: call?.startedAt ?? null,
    };
  }

  /**
   * Adds the member to its room's call. Returns the participants frame for the member alone
   * when it was in the call already; the room hears about a real change.
   */
  async join(member: VoiceMember): Promise<ReturnType<VoiceService['participantsFrame']> | null> {
    const participant: VoiceParticipant = {
      nodeId: member.nodeId,
      username: member.username,
      joinedAt: new Date(this.deps.now()).toISOString(),
    };
    let result = await this.deps.store.join(member.roomId, participant, this.deps.maxParticipants);
    if (result.status === 'full') {
      // A call full of ghosts is not full: drop them and try once more.
      const current = await this.deps.store.get(member.roomId);
      const pruned = current ? await this.withoutGhosts(member.roomId, current) : null;
      if (current && pruned && pruned.participants.length < current.participants.length) {
        result = await this.deps.store.join(member.roomId, participant, this.deps.maxParticipants);
      }
    }
    if (result.status === 'full') {
      throw new AppError('VOICE_CALL_FULL', 409, VOICE_TEXT.callFull(this.deps.maxParticipants));
    }
    const call = await this.withoutGhosts(member.roomId, result.call);
    if (result.status === 'already') return this.participantsFrame(member.roomId, call);
    if (call.participants.length === 1) {
      await this.deps.publish(member.roomId, {
        type: 'voice_call_start',
        roomId: member.roomId,
        username: member.username,
        nodeId: member.nodeId,
      });
    }
    await this.deps.publish(member.roomId, this.participantsFrame(member.roomId, call));
    await this.deps.setVoiceActive(member.roomId, member.nodeId, true);
    return null;
  }

  /**
   * Drops participants that are no longer members of the room. A leave normally takes a member
   * out of both, but a process stopped between the two would leave a participant no one can
   * reach; the next join notices. Returns the call as it is afterwards.
   */
  private async withoutGhosts(roomId: string, call: VoiceCall): Promise<VoiceCall> {
    const members = await this.deps.roomMembers(roomId);
    const ghosts = call.participants.filter((participant) => !members.has(participant.nodeId));
    if (ghosts.length === 0) return call;
    let current: VoiceCall | null = call;
    for (const ghost of ghosts) current = (await this.deps.store.leave(roomId, ghost.nodeId)).call;
    return current ?? { participants: [], startedAt: call.startedAt };
  }

  /**
   * Removes the member from its room's call, whatever the reason (hang-up, leaving the room,
   * socket closed, kick or ban, process gone). Nothing happens when it was not in the call.
   */
  async leave(member: VoiceMember): Promise<void> {
    const result = await this.deps.store.leave(member.roomId, member.nodeId);
    if (!result.removed) return;
    await this.deps.publish(member.roomId, this.participantsFrame(member.roomId, result.call));
    if (!result.call) {
      await this.deps.publish(member.roomId, {
        type: 'voice_call_end',
        roomId: member.roomId,
        username: member.username,
        nodeId: member.nodeId,
      });
    }
    // A member who left the room is gone from its user list already: nothing to mark then.
    await this.deps.setVoiceActive(member.roomId, member.nodeId, false);
  }

  /** The room's call for a member who just joined the room, or null when none is on. */
  async currentCall(roomId: string) {
    const call = await this.deps.store.get(roomId);
    return call ? this.participantsFrame(roomId, call) : null;
  }

  /** Ends the call of a room being destroyed: its members hear it end before room_destroyed. */
  async endRoom(roomId: string): Promise<void> {
    const participants = await this.deps.store.purgeRoom(roomId);
    const last = participants.at(-1);
    if (!last) return;
    await this.deps.publish(roomId, this.participantsFrame(roomId, null));
    await this.deps.publish(roomId, {
      type: 'voice_call_end',
      roomId,
      username: last.username,
      nodeId: last.nodeId,
    });
  }

  /**
   * Checks a signalling frame: the room is the sender's, the sender and every target are
   * participants (and no target is the sender), the call's signalling rate holds. Throws the error
   * the sender hears; nothing is relayed then.
   */
  private async admit(sender: VoiceMember, roomId: string, targets: string[] | null) {
    if (roomId !== sender.roomId) throw new AppError('VOICE_OTHER_ROOM', 403, VOICE_TEXT.otherRoom);
    const wanted = [sender.nodeId, ...(targets ?? [])];
    const [isSenderIn, ...areTargetsIn] = await this.deps.store.areParticipants(
      sender.roomId,
      wanted,
    );
    if (!isSenderIn) throw new AppError('VOICE_NOT_IN_CALL', 403, VOICE_TEXT.notInCall);
    if (targets?.some((target, index) => target === sender.nodeId || !areTargetsIn[index])) {
      throw new AppError('VOICE_TARGET', 400, VOICE_TEXT.targetNotInCall);
    }
    // Counted only for participants, so members outside the call cannot use up its allowance.
    if (!(await this.deps.callSignals.hit(sender.roomId))) {
      throw new AppError('VOICE_SIGNAL_RATE', 429, VOICE_TEXT.tooFast);
    }
  }

  /** `webrtc_signaling`: to the target participant only. */
  async relaySignal(
    sender: VoiceMember,
    frame: { roomId: string; targetParticipant: string; signalType: string; data: unknown },
  ): Promise<void> {
    await this.admit(sender, frame.roomId, [frame.targetParticipant]);
    await this.deps.publish(
      sender.roomId,
      {
        type: 'webrtc_signaling',
        roomId: sender.roomId,
        fromParticipant: sender.nodeId,
        targetParticipant: frame.targetParticipant,
        signalType: frame.signalType,
        data: frame.data,
      },
      { onlyNodeId: frame.targetParticipant },
    );
  }

  /** `webrtc_offer` / `webrtc_answer` / `webrtc_ice_candidate`: to the target only. */
  async relayDirect(
    sender: VoiceMember,
    frame: { type: SignalKind; target: string; data: unknown },
  ): Promise<void> {
    await this.admit(sender, sender.roomId, [frame.target]);
    await this.deps.publish(
      sender.roomId,
      { type: frame.type, from: sender.nodeId, target: frame.target, data: frame.data },
      { onlyNodeId: frame.target },
    );
  }

  /** `encryption_status`: to the other participants of the sender's call. */
  async relayEncryptionStatus(
    sender: VoiceMember,
    frame: {
      roomId: string;
      encryptionEnabled: boolean;
      timestamp: string | number;
      proof?: VoiceStatusProof;
    },
  ): Promise<void> {
    await this.admit(sender, frame.roomId, null);
    const call = await this.deps.store.get(sender.roomId);
    // The proof is the sender's signature, for the receivers to check: relayed as it came.
    const relayed = {
      type: 'encryption_status',
      roomId: sender.roomId,
      fromParticipant: sender.nodeId,
      encryptionEnabled: frame.encryptionEnabled,
      timestamp: frame.timestamp,
      ...(frame.proof ? { proof: frame.proof } : {}),
    };
    for (const participant of call?.participants ?? []) {
      if (participant.nodeId === sender.nodeId) continue;
      await this.deps.publish(sender.roomId, relayed, { onlyNodeId: participant.nodeId });
    }
  }
}
