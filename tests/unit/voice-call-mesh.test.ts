/**
 * The call's mesh and frame keys (client/features/voice/voice-call.ts) with fake WebRTC and Web
 * Audio: the participant whose node id sorts first makes the offer; frame keys go to the call's
 * participants only; a join or a leave rotates the key, and the counter rises only when the new
 * key is sealing; a failed peer is dropped; close() sends voice_call_end, stops every track and
 * closes every peer connection.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClientFrame } from '../../shared/protocol/ws/index.js';
import { VoiceCall } from '../../client/features/voice/voice-call.js';
import { DEFAULT_VOICE_SETTINGS } from '../../client/features/voice/voice-settings.js';
import { type VoiceKeyGrant } from '../../client/features/e2ee/sender-key-envelope.js';
import { generateMlDsaKeyPair } from '../../shared/crypto/ml-dsa.js';

const signingKey = generateMlDsaKeyPair(new Uint8Array(32).fill(5));

class FakeTrack {
  kind = 'audio';
  enabled = true;
  readyState = 'live';
  stop() {
    this.readyState = 'ended';
  }
}

class FakeStream {
  constructor(private readonly tracks: FakeTrack[] = [new FakeTrack()]) {}
  getTracks() {
    return this.tracks;
  }
  getAudioTracks() {
    return this.tracks;
  }
}

const pcs: FakePeerConnection[] = [];

class FakePeerConnection {
  connectionState = 'new';
  signalingState = 'stable';
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  onconnectionstatechange: (() => void) | null = null;
  readonly senders: { track: FakeTrack; transform?: unknown }[] = [];
  /** The options of every createOffer (an ICE restart asks `{iceRestart: true}`). */
  readonly offers: unknown[] = [];
  constructor(public config: { iceServers?: unknown }) {
    pcs.push(this);
  }
  getConfiguration() {
    return this.config;
  }
  setConfiguration(config: { iceServers?: unknown }) {
    this.config = config;
  }
  readonly transceivers: { sender: object; receiver: { transform?: unknown } }[] = [];
  addTrack(track: FakeTrack) {
    const sender = { track };
    this.senders.push(sender);
    this.transceivers.push({ sender, receiver: {} });
    return sender;
  }
  getTransceivers() {
    return this.transceivers;
  }
  getSenders() {
    return this.senders;
  }
  createOffer(options?: unknown) {
    this.offers.push(options);
    return Promise.resolve({ type: 'offer', sdp: 'v=0 offer' });
  }
  createAnswer() {
    return Promise.resolve({ type: 'answer', sdp: 'v=0 answer' });
  }
  setLocalDescription() {
    return Promise.resolve();
  }
  setRemoteDescription() {
    return Promise.resolve();
  }
  addIceCandidate() {
    return Promise.resolve();
  }
  getStats() {
    return Promise.resolve(new Map());
  }
  close() {
    this.signalingState = 'closed';
    this.connectionState = 'closed';
  }
  fail() {
    this.connectionState = 'failed';
    this.onconnectionstatechange?.();
  }
}

const microphone = new FakeStream();
const outgoing = new FakeTrack();

function installFakes() {
  const context = {
    state: 'running',
    audioWorklet: { addModule: () => Promise.resolve() },
    createMediaStreamSource: () => ({ connect: (node: unknown) => node }),
    createMediaStreamDestination: () => ({
      channelCount: 1,
      stream: new FakeStream([outgoing]),
    }),
    resume: () => Promise.resolve(),
    close: vi.fn(() => Promise.resolve()),
  };
  vi.stubGlobal('window', globalThis);
  vi.stubGlobal('navigator', { mediaDevices: { getUserMedia: () => Promise.resolve(microphone) } });
  vi.stubGlobal(
    'AudioContext',
    vi.fn(function AudioContext() {
      return context;
    }),
  );
  vi.stubGlobal(
    'AudioWorkletNode',
    vi.fn(function AudioWorkletNode() {
      return {
        connect: (node: unknown) => node,
        disconnect: () => undefined,
        port: { postMessage: () => undefined },
      };
    }),
  );
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('RTCRtpScriptTransform', function RTCRtpScriptTransform() {});
  vi.stubGlobal('MediaStream', FakeStream);
  return context;
}

interface Harness {
  call: VoiceCall;
  sent: ClientFrame[];
  keysSent: { nodeId: string; grant: VoiceKeyGrant }[];
  workerMessages: unknown[];
  emit: (type: string, frame: object) => void;
  /** A frame key arriving from `from` through the key channel. */
  voiceKey: (from: string, grant: VoiceKeyGrant) => void;
  /** While false, a frame key cannot leave (the recipient's bundle unknown): it is owed. */
  keyChannel: { isOpen: boolean };
}

