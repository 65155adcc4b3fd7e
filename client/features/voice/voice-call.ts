/**
 * One voice call in one room (spec 000 §4 "Voice call", §7; DESIGN.md "Voice"), framework-free:
 *
 * - the microphone (mono, 48 kHz, echo cancellation, noise suppression) runs through the disguise
 *   worklet; the worklet's output is the one track every peer connection sends;
 * - a mesh: one RTCPeerConnection per other participant; of two participants the one whose node
 *   id sorts first makes the offer (no glare); offers, answers and ICE candidates travel as
 *   `webrtc_signaling` frames addressed to one participant; failed or disconnected peers are
 *   dropped;
 * - end-to-end frame encryption beyond DTLS-SRTP: every encoded audio frame passes the worker of
 *   frame-crypto-worker.ts; this browser's frame key goes to each participant through the room's
 *   pairwise hybrid channel (RoomKeyManager.sendVoiceKey), and is rotated when someone joins or
 *   leaves and every 30 s; the rotation counter counts rotations that happened; frames to a peer
 *   are sealed only under a key handed to that peer, so a newcomer hears from its first frame;
 * - `encryption_status` is signed (call-encryption-status.ts): the toggle says "off" or "on" to
 *   every participant with this tab's session signing key, "off" again with each rotation and to
 *   each newcomer; a peer's clear frames play only under its own verified "off", never because the
 *   relay said so; a refused statement and a peer whose frames are refused are shown;
 * - every 2 s the quality tier of each peer from getStats (round-trip time, loss), applied to that
 *   peer's sender as the tier's opus `maxBitrate`, to the opus fmtp of the next offer/answer
 *   (maxplaybackrate, sprop-maxcapturerate, stereo; the side whose node id sorts first offers
 *   again when a peer's tier changes) and to the microphone's sampleRate/channelCount
 *   constraints; what the browser then uses is read back for the window (opus-sdp.ts);
 * - speaking indicators (voice-activity.ts): an analyser on the local chain and on every received
 *   track, level above 30;
 * - the audio buffer size setting is the AudioContext's `latencyHint` (size ÷ 48000 s);
 * - close(): `voice_call_end`, every track stopped, every peer connection and the audio graph
 *   closed.
 */
import { type ClientFrame } from '../../../shared/protocol/ws/index.js';
import { type ServerFrameOf, type ServerFrameType } from '../../lib/realtime/chat-socket.js';
import { type VoiceKeyGrant } from '../e2ee/index.js';
import { nextFrameKeyVersion } from '../../../shared/crypto/voice/voice-frame.js';
import {
  CallEncryptionStatus,
  type StatusVerdict,
  type VoiceStatusKeys,
} from './call-encryption-status.js';
import { isBypass } from './disguise-dsp.js';
import { IceCandidateSchema, SessionDescriptionSchema } from './frames.js';
import {
  describeApplied,
  mungeOpusFmtp,
  readOpusFmtp,
  tierParameters,
  type AppliedLine,
} from './opus-sdp.js';
import { VoiceActivityMonitor } from './voice-activity.js';
import {
  type FrameCryptoCounters,
  type FrameCryptoMessage,
  type FrameCryptoReply,
  type PeerFrameCounters,
} from './frame-crypto-protocol.js';
import {
  VOICE_KEY_ROTATION_MS,
  VOICE_PREVIOUS_KEY_GRACE_MS,
  VOICE_QUALITY_PROBE_MS,
  VOICE_SAMPLE_RATE,
  VOICE_TEXT,
} from './voice-constants.js';
import {
  intervalQuality,
  QUALITY_TIERS,
  qualityTier,
  readStats,
  worstTier,
  type QualityTier,
  type StatsSample,
} from './voice-quality.js';
import { disguiseParams, type VoiceSettings } from './voice-settings.js';

/** Which encoded-transform API this browser has, if any. */
export type FrameTransformSupport = 'script-transform' | 'encoded-streams' | 'none';

export function frameTransformSupport(): FrameTransformSupport {
  if (typeof globalThis.RTCRtpScriptTransform === 'function') return 'script-transform';
  const sender = globalThis.RTCRtpSender?.prototype as { createEncodedStreams?: unknown };
  if (sender && typeof sender.createEncodedStreams === 'function') return 'encoded-streams';
  return 'none';
}

export type VoiceParticipant = ServerFrameOf<'voice_call_participants'>['participants'][number];

export type CallConnection = 'connecting' | 'connected' | 'disconnected';
export type CallEncryption = 'initializing' | 'active' | 'off' | 'unsupported';

export interface CallPeerView {
  nodeId: string;
  username: string;
  state: RTCPeerConnectionState;
  quality: QualityTier | null;
  /** The peer said, signed, that it sends without frame encryption (and it has not lapsed). */
  sendsClear: boolean;
  /** Frames of this peer refused in the last 2 s (clear without its signed word, or tag failed). */
  refusedFrames: number;
  /** Frames of this peer played in the last 2 s. */
  playedFrames: number;
}

