/** The voice feature: room calls, signalling relay and the ICE configuration (DESIGN.md "Voice"). */
import type { IceServer } from '../../../shared/protocol/http/voice.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { Connection } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import { registerVoiceFrames } from './frames.js';
import { voiceRoutes } from './routes.js';
import { VoiceService, type VoicePublish } from './service.js';
import { MemoryVoiceCallStore, type VoiceCallStore } from './store.js';

export {
  byJoiningOrder,
  MemoryVoiceCallStore,
  type VoiceCall,
  type VoiceCallStore,
  type VoiceJoinResult,
  type VoiceLeaveResult,
} from './store.js';
export { VOICE_TEXT, VoiceService, type VoiceMember } from './service.js';
export { issueTurnCredential, turnPassword, type TurnCredential } from './turn-credentials.js';
export { iceServersFor } from './routes.js';
export { VOICE_SIGNAL_BURST_SECONDS } from './frames.js';

/** `GET /api/voice/ice-servers` calls one address may make a minute. */
export const ICE_SERVER_REQUESTS_PER_MINUTE = 30;

export interface VoiceFeatureDeps {
  hub: Hub;
  publish: VoicePublish;
  setVoiceActive: (roomId: string, nodeId: string, isVoiceActive: boolean) => Promise<void>;
  /** The node ids of the room's members now. */
  roomMembers: (roomId: string) => Promise<Set<string>>;
  /** Signalling frames per call in one-second windows (shared between processes). */
  callSignals: RateLimiter;
  roomSessionOf: (grant: string) => Promise<{ roomId: string; nodeId: string } | null>;
  config: {
    iceServers: IceServer[] | null;
    turn: { urls: string[]; secret: string; ttlSeconds: number } | null;
    maxParticipants: number;
    signalsPerSecond: number;
  };
  now: () => number;
  store?: VoiceCallStore;
}

export function createVoiceFeature(deps: VoiceFeatureDeps) {
  const service = new VoiceService({
    store: deps.store ?? new MemoryVoiceCallStore(),
    publish: deps.publish,
    setVoiceActive: deps.setVoiceActive,
    roomMembers: deps.roomMembers,
    callSignals: deps.callSignals,
    maxParticipants: deps.config.maxParticipants,
    now: deps.now,
  });
  registerVoiceFrames({
    hub: deps.hub,
    service,
    signalsPerSecond: deps.config.signalsPerSecond,
    now: deps.now,
  });
  return {
    service,
    /** A socket left `roomId` (any reason): it leaves the room's call too. */
    left: (connection: Connection, roomId: string) =>
      service.leave({ roomId, nodeId: connection.nodeId, username: connection.username ?? '' }),
    /** A socket joined `roomId`: it learns of the call that is on, if any. */
    joined: async (connection: Connection, roomId: string) => {
      const frame = await service.currentCall(roomId);
      if (frame && connection.roomId === roomId) connection.send(frame);
    },
    routes: voiceRoutes({
      iceServers: deps.config.iceServers,
      turn: deps.config.turn,
      roomSessionOf: deps.roomSessionOf,
      now: deps.now,
      requestsPerMinute: ICE_SERVER_REQUESTS_PER_MINUTE,
    }),
  };
}