function harness(
  selfNodeId: string,
  getIceServers: () => Promise<
    RTCIceServer[] | { iceServers: RTCIceServer[]; ttl?: number }
  > = () => Promise.resolve([{ urls: 'stun:127.0.0.1:3478' }]),
): Harness {
  const listeners = new Map<string, ((frame: unknown) => void)[]>();
  const sent: ClientFrame[] = [];
  const keysSent: { nodeId: string; grant: VoiceKeyGrant }[] = [];
  const workerMessages: unknown[] = [];
  const voiceKeyListeners: ((from: string, grant: VoiceKeyGrant) => void)[] = [];
  const keyChannel = { isOpen: true };
  const call = new VoiceCall({
    socket: {
      send: (frame) => sent.push(frame) > 0,
      on: (type, listener) => {
        const list = listeners.get(type) ?? [];
        list.push(listener as (frame: unknown) => void);
        listeners.set(type, list);
        return () => undefined;
      },
    },
    keys: {
      sendVoiceKey: (nodeId, grant) => {
        if (!keyChannel.isOpen) return Promise.resolve(false);
        keysSent.push({ nodeId, grant: { ...grant, key: grant.key.slice() } });
        return Promise.resolve(true);
      },
      onVoiceKey: (listener) => {
        voiceKeyListeners.push(listener);
        return () => undefined;
      },
    },
    statusKeys: {
      signer: () => ({ roomId: 'a'.repeat(64), secretKey: signingKey.secretKey }),
      signerOf: () => ({
        roomId: 'a'.repeat(64),
        publicKeys: [signingKey.publicKey],
        isBad: false,
        isVerified: false,
      }),
    },
    roomId: 'room-1',
    selfNodeId,
    username: 'Agent7',
    settings: DEFAULT_VOICE_SETTINGS,
    getIceServers,
    isTor: false,
    workletUrl: '/worklet.js',
    createWorker: () =>
      ({
        postMessage: (message: unknown) => workerMessages.push(message),
        terminate: vi.fn(),
        onmessage: null,
      }) as unknown as Worker,
  });
  const emit = (type: string, frame: object) => {
    for (const listener of listeners.get(type) ?? []) listener({ type, ...frame });
  };
  const voiceKey = (from: string, grant: VoiceKeyGrant) => {
    for (const listener of voiceKeyListeners) listener(from, grant);
  };
  return { call, sent, keysSent, workerMessages, emit, voiceKey, keyChannel };
}

const participant = (nodeId: string) => ({
  nodeId,
  username: nodeId,
  joinedAt: '2030-01-01T00:00:00.000Z',
});

function roster(h: Harness, ...nodeIds: string[]) {
  h.emit('voice_call_participants', {
    roomId: 'room-1',
    participants: nodeIds.map(participant),
    startedAt: '2030-01-01T00:00:00.000Z',
  });
}

const ownKeyVersions = (h: Harness) =>
  h.workerMessages.flatMap((message) =>
    (message as { type: string; version?: number }).type === 'own-key'
      ? [(message as { version: number }).version]
      : [],
  );