export interface VoiceCallState {
  connection: CallConnection;
  /** What went wrong, in the spec's words where it has them (shown in the window). */
  error: string | null;
  participants: readonly VoiceParticipant[];
  /** When this browser joined the call (ms), for the mm:ss duration. */
  joinedAt: number | null;
  isMuted: boolean;
  isDeafened: boolean;
  encryption: CallEncryption;
  /** Rotations of this browser's frame key since the call began. */
  rotations: number;
  quality: QualityTier | null;
  peers: readonly CallPeerView[];
  counters: FrameCryptoCounters;
  /** Cumulative bytes over every peer (from getStats). */
  bytesSent: number;
  bytesReceived: number;
  /** Refused `encryption_status` frames, newest last (the window shows them). */
  warnings: readonly string[];
  /** Node ids speaking now (this browser's own while not muted), sorted. */
  speaking: readonly string[];
  /** The call tier's parameters, requested and as the browser uses them (null: not measured). */
  applied: readonly AppliedLine[] | null;
  /** The audio buffer: the size asked for and what the AudioContext reports. */
  buffer: { requested: number; baseLatencyFrames: number | null } | null;
}

/** The part of the chat socket the call uses. */
export interface CallSocket {
  send(frame: ClientFrame): boolean;
  on<T extends ServerFrameType>(type: T, listener: (frame: ServerFrameOf<T>) => void): () => void;
}

/** The room's E2E channel, as far as voice keys go (RoomKeyManager). */
export interface CallKeyChannel {
  sendVoiceKey(nodeId: string, grant: VoiceKeyGrant): Promise<boolean>;
  onVoiceKey(listener: (fromNodeId: string, grant: VoiceKeyGrant) => void): () => void;
}

export interface VoiceCallDeps {
  socket: CallSocket;
  keys: CallKeyChannel;
  /** The room's signing identities: `encryption_status` is signed and verified with them. */
  statusKeys: VoiceStatusKeys;
  roomId: string;
  selfNodeId: string;
  username: string;
  settings: VoiceSettings;
  /**
   * `GET /api/voice/ice-servers`; rejects with the text to show. With a `ttl` (seconds, a TURN
   * credential's life) it is asked again at half that while in the call.
   */
  getIceServers: () => Promise<RTCIceServer[] | { iceServers: RTCIceServer[]; ttl?: number }>;
  isTor: boolean;
  workletUrl: string;
  createWorker: () => Worker;
  /** The spec's start-failure alert. */
  onStartFailed?: (text: string) => void;
  now?: () => number;
}

interface Peer {
  nodeId: string;
  pc: RTCPeerConnection;
  audio: HTMLAudioElement | null;
  pendingCandidates: RTCIceCandidateInit[];
  hasRemoteDescription: boolean;
  stats: StatsSample | null;
  quality: QualityTier | null;
  appliedBitrate: number | null;
  /** The tier whose opus fmtp went into this side's last offer or answer. */
  negotiatedTier: QualityTier | null;
}

/** How soon a refused or failed renewal of the ICE servers is tried again. */
const ICE_RENEW_RETRY_MS = 30_000;

