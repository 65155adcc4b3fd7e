/**
 * Who is in each room's voice call. The memory store serves one process; the Redis store
 * (server/redis/redis-voice-store.ts) shares calls between processes. Joining checks the cap
 * and adds in one step on either, so a call never holds more than its cap.
 */
import type { VoiceParticipant } from '../../../shared/protocol/ws/voice.js';

/** A call as the server keeps it: its participants in joining order and when it started. */
export interface VoiceCall {
  participants: VoiceParticipant[];
  /** ISO date of the first participant's joining. */
  startedAt: string;
}

export type VoiceJoinResult =
  | { status: 'joined'; call: VoiceCall }
  | { status: 'already'; call: VoiceCall }
  | { status: 'full' };

export interface VoiceLeaveResult {
  /** False when the node was not in the room's call. */
  removed: boolean;
  /** The call after the change, or null when no one is left. */
  call: VoiceCall | null;
}

export interface VoiceCallStore {
  /** Adds `participant` to the room's call unless it already holds `maxParticipants`. */
  join(
    roomId: string,
    participant: VoiceParticipant,
    maxParticipants: number,
  ): Promise<VoiceJoinResult>;
  leave(roomId: string, nodeId: string): Promise<VoiceLeaveResult>;
  /** The room's call, or null when none is on. */
  get(roomId: string): Promise<VoiceCall | null>;
  /** Which of `nodeIds` are participants of the room's call, in the same order. */
  areParticipants(roomId: string, nodeIds: string[]): Promise<boolean[]>;
  /** Ends the room's call (the room was destroyed); returns who was in it. */
  purgeRoom(roomId: string): Promise<VoiceParticipant[]>;
}

/** Orders participants by joining time (then nodeId), as every process lists them. */
export function byJoiningOrder(a: VoiceParticipant, b: VoiceParticipant): number {
  if (a.joinedAt !== b.joinedAt) return a.joinedAt < b.joinedAt ? -1 : 1;
  return a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0;
}

export class MemoryVoiceCallStore implements VoiceCallStore {
  private readonly calls = new Map<
    string,
    { participants: Map<string, VoiceParticipant>; startedAt: string }
  >();

  async join(
    roomId: string,
    participant: VoiceParticipant,
    maxParticipants: number,
  ): Promise<VoiceJoinResult> {
    const call = this.calls.get(roomId);
    if (call?.participants.has(participant.nodeId))
      return { status: 'already', call: this.view(call) };
    if (call && call.participants.size >= maxParticipants) return { status: 'full' };
    const current = call ?? { participants: new Map(), startedAt: participant.joinedAt };
    current.participants.set(participant.nodeId, participant);
    this.calls.set(roomId, current);
    return { status: 'joined', call: this.view(current) };
  }

  async leave(roomId: string, nodeId: string): Promise<VoiceLeaveResult> {
    const call = this.calls.get(roomId);
    if (!call?.participants.delete(nodeId)) {
      return { removed: false, call: call ? this.view(call) : null };
    }
    if (call.participants.size === 0) {
      this.calls.delete(roomId);
      return { removed: true, call: null };
    }
    return { removed: true, call: this.view(call) };
  }

  async get(roomId: string): Promise<VoiceCall | null> {
    const call = this.calls.get(roomId);
    return call ? this.view(call) : null;
  }

  async areParticipants(roomId: string, nodeIds: string[]): Promise<boolean[]> {
    const call = this.calls.get(roomId);
    return nodeIds.map((nodeId) => call?.participants.has(nodeId) ?? false);
  }

  async purgeRoom(roomId: string): Promise<VoiceParticipant[]> {
    const call = this.calls.get(roomId);
    this.calls.delete(roomId);
    return call ? [...call.participants.values()].sort(byJoiningOrder) : [];
  }

  private view(call: {
    participants: Map<string, VoiceParticipant>;
    startedAt: string;
  }): VoiceCall {
    return {
      participants: [...call.participants.values()].sort(byJoiningOrder),
      startedAt: call.startedAt,
    };
  }
}