describe('the call mesh and its frame keys', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    pcs.length = 0;
    microphone.getTracks().forEach((track) => (track.readyState = 'live'));
    outgoing.readyState = 'live';
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('joins, offers only to higher node ids, rotates on join and leave, and closes cleanly', async () => {
    const context = installFakes();
    const h = harness('node-b');
    await h.call.start();
    expect(h.sent[0]).toEqual({ type: 'voice_call_start', username: 'Agent7' });
    // The first key seals at once (version 1): it is not a rotation.
    expect(ownKeyVersions(h)).toEqual([1]);

    // Joining a call with node-a in it: node-a sorts first, so node-a offers, not us.
    roster(h, 'node-a', 'node-b');
    await vi.advanceTimersByTimeAsync(0);
    expect(pcs).toHaveLength(0);
    expect(h.keysSent.map((k) => [k.nodeId, k.grant.version])).toEqual([['node-a', 1]]);
    expect(h.call.getState().rotations).toBe(0);

    // node-c joins: we sort first, so we offer; a new key goes to both others.
    roster(h, 'node-a', 'node-b', 'node-c');
    await vi.advanceTimersByTimeAsync(0);
    expect(pcs).toHaveLength(1);
    // Both directions get their frame transform before negotiation.
    expect(pcs[0]!.senders[0]!.transform).toBeDefined();
    expect(pcs[0]!.transceivers[0]!.receiver.transform).toBeDefined();
    const offer = h.sent.find((frame) => frame.type === 'webrtc_signaling');
    expect(offer).toMatchObject({ targetParticipant: 'node-c', signalType: 'offer' });
    expect(h.keysSent.slice(1).map((k) => [k.nodeId, k.grant.version])).toEqual([
      ['node-a', 2],
      ['node-c', 2],
    ]);
    expect(h.call.getState().rotations).toBe(0);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(ownKeyVersions(h)).toEqual([1, 2]);
    expect(h.call.getState().rotations).toBe(1);

    // node-a leaves: the next key goes to node-c only.
    roster(h, 'node-b', 'node-c');
    await vi.advanceTimersByTimeAsync(1_500);
    expect(h.keysSent.slice(3).map((k) => [k.nodeId, k.grant.version])).toEqual([['node-c', 3]]);
    expect(h.call.getState().rotations).toBe(2);
    expect(h.workerMessages).toContainEqual({ type: 'forget-peer', nodeId: 'node-a' });

    // Every 30 s, another rotation.
    await vi.advanceTimersByTimeAsync(30_000 + 1_500);
    expect(h.call.getState().rotations).toBe(3);

    // A failed peer is dropped.
    pcs[0]!.fail();
    expect(pcs[0]!.signalingState).toBe('closed');
    expect(h.call.getState().peers).toEqual([]);

    // An offer from node-c (it reconnects) makes a new peer that answers.
    h.emit('webrtc_signaling', {
      roomId: 'room-1',
      fromParticipant: 'node-c',
      targetParticipant: 'node-b',
      signalType: 'offer',
      data: { type: 'offer', sdp: 'v=0' },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(pcs).toHaveLength(2);
    expect(h.sent.at(-1)).toMatchObject({ targetParticipant: 'node-c', signalType: 'answer' });

    // A signal for someone else, or from another room, is ignored.
    h.emit('webrtc_signaling', {
      roomId: 'room-2',
      fromParticipant: 'node-x',
      targetParticipant: 'node-b',
      signalType: 'offer',
      data: { type: 'offer', sdp: 'v=0' },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(pcs).toHaveLength(2);

    h.call.close();
    expect(h.sent.at(-1)).toEqual({ type: 'voice_call_end', username: 'Agent7' });
    expect(microphone.getTracks().every((track) => track.readyState === 'ended')).toBe(true);
    expect(outgoing.readyState).toBe('ended');
    expect(pcs.every((pc) => pc.signalingState === 'closed')).toBe(true);
    expect(context.close).toHaveBeenCalled();
    // Nothing rotates after the call.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.call.getState().rotations).toBe(3);
  });

  it('mutes the microphone and the outgoing track, and tells the room when encryption is toggled', async () => {
    installFakes();
    const h = harness('node-b');
    await h.call.start();
    h.call.toggleMute();
    expect(h.call.getState().isMuted).toBe(true);
    expect(microphone.getTracks()[0]!.enabled).toBe(false);
    expect(outgoing.enabled).toBe(false);
    h.call.toggleMute();
    expect(outgoing.enabled).toBe(true);
    h.call.setEncryption(false);
    expect(h.sent.at(-1)).toMatchObject({
      type: 'encryption_status',
      roomId: 'room-1',
      encryptionEnabled: false,
    });
    expect(h.workerMessages).toContainEqual({ type: 'encrypt', enabled: false });
    expect(h.call.getState().encryption).toBe('off');
    h.call.close();
  });

  it('renews a short TURN credential at half its life, hands it to every peer and restarts ICE from the lower node id', async () => {
    installFakes();
    let issued = 0;
    let refuse = false;
    const h = harness('node-b', () => {
      if (refuse) return Promise.reject(new Error('Voice servers unavailable: removed'));
      issued += 1;
      return Promise.resolve({
        iceServers: [{ urls: 'turn:127.0.0.1:3478', username: `u${issued}`, credential: 'c' }],
        ttl: 600,
      });
    });
    await h.call.start();
    // node-a sorts first and offers to us; node-c sorts after us, so we offer to it.
    roster(h, 'node-a', 'node-b', 'node-c');
    h.emit('webrtc_signaling', {
      roomId: 'room-1',
      fromParticipant: 'node-a',
      targetParticipant: 'node-b',
      signalType: 'offer',
      data: { type: 'offer', sdp: 'v=0' },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(pcs).toHaveLength(2);
    const toC = pcs.find((pc) => pc.offers.length > 0)!;
    const fromA = pcs.find((pc) => pc !== toC)!;
    expect(issued).toBe(1);

    await vi.advanceTimersByTimeAsync(299_000);
    expect(issued).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(issued).toBe(2);
    for (const pc of pcs)
      expect(pc.config.iceServers).toEqual([
        { urls: 'turn:127.0.0.1:3478', username: 'u2', credential: 'c' },
      ]);
    // We restart ICE towards node-c only; node-a restarts towards us.
    expect(toC.offers.at(-1)).toEqual({ iceRestart: true });
    expect(fromA.offers).toEqual([]);
    expect(h.sent.at(-1)).toMatchObject({ targetParticipant: 'node-c', signalType: 'offer' });

    // Refused (the member was removed): nothing changes, and it is tried again later.
    refuse = true;
    await vi.advanceTimersByTimeAsync(300_000);
    expect(toC.offers).toHaveLength(2);
    refuse = false;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(issued).toBe(3);

    // Nothing is fetched after the call.
    h.call.close();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(issued).toBe(3);
  });

  it('builds its mesh with participants listed before its own join was relayed', async () => {
    installFakes();
    const h = harness('node-b');
    await h.call.start();
    // node-c joined at the same moment: a list without this browser comes first.
    roster(h, 'node-c');
    roster(h, 'node-b', 'node-c');
    await vi.advanceTimersByTimeAsync(0);
    expect(pcs).toHaveLength(1);
    expect(h.sent.find((frame) => frame.type === 'webrtc_signaling')).toMatchObject({
      targetParticipant: 'node-c',
      signalType: 'offer',
    });
    expect(h.keysSent.map((k) => k.nodeId)).toEqual(['node-c']);
    h.call.close();
  });

  it('says "encryption off" signed, to each participant whose call id it has, again with every rotation', async () => {
    installFakes();
    const h = harness('node-b');
    await h.call.start();
    roster(h, 'node-a', 'node-b', 'node-c');
    await vi.advanceTimersByTimeAsync(0);
    const statuses = () =>
      h.sent.flatMap((frame) =>
        frame.type === 'encryption_status'
          ? [frame as Extract<ClientFrame, { proof?: unknown }>]
          : [],
      );
    h.call.setEncryption(false);
    // No call id known yet: a statement naming no one.
    expect(statuses().at(-1)).toMatchObject({ encryptionEnabled: false, proof: { to: {} } });
    const callId = '0123456789abcdef01234567';
    h.voiceKey('node-c', {
      secret: 'voice',
      callKeyId: callId,
      version: 1,
      key: new Uint8Array(32).fill(3),
    });
    // node-c's call id came with its frame key: it hears "off" at once.
    expect(statuses().at(-1)).toMatchObject({
      encryptionEnabled: false,
      proof: { v: 1, to: { 'node-c': callId } },
    });
    const count = statuses().length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(statuses().length).toBe(count + 1);
    const [previous, renewed] = statuses().slice(-2) as { proof: { ts: number } }[];
    expect(renewed!.proof.ts).toBeGreaterThan(previous!.proof.ts);
    h.call.setEncryption(true);
    expect(statuses().at(-1)).toMatchObject({
      encryptionEnabled: true,
      proof: { to: { 'node-c': callId } },
    });
    // Unsigned, the relay's statement changes nothing in the worker.
    h.emit('encryption_status', {
      roomId: 'room-1',
      fromParticipant: 'node-c',
      encryptionEnabled: false,
      timestamp: 1,
    });
    expect(h.workerMessages.filter((m) => (m as { type: string }).type === 'peer-clear')).toEqual(
      [],
    );
    expect(h.call.getState().warnings).toEqual([
      'Encryption status for node-c ignored: it carries no signature',
    ]);
    h.call.close();
  });
});

describe('renegotiating a tier', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    pcs.length = 0;
    microphone.getTracks().forEach((track) => (track.readyState = 'live'));
    outgoing.readyState = 'live';
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** node-b in a call where node-a (sorting first) offered; node-b answered. */
  async function answered() {
    installFakes();
    const h = harness('node-b');
    await h.call.start();
    roster(h, 'node-a', 'node-b');
    h.emit('webrtc_signaling', {
      roomId: 'room-1',
      fromParticipant: 'node-a',
      targetParticipant: 'node-b',
      signalType: 'offer',
      data: { type: 'offer', sdp: 'v=0' },
    });
    await vi.advanceTimersByTimeAsync(0);
    const pc = pcs[0]!;
    const described: unknown[] = [];
    pc.setLocalDescription = (description?: unknown) => {
      described.push(description);
      return Promise.resolve();
    };
    Object.assign(pc.senders[0]!, {
      getParameters: () => ({ encodings: [{}] }),
      setParameters: () => Promise.resolve(),
    });
    const offers = () =>
      h.sent.filter(
        (frame) =>
          frame.type === 'webrtc_signaling' &&
          frame.targetParticipant === 'node-a' &&
          frame.signalType === 'offer',
      );
    return { h, pc, described, offers };
  }

  it('offers from the side that answered when its own tier moves', async () => {
    const { pc, offers } = await answered();
    expect(offers()).toHaveLength(0);
    // node-b's link reads 200 ms round trip: fair, no longer the excellent it answered with.
    pc.getStats = () =>
      Promise.resolve(
        new Map([
          [
            'pair',
            {
              type: 'candidate-pair',
              nominated: true,
              state: 'succeeded',
              currentRoundTripTime: 0.2,
            },
          ],
        ]),
      );
    await vi.advanceTimersByTimeAsync(4_100);
    expect(offers()).toHaveLength(1);
  });

  it('skips a probe while the last one still waits, so one moved tier makes one offer', async () => {
    const { pc, offers } = await answered();
    // A starved browser: getStats answers 200 ms round trip (fair), but only when the test says.
    const held: (() => void)[] = [];
    let asked = 0;
    const fair = new Map([
      [
        'pair',
        { type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.2 },
      ],
    ]);
    pc.getStats = () => {
      asked += 1;
      return new Promise((resolve) => held.push(() => resolve(fair)));
    };
    await vi.advanceTimersByTimeAsync(2_100);
    expect(asked).toBe(1);
    // Three more intervals pass while the first probe waits: none starts another.
    await vi.advanceTimersByTimeAsync(6_000);
    expect(asked).toBe(1);
    held.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    // The probe after it reads the next interval, which has moved the tier: one offer, from the
    // one probe running (the fake stays stable after an offer, as a browser would not).
    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked).toBe(2);
    held.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    expect(offers()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked).toBe(3);
  });

  it('retries an owed frame key on time while a measurement still waits', async () => {
    const { h, pc } = await answered();
    let asked = 0;
    pc.getStats = () => {
      asked += 1;
      return new Promise(() => undefined);
    };
    await vi.advanceTimersByTimeAsync(2_100);
    expect(asked).toBe(1);
    // node-c joins while node-b's key cannot leave: the rotated key is owed to node-a and node-c.
    h.keyChannel.isOpen = false;
    roster(h, 'node-a', 'node-b', 'node-c');
    await vi.advanceTimersByTimeAsync(0);
    const sentBefore = h.keysSent.length;
    h.keyChannel.isOpen = true;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked).toBe(1);
    expect(
      h.keysSent
        .slice(sentBefore)
        .map((sent) => sent.nodeId)
        .sort(),
    ).toEqual(['node-a', 'node-c']);
  });

  it('settles two offers at once: the lower node id goes on, the other rolls back and answers', async () => {
    const { h, pc, described } = await answered();
    // node-b offered (its tier moved) while node-a's offer was on its way.
    pc.signalingState = 'have-local-offer';
    h.emit('webrtc_signaling', {
      roomId: 'room-1',
      fromParticipant: 'node-a',
      targetParticipant: 'node-b',
      signalType: 'offer',
      data: { type: 'offer', sdp: 'v=0' },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(described[0]).toEqual({ type: 'rollback' });
    expect(
      h.sent.filter((frame) => frame.type === 'webrtc_signaling' && frame.signalType === 'answer'),
    ).toHaveLength(2);

    // node-a, sorting first, keeps its own offer and leaves node-b's unanswered.
    const a = harness('node-a');
    await a.call.start();
    roster(a, 'node-a', 'node-b');
    await vi.advanceTimersByTimeAsync(0);
    const aPc = pcs[1]!;
    aPc.signalingState = 'have-local-offer';
    a.emit('webrtc_signaling', {
      roomId: 'room-1',
      fromParticipant: 'node-b',
      targetParticipant: 'node-a',
      signalType: 'offer',
      data: { type: 'offer', sdp: 'v=0' },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(
      a.sent.filter((frame) => frame.type === 'webrtc_signaling' && frame.signalType === 'answer'),
    ).toHaveLength(0);
  });
});