/** How long a new frame key travels to the others before frames are sealed under it. */
const KEY_SWITCH_DELAY_MS = 1_500;
/** Refused statements the window keeps. */
const MAX_WARNINGS = 4;
const EMPTY_COUNTERS: FrameCryptoCounters = {
  transforms: 0,
  received: 0,
  sealed: 0,
  sentClear: 0,
  withheld: 0,
  opened: 0,
  receivedClear: 0,
  noKey: 0,
  failed: 0,
  held: 0,
  empty: 0,
};

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class VoiceCall {
  #state: VoiceCallState = {
    connection: 'connecting',
    error: null,
    participants: [],
    joinedAt: null,
    isMuted: false,
    isDeafened: false,
    encryption: 'initializing',
    rotations: 0,
    quality: null,
    peers: [],
    counters: EMPTY_COUNTERS,
    bytesSent: 0,
    bytesReceived: 0,
    warnings: [],
    speaking: [],
    applied: null,
    buffer: null,
  };
  readonly #listeners = new Set<() => void>();
  readonly #peers = new Map<string, Peer>();
  readonly #offs: (() => void)[] = [];
  readonly #timers: number[] = [];
  #settings: VoiceSettings;
  #support: FrameTransformSupport = frameTransformSupport();
  #iceServers: RTCIceServer[] = [];
  #microphone: MediaStream | null = null;
  #context: AudioContext | null = null;
  #disguise: AudioWorkletNode | null = null;
  #outgoing: MediaStreamTrack | null = null;
  #worker: Worker | null = null;
  #activity: VoiceActivityMonitor | null = null;
  /** Who the analysers hear, this browser included even when muted. */
  #heard: readonly string[] = [];
  /** The tier whose constraints the microphone was last asked for. */
  #microphoneTier: QualityTier | null = null;
  #isClosed = false;
  #isInCall = false;
  /** This browser's frame keys for this call. */
  readonly #callKeyId = randomId();
  #keyVersion = 0;
  #currentKey: Uint8Array | null = null;
  /** Participants whose copy of the current key has not left yet (bundle unknown): retried. */
  readonly #keyOwed = new Set<string>();
  #switchTimer: number | null = null;
  #iceRenewTimer: number | null = null;
  /** The last participant list that named this browser: the mesh as it was built. */
  #meshRoster: readonly VoiceParticipant[] = [];
  readonly #status: CallEncryptionStatus;
  /** Each peer's frame counters at the last probe, and what they did in the interval since. */
  #peerFrames: Record<string, PeerFrameCounters> = {};
  readonly #peerInterval = new Map<string, { played: number; refused: number }>();
  #isProbing = false;

  constructor(private readonly deps: VoiceCallDeps) {
    this.#settings = deps.settings;
    this.#status = new CallEncryptionStatus({
      roomId: deps.roomId,
      selfNodeId: deps.selfNodeId,
      selfCallId: this.#callKeyId,
      keys: deps.statusKeys,
      now: deps.now ?? Date.now,
    });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getState = (): VoiceCallState => this.#state;

  #set(patch: Partial<VoiceCallState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }

  /** Microphone, disguise, ICE servers, then `voice_call_start`. */
  async start(): Promise<void> {
    if (this.#support === 'none') {
      this.#set({
        connection: 'disconnected',
        encryption: 'unsupported',
        error:
          'This browser has no encoded transforms, so call audio cannot be encrypted end to end. The call was not joined: use a current Chromium, Firefox or Safari.',
      });
      return;
    }
    try {
      this.#microphone = await navigator.mediaDevices.getUserMedia({
        audio: {
          channelCount: 1,
          sampleRate: VOICE_SAMPLE_RATE,
          echoCancellation: true,
          noiseSuppression: true,
          ...(this.#settings.inputDeviceId ? { deviceId: this.#settings.inputDeviceId } : {}),
        },
        video: false,
      });
    } catch (error) {
      const isDenied =
        error instanceof DOMException &&
        (error.name === 'NotAllowedError' || error.name === 'SecurityError');
      this.#fail(isDenied ? VOICE_TEXT.microphoneDenied : VOICE_TEXT.startFailed);
      return;
    }
    try {
      this.#outgoing = await this.#buildAudioGraph(this.#microphone);
      this.#startWorker();
    } catch {
      this.#fail(VOICE_TEXT.startFailed);
      return;
    }
    let ttl: number | undefined;
    try {
      ({ iceServers: this.#iceServers, ttl } = iceAnswer(await this.deps.getIceServers()));
    } catch (error) {
      this.#fail(error instanceof Error ? error.message : 'Voice servers unavailable');
      return;
    }
    if (this.#isClosed) return;
    this.#scheduleIceRenewal(ttl === undefined ? null : (ttl * 1000) / 2);
    this.#listen();
    this.#isInCall = true;
    this.deps.socket.send({ type: 'voice_call_start', username: this.deps.username });
    this.#set({ joinedAt: Date.now() });
    this.#rotate();
    this.#timers.push(
      window.setInterval(() => void this.#probe(), VOICE_QUALITY_PROBE_MS),
      window.setInterval(() => this.#rotate(), VOICE_KEY_ROTATION_MS),
    );
  }

  #scheduleIceRenewal(delayMs: number | null): void {
    if (delayMs === null || this.#isClosed) return;
    this.#iceRenewTimer = window.setTimeout(() => void this.#renewIceServers(), delayMs);
  }

  /**
   * A TURN credential lasts minutes (the server cannot take one back from a removed member): a
   * fresh one is fetched at half its life, given to every peer connection, and an ICE restart,
   * started by the side with the lower node id, moves a relayed path to it before the old one
   * expires. Refused (removed, muted): tried again later; the call ends by the server's frames.
   */
  async #renewIceServers(): Promise<void> {
    let answer: { iceServers: RTCIceServer[]; ttl?: number | undefined };
    try {
      answer = iceAnswer(await this.deps.getIceServers());
    } catch {
      this.#scheduleIceRenewal(ICE_RENEW_RETRY_MS);
      return;
    }
    if (this.#isClosed) return;
    this.#iceServers = answer.iceServers;
    const hasTurn = answer.iceServers.some((server) => server.username !== undefined);
    for (const [nodeId, peer] of this.#peers) {
      try {
        peer.pc.setConfiguration({ ...peer.pc.getConfiguration(), iceServers: answer.iceServers });
      } catch {
        continue;
      }
      if (hasTurn && this.deps.selfNodeId < nodeId) void this.#restartIce(peer);
    }
    this.#scheduleIceRenewal(answer.ttl === undefined ? null : (answer.ttl * 1000) / 2);
  }

  async #restartIce(peer: Peer): Promise<void> {
    if (peer.pc.signalingState !== 'stable') return;
    try {
      const offer = this.#withTier(peer, await peer.pc.createOffer({ iceRestart: true }));
      await peer.pc.setLocalDescription(offer);
      this.#signal(peer.nodeId, 'offer', { type: 'offer', sdp: offer.sdp ?? '' });
    } catch {
      // The path on the old credential stays until it expires; the next renewal tries again.
    }
  }

  #fail(text: string): void {
    this.deps.onStartFailed?.(VOICE_TEXT.startFailed);
    this.#set({ connection: 'disconnected', error: text });
    this.#release();
  }

  async #buildAudioGraph(microphone: MediaStream): Promise<MediaStreamTrack> {
    // The buffer size setting (frames) as the context's latency hint, in seconds.
    const context = new AudioContext({
      sampleRate: VOICE_SAMPLE_RATE,
      latencyHint: this.#settings.bufferSize / VOICE_SAMPLE_RATE,
    });
    this.#context = context;
    this.#set({
      buffer: {
        requested: this.#settings.bufferSize,
        baseLatencyFrames:
          typeof context.baseLatency === 'number'
            ? Math.round(context.baseLatency * context.sampleRate)
            : null,
      },
    });
    await context.audioWorklet.addModule(this.deps.workletUrl);
    const source = context.createMediaStreamSource(microphone);
    const disguise = new AudioWorkletNode(context, 'voice-disguise', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      outputChannelCount: [1],
      processorOptions: { params: disguiseParams(this.#settings) },
    });
    this.#disguise = disguise;
    const destination = context.createMediaStreamDestination();
    destination.channelCount = 1;
    source.connect(disguise).connect(destination);
    if (typeof context.createAnalyser === 'function') {
      this.#activity = new VoiceActivityMonitor(context, (speaking) => this.#onSpeaking(speaking));
      this.#activity.watchNode(this.deps.selfNodeId, disguise);
    }
    if (context.state === 'suspended') await context.resume().catch(() => undefined);
    const track = destination.stream.getAudioTracks()[0];
    if (!track) throw new Error('no outgoing track');
    return track;
  }

  #startWorker(): void {
    const worker = this.deps.createWorker();
    this.#worker = worker;
    this.#post({ type: 'config', previousKeyGraceMs: VOICE_PREVIOUS_KEY_GRACE_MS });
    this.#post({ type: 'encrypt', enabled: this.#settings.encryption });
    worker.onmessage = (event: MessageEvent<FrameCryptoReply>) => {
      const reply = event.data;
      if (reply.type === 'stats') this.#onStats(reply.counters, reply.peers);
      else if (reply.type === 'own-key-active' && this.#settings.encryption)
        this.#set({ encryption: 'active' });
    };
    if (!this.#settings.encryption) this.#set({ encryption: 'off' });
  }

  #onSpeaking(speaking: readonly string[]): void {
    this.#heard = speaking;
    const self = this.deps.selfNodeId;
    // Muted: the chain still hears the microphone, but nobody else does.
    const shown = this.#state.isMuted ? speaking.filter((nodeId) => nodeId !== self) : speaking;
    if (shown.join() !== this.#state.speaking.join()) this.#set({ speaking: shown });
  }

  /** A peer's tier for the fmtp: measured, or before that the best the network allows. */
  #linkTier(peer: Peer): QualityTier {
    return peer.quality ?? (this.deps.isTor ? 'good' : 'excellent');
  }

  /** An offer or answer with the opus fmtp of the peer's tier. */
  #withTier(peer: Peer, description: RTCSessionDescriptionInit): RTCSessionDescriptionInit {
    const tier = this.#linkTier(peer);
    peer.negotiatedTier = tier;
    if (!description.sdp) return description;
    return {
      type: description.type,
      sdp: mungeOpusFmtp(description.sdp, tierParameters(tier).fmtp),
    };
  }

  #post(message: FrameCryptoMessage, transfer: Transferable[] = []): void {
    this.#worker?.postMessage(message, transfer);
  }

  #listen(): void {
    const { socket, roomId } = this.deps;
    this.#offs.push(
      socket.on('voice_call_participants', (frame) => {
        if (frame.roomId === roomId) this.#onParticipants(frame.participants);
      }),
      socket.on('webrtc_signaling', (frame) => {
        if (frame.roomId === roomId && frame.targetParticipant === this.deps.selfNodeId)
          void this.#onSignal(frame);
      }),
      // What the relay says decides nothing: only the sender's verified statement counts.
      socket.on('encryption_status', (frame) => {
        if (frame.roomId !== roomId || !this.#isParticipant(frame.fromParticipant)) return;
        this.#applyVerdict(this.#status.receive(frame));
      }),
      this.deps.keys.onVoiceKey((fromNodeId, grant) => {
        if (!this.#isParticipant(fromNodeId)) {
          grant.key.fill(0);
          return;
        }
        const raw = grant.key.slice();
        grant.key.fill(0);
        this.#post({ type: 'peer-key', nodeId: fromNodeId, raw, version: grant.version }, [
          raw.buffer,
        ]);
        // Its call id: statements to it name it. A newcomer hears this browser's "off" now.
        if (this.#status.notePeerCall(fromNodeId, grant.callKeyId) && !this.#settings.encryption)
          this.#sayStatus(false);
        const retried = this.#status.retry(fromNodeId);
        if (retried) this.#applyVerdict(retried);
      }),
    );
  }

  #applyVerdict(verdict: StatusVerdict): void {
    if (verdict.status === 'accepted') {
      this.#post({ type: 'peer-clear', nodeId: verdict.nodeId, clearUntil: verdict.clearUntil });
      this.#updateConnection();
    } else if (verdict.status === 'refused' && verdict.code !== 'NOT_ADDRESSED') {
      // Not addressed to this browser: a statement sent before the sender knew this call's id.
      const text = `Encryption status for ${this.#nameOf(verdict.nodeId)} ignored: it ${verdict.text}`;
      const warnings = [...this.#state.warnings, text];
      this.#set({ warnings: warnings.slice(-MAX_WARNINGS) });
    }
  }

  /** Signs and sends this browser's `encryption_status` to the participants it can name. */
  #sayStatus(enabled: boolean): void {
    const nodeIds = this.#state.participants.map((participant) => participant.nodeId);
    const frame = this.#status.statement(enabled, nodeIds);
    if (frame) this.deps.socket.send(frame);
  }

  #nameOf(nodeId: string): string {
    return this.#state.participants.find((p) => p.nodeId === nodeId)?.username ?? nodeId;
  }

  #onStats(counters: FrameCryptoCounters, peers: Record<string, PeerFrameCounters>): void {
    this.#peerInterval.clear();
    for (const [nodeId, now] of Object.entries(peers)) {
      const before = this.#peerFrames[nodeId] ?? {
        opened: 0,
        receivedClear: 0,
        refusedClear: 0,
        failed: 0,
      };
      this.#peerInterval.set(nodeId, {
        played: now.opened + now.receivedClear - before.opened - before.receivedClear,
        refused: now.refusedClear + now.failed - before.refusedClear - before.failed,
      });
    }
    this.#peerFrames = peers;
    this.#set({ counters });
    this.#updateConnection();
  }

  #isParticipant(nodeId: string): boolean {
    return this.#state.participants.some((participant) => participant.nodeId === nodeId);
  }

  #onParticipants(participants: readonly VoiceParticipant[]): void {
    const self = this.deps.selfNodeId;
    // Compared with the last list this browser was in: a list from before its own join was
    // relayed (others joining at the same moment) must not hide them from the mesh.
    const before = new Set(this.#meshRoster.map((participant) => participant.nodeId));
    const after = new Set(participants.map((participant) => participant.nodeId));
    this.#set({ participants });
    if (!after.has(self)) return;
    this.#meshRoster = participants;
    let hasChanged = false;
    for (const nodeId of before) {
      if (!after.has(nodeId) && nodeId !== self) {
        hasChanged = true;
        this.#dropPeer(nodeId);
        this.#post({ type: 'forget-peer', nodeId });
        this.#status.forget(nodeId);
        this.#keyOwed.delete(nodeId);
      }
    }
    for (const participant of participants) {
      if (participant.nodeId === self || before.has(participant.nodeId)) continue;
      hasChanged = true;
      if (self < participant.nodeId && !this.#peers.has(participant.nodeId))
        void this.#offer(participant.nodeId);
    }
    // Someone joined or left: a fresh frame key, which only the present participants get.
    if (hasChanged && before.size > 0) this.#rotate();
    else if (hasChanged) this.#sendKeyTo(participants.map((participant) => participant.nodeId));
    this.#updateConnection();
  }

  /** A new frame key: sent to every participant now, sealing under it shortly after. */
  #rotate(): void {
    if (!this.#isInCall) return;
    const isFirst = this.#keyVersion === 0;
    this.#keyVersion = nextFrameKeyVersion(this.#keyVersion);
    this.#currentKey?.fill(0);
    this.#currentKey = crypto.getRandomValues(new Uint8Array(32));
    const version = this.#keyVersion;
    this.#keyOwed.clear();
    // The worker has the key at once, for a newcomer handed only this one (frame-keys.ts).
    const raw = this.#currentKey.slice();
    this.#post({ type: 'own-key', raw, version }, [raw.buffer]);
    this.#sendKeyTo(this.#state.participants.map((participant) => participant.nodeId));
    // An "off" lapses at the receivers unless renewed: said again with every rotation.
    if (!this.#settings.encryption) this.#sayStatus(false);
    const activate = () => {
      if (!this.#currentKey || this.#keyVersion !== version) return;
      this.#post({ type: 'activate-own-key', version });
      if (!isFirst) this.#set({ rotations: this.#state.rotations + 1 });
    };
    if (this.#switchTimer !== null) window.clearTimeout(this.#switchTimer);
    // The first key seals at once: nobody can hold an older one.
    if (isFirst) activate();
    else this.#switchTimer = window.setTimeout(activate, KEY_SWITCH_DELAY_MS);
  }

  #sendKeyTo(nodeIds: readonly string[]): void {
    const key = this.#currentKey;
    if (!key) return;
    const version = this.#keyVersion;
    for (const nodeId of nodeIds) {
      if (nodeId === this.deps.selfNodeId) continue;
      const grant: VoiceKeyGrant = {
        secret: 'voice',
        callKeyId: this.#callKeyId,
        version,
        key: key.slice(),
      };
      void this.deps.keys.sendVoiceKey(nodeId, grant).then((isSent) => {
        grant.key.fill(0);
        // Only now may frames to this peer be sealed under this key.
        if (isSent) this.#post({ type: 'own-key-handed', nodeId, version });
        else if (this.#keyVersion === version) this.#keyOwed.add(nodeId);
      });
    }
  }

  async #createPeer(nodeId: string): Promise<Peer> {
    const existing = this.#peers.get(nodeId);
    if (existing) return existing;
    const config: RTCConfiguration & { encodedInsertableStreams?: boolean } = {
      iceServers: this.#iceServers,
    };
    if (this.#support === 'encoded-streams') config.encodedInsertableStreams = true;
    const pc = new RTCPeerConnection(config);
    const peer: Peer = {
      nodeId,
      pc,
      audio: null,
      pendingCandidates: [],
      hasRemoteDescription: false,
      stats: null,
      quality: null,
      appliedBitrate: null,
      negotiatedTier: null,
    };
    this.#peers.set(nodeId, peer);
    const outgoing = this.#outgoing;
    if (outgoing) {
      const sender = pc.addTrack(outgoing, new MediaStream([outgoing]));
      this.#attachTransform(sender, 'send', nodeId);
      // The receiver of the same transceiver gets its transform before any media can arrive.
      const receiver = pc.getTransceivers().find((t) => t.sender === sender)?.receiver;
      if (receiver) this.#attachTransform(receiver, 'receive', nodeId);
    }
    pc.onicecandidate = (event) => {
      if (event.candidate) this.#signal(nodeId, 'ice_candidate', event.candidate.toJSON());
    };
    pc.ontrack = (event) => {
      if (!event.receiver.transform) this.#attachTransform(event.receiver, 'receive', nodeId);
      const audio = new Audio();
      audio.autoplay = true;
      audio.srcObject = event.streams[0] ?? new MediaStream([event.track]);
      audio.volume = this.#settings.volume;
      audio.muted = this.#state.isDeafened;
      const sinkId = this.#settings.outputDeviceId;
      if (sinkId && 'setSinkId' in audio) void audio.setSinkId(sinkId).catch(() => undefined);
      void audio.play().catch(() => undefined);
      peer.audio = audio;
      // After the receive transform: the decrypted audio this browser plays.
      if (audio.srcObject instanceof MediaStream)
        this.#activity?.watchStream(nodeId, audio.srcObject);
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed' || pc.connectionState === 'disconnected')
        this.#dropPeer(nodeId);
      this.#updateConnection();
    };
    this.#updateConnection();
    return peer;
  }

  #attachTransform(
    endpoint: RTCRtpSender | RTCRtpReceiver,
    direction: 'send' | 'receive',
    nodeId: string,
  ): void {
    const worker = this.#worker;
    if (!worker) return;
    if (this.#support === 'script-transform') {
      endpoint.transform = new RTCRtpScriptTransform(worker, { direction, nodeId });
      return;
    }
    const legacy = endpoint as unknown as {
      createEncodedStreams: () => { readable: ReadableStream; writable: WritableStream };
    };
    const { readable, writable } = legacy.createEncodedStreams();
    this.#post({ type: 'streams', direction, nodeId, readable, writable }, [readable, writable]);
  }

  #signal(nodeId: string, signalType: 'offer' | 'answer' | 'ice_candidate', data: unknown): void {
    this.deps.socket.send({
      type: 'webrtc_signaling',
      roomId: this.deps.roomId,
      targetParticipant: nodeId,
      signalType,
      data,
    });
  }

  async #offer(nodeId: string): Promise<void> {
    const peer = await this.#createPeer(nodeId);
    const offer = this.#withTier(peer, await peer.pc.createOffer());
    await peer.pc.setLocalDescription(offer);
    this.#signal(nodeId, 'offer', { type: 'offer', sdp: offer.sdp ?? '' });
  }

  /**
   * This side's tier for the peer changed: a new offer carries its fmtp. Either side offers, so
   * that the side that answered the last negotiation is not stuck with the tier it answered with
   * (the peer's encoder would keep its old maxplaybackrate until the offerer's own tier moved).
   * When both offer at once, the lower node id's offer wins ({@link #onSignal}).
   */
  async #renegotiate(peer: Peer): Promise<void> {
    if (peer.pc.signalingState !== 'stable') return;
    try {
      const offer = this.#withTier(peer, await peer.pc.createOffer());
      await peer.pc.setLocalDescription(offer);
      this.#signal(peer.nodeId, 'offer', { type: 'offer', sdp: offer.sdp ?? '' });
    } catch {
      peer.negotiatedTier = null;
    }
  }

  async #onSignal(frame: ServerFrameOf<'webrtc_signaling'>): Promise<void> {
    if (!this.#isInCall || this.#isClosed) return;
    const from = frame.fromParticipant;
    try {
      if (frame.signalType === 'offer') {
        const description = SessionDescriptionSchema.parse(frame.data);
        const peer = await this.#createPeer(from);
        // Both offered at once (each side's tier moved): the lower node id's offer goes on; the
        // other side drops its own and answers, with its tier in the answer.
        if (peer.pc.signalingState === 'have-local-offer') {
          if (this.deps.selfNodeId < from) return;
          await peer.pc.setLocalDescription({ type: 'rollback' });
        }
        await peer.pc.setRemoteDescription(description);
        await this.#flushCandidates(peer);
        const answer = this.#withTier(peer, await peer.pc.createAnswer());
        await peer.pc.setLocalDescription(answer);
        this.#signal(from, 'answer', { type: 'answer', sdp: answer.sdp ?? '' });
      } else if (frame.signalType === 'answer') {
        const peer = this.#peers.get(from);
        if (!peer) return;
        await peer.pc.setRemoteDescription(SessionDescriptionSchema.parse(frame.data));
        await this.#flushCandidates(peer);
      } else {
        const candidate = IceCandidateSchema.parse(frame.data);
        const peer = this.#peers.get(from);
        if (!peer) return;
        if (peer.hasRemoteDescription) await peer.pc.addIceCandidate(candidate);
        else peer.pendingCandidates.push(candidate);
      }
    } catch {
      // A malformed or stale signal: that peer stays as it was (or is dropped by its state).
    }
  }

  async #flushCandidates(peer: Peer): Promise<void> {
    peer.hasRemoteDescription = true;
    for (const candidate of peer.pendingCandidates.splice(0))
      await peer.pc.addIceCandidate(candidate).catch(() => undefined);
  }

  #dropPeer(nodeId: string): void {
    const peer = this.#peers.get(nodeId);
    if (!peer) return;
    this.#peers.delete(nodeId);
    this.#activity?.unwatch(nodeId);
    peer.pc.onconnectionstatechange = null;
    peer.pc.close();
    if (peer.audio) {
      peer.audio.pause();
      peer.audio.srcObject = null;
    }
    this.#updateConnection();
  }

  #updateConnection(): void {
    if (this.#isClosed) return;
    const peers = [...this.#peers.values()];
    const names = new Map(this.#state.participants.map((p) => [p.nodeId, p.username]));
    const connected = peers.some((peer) => peer.pc.connectionState === 'connected');
    this.#set({
      connection: connected ? 'connected' : this.#isInCall ? 'connecting' : 'disconnected',
      peers: peers.map((peer) => ({
        nodeId: peer.nodeId,
        username: names.get(peer.nodeId) ?? peer.nodeId,
        state: peer.pc.connectionState,
        quality: peer.quality,
        sendsClear: this.#status.clearUntil(peer.nodeId) !== null,
        refusedFrames: this.#peerInterval.get(peer.nodeId)?.refused ?? 0,
        playedFrames: this.#peerInterval.get(peer.nodeId)?.played ?? 0,
      })),
    });
  }

  /**
   * Every 2 s: worker counters asked for, owed keys retried, then tiers from getStats and bitrates
   * applied. A measurement still waiting (a starved browser can take longer than the interval
   * over getStats, setParameters or a renegotiation) makes the next one skip: two at once would
   * read one interval twice and could start two offers to the same peer from one stable state.
   * The counters and the owed keys do not wait for it.
   */
  async #probe(): Promise<void> {
    this.#post({ type: 'stats' });
    if (this.#keyOwed.size > 0) {
      const owed = [...this.#keyOwed];
      this.#keyOwed.clear();
      this.#sendKeyTo(owed);
    }
    if (this.#isProbing) return;
    this.#isProbing = true;
    try {
      await this.#measure();
    } finally {
      this.#isProbing = false;
    }
  }

  async #measure(): Promise<void> {
    let bytesSent = 0;
    let bytesReceived = 0;
    for (const peer of this.#peers.values()) {
      try {
        const report = await peer.pc.getStats();
        const sample = readStats(report.values() as Iterable<Record<string, unknown>>);
        bytesSent += sample.bytesSent;
        bytesReceived += sample.bytesReceived;
        const measured = intervalQuality(peer.stats, sample);
        peer.stats = sample;
        if (!measured) continue;
        peer.quality = qualityTier(measured.rttMs, measured.loss, this.deps.isTor);
        await this.#applyBitrate(peer, QUALITY_TIERS[peer.quality].bitrate);
        if (peer.negotiatedTier !== null && peer.negotiatedTier !== peer.quality)
          await this.#renegotiate(peer);
      } catch {
        // A peer closing under us: its stats no longer matter.
      }
    }
    if (this.#isClosed) return;
    const quality = worstTier(
      [...this.#peers.values()].flatMap((peer) => (peer.quality ? [peer.quality] : [])),
    );
    if (quality) await this.#constrainMicrophone(quality);
    this.#set({
      bytesSent,
      bytesReceived,
      quality,
      applied: quality ? this.#readBack(quality) : null,
    });
    this.#updateConnection();
  }

  /** The microphone asked for the call tier's sample rate and channels (ideal: never refused). */
  async #constrainMicrophone(tier: QualityTier): Promise<void> {
    if (this.#microphoneTier === tier) return;
    this.#microphoneTier = tier;
    const track = this.#microphone?.getAudioTracks()[0];
    if (typeof track?.applyConstraints !== 'function') return;
    await track
      .applyConstraints({ ...track.getConstraints(), ...tierParameters(tier).constraints })
      .catch(() => undefined);
  }

  /** What the browser does with the call tier, read from a peer at that tier. */
  #readBack(tier: QualityTier): AppliedLine[] {
    const peer = [...this.#peers.values()].find((candidate) => candidate.quality === tier);
    const sender = peer?.pc.getSenders().find((candidate) => candidate.track?.kind === 'audio');
    const encodings = sender?.getParameters?.().encodings ?? [];
    const capture = this.#microphone?.getAudioTracks()[0]?.getSettings?.() ?? {};
    const remoteSdp = peer?.pc.remoteDescription?.sdp;
    return describeApplied(tierParameters(tier), {
      maxBitrate: encodings[0]?.maxBitrate ?? null,
      captureSampleRate: capture.sampleRate ?? null,
      captureChannels: capture.channelCount ?? null,
      graphSampleRate: this.#context?.sampleRate ?? null,
      graphChannels: 1,
      peerFmtp: remoteSdp ? readOpusFmtp(remoteSdp) : null,
    });
  }

  async #applyBitrate(peer: Peer, bitrate: number): Promise<void> {
    if (peer.appliedBitrate === bitrate) return;
    const sender = peer.pc.getSenders().find((candidate) => candidate.track?.kind === 'audio');
    if (!sender) return;
    const parameters = sender.getParameters();
    if (parameters.encodings.length === 0) return;
    for (const encoding of parameters.encodings) encoding.maxBitrate = bitrate;
    await sender.setParameters(parameters);
    peer.appliedBitrate = bitrate;
  }

  toggleMute(): void {
    const isMuted = !this.#state.isMuted;
    for (const track of this.#microphone?.getAudioTracks() ?? []) track.enabled = !isMuted;
    if (this.#outgoing) this.#outgoing.enabled = !isMuted;
    this.#set({ isMuted });
    this.#onSpeaking(this.#heard);
  }

  toggleDeafen(): void {
    const isDeafened = !this.#state.isDeafened;
    for (const peer of this.#peers.values()) if (peer.audio) peer.audio.muted = isDeafened;
    this.#set({ isDeafened });
  }

  /** The encryption toggle: seal frames or not, and tell the call (signed `encryption_status`). */
  setEncryption(enabled: boolean): void {
    this.#settings = { ...this.#settings, encryption: enabled };
    this.#post({ type: 'encrypt', enabled });
    this.#sayStatus(enabled);
    this.#set({ encryption: enabled ? (this.#keyVersion > 0 ? 'active' : 'initializing') : 'off' });
  }

  /** New disguise, volume or output settings, applied live. */
  updateSettings(settings: VoiceSettings): void {
    this.#settings = settings;
    this.#disguise?.port.postMessage(disguiseParams(settings));
    for (const peer of this.#peers.values()) if (peer.audio) peer.audio.volume = settings.volume;
  }

  get isDisguised(): boolean {
    return !isBypass(disguiseParams(this.#settings));
  }

  /** Leaves the call and releases every track, peer connection and audio resource. */
  close(): void {
    if (this.#isClosed) return;
    if (this.#isInCall)
      this.deps.socket.send({ type: 'voice_call_end', username: this.deps.username });
    this.#release();
    this.#set({ connection: 'disconnected', peers: [] });
  }

  #release(): void {
    this.#isClosed = true;
    this.#isInCall = false;
    for (const off of this.#offs.splice(0)) off();
    for (const timer of this.#timers.splice(0)) window.clearInterval(timer);
    if (this.#switchTimer !== null) window.clearTimeout(this.#switchTimer);
    if (this.#iceRenewTimer !== null) window.clearTimeout(this.#iceRenewTimer);
    for (const nodeId of [...this.#peers.keys()]) this.#dropPeer(nodeId);
    for (const track of this.#microphone?.getTracks() ?? []) track.stop();
    this.#outgoing?.stop();
    this.#activity?.close();
    this.#activity = null;
    this.#disguise?.disconnect();
    void this.#context?.close().catch(() => undefined);
    this.#worker?.terminate();
    this.#currentKey?.fill(0);
    this.#currentKey = null;
    this.#microphone = null;
    this.#outgoing = null;
    this.#context = null;
    this.#worker = null;
  }
}

/** The ICE servers and the TURN credential's life (seconds) from either form of the answer. */
function iceAnswer(answer: RTCIceServer[] | { iceServers: RTCIceServer[]; ttl?: number }): {
  iceServers: RTCIceServer[];
  ttl?: number | undefined;
} {
  return Array.isArray(answer) ? { iceServers: answer } : answer;
}
