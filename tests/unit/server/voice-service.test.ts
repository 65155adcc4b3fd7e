/**
 * VoiceService without a server (server/features/voice/service.ts): what the room hears on join
 * and leave, and participants left behind by a stopped process (in the call, no longer in the
 * room) being dropped by the next join.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../../server/lib/rate-limiter.js';
import { MemoryVoiceCallStore, VoiceService } from '../../../server/features/voice/index.js';

function setup(maxParticipants = 8) {
  const store = new MemoryVoiceCallStore();
  const members = new Set<string>();
  const published: { frame: { type: string } & Record<string, unknown>; only?: string }[] = [];
  const active = new Map<string, boolean>();
  let now = Date.UTC(2026, 0, 1);
  const service = new VoiceService({
    store,
    publish: async (_roomId, frame, options) => {
      published.push({ frame, ...(options?.onlyNodeId ? { only: options.onlyNodeId } : {}) });
    },
    setVoiceActive: async (_roomId, nodeId, isVoiceActive) => {
      if (members.has(nodeId)) active.set(nodeId, isVoiceActive);
    },
    roomMembers: async () => new Set(members),
    callSignals: new MemoryRateLimiter(100, 1000, () => now),
    maxParticipants,
    now: () => (now += 1000),
  });
  const member = (index: number) => {
    const nodeId = `node_${String(index).padStart(16, '0')}`;
    members.add(nodeId);
    return { roomId: 'r1', nodeId, username: `Agent${index}` };
  };
  return { store, service, members, published, active, member };
}

describe('voice service', () => {
  it('starts a call with the first participant and ends it with the last', async () => {
    const { service, published, active, member } = setup();
    const alice = member(1);
    const bob = member(2);
    await service.join(alice);
    await service.join(bob);
    expect(published.map((entry) => entry.frame.type)).toEqual([
      'voice_call_start',
      'voice_call_participants',
      'voice_call_participants',
    ]);
    expect(active.get(alice.nodeId)).toBe(true);
    published.length = 0;
    await service.leave(alice);
    await service.leave(bob);
    await service.leave(bob);
    expect(published.map((entry) => entry.frame)).toEqual([
      expect.objectContaining({
        type: 'voice_call_participants',
        participants: [expect.anything()],
      }),
      { type: 'voice_call_participants', roomId: 'r1', participants: [], startedAt: null },
      { type: 'voice_call_end', roomId: 'r1', username: 'Agent2', nodeId: bob.nodeId },
    ]);
    expect(active.get(bob.nodeId)).toBe(false);
  });

  it('drops participants who are no longer in the room when someone joins', async () => {
    const { store, service, members, published, member } = setup(2);
    const ghostOne = member(1);
    const ghostTwo = member(2);
    await service.join(ghostOne);
    await service.join(ghostTwo);
    // Their process stopped after they left the room, before they left the call.
    members.delete(ghostOne.nodeId);
    members.delete(ghostTwo.nodeId);
    published.length = 0;

    const carol = member(3);
    expect(await service.join(carol)).toBeNull();
    expect((await store.get('r1'))?.participants.map((entry) => entry.nodeId)).toEqual([
      carol.nodeId,
    ]);
    // The call is Carol's alone now: the room hears it start with her.
    expect(published.map((entry) => entry.frame.type)).toEqual([
      'voice_call_start',
      'voice_call_participants',
    ]);
  });

  it('relays encryption status to every other participant, one by one', async () => {
    const { service, published, member } = setup();
    const [alice, bob, carol] = [member(1), member(2), member(3)];
    for (const participant of [alice, bob, carol]) await service.join(participant);
    published.length = 0;
    await service.relayEncryptionStatus(alice, {
      roomId: 'r1',
      encryptionEnabled: true,
      timestamp: 5,
    });
    expect(published.map((entry) => entry.only)).toEqual([bob.nodeId, carol.nodeId]);
  });
});
