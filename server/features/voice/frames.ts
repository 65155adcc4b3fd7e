/**
 * Voice frames over the socket (spec 000 §7): joining and leaving a room's call, and the relay of
 * signalling to one participant. Each socket has its own signalling allowance on top of the
 * hub's; a refused frame gets an error and is relayed nowhere.
 */
import { AppError } from '../../errors.js';
import type { Connection } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import { TokenBucket } from '../../realtime/token-bucket.js';
import { VOICE_TEXT, type SignalKind, type VoiceMember, type VoiceService } from './service.js';

/** A socket may send this many signalling frames at once, times its per-second rate. */
export const VOICE_SIGNAL_BURST_SECONDS = 4;

export interface VoiceFrameDeps {
  hub: Hub;
  service: VoiceService;
  /** Signalling frames per second per socket (the bucket holds VOICE_SIGNAL_BURST_SECONDS of them). */
  signalsPerSecond: number;
  now: () => number;
}

export function registerVoiceFrames(deps: VoiceFrameDeps): void {
  const { hub, service } = deps;
  const buckets = new WeakMap<Connection, TokenBucket>();

  const memberOf = (connection: Connection): VoiceMember => {
    if (!connection.roomId || !connection.username)
      throw new AppError('NOT_IN_ROOM', 400, VOICE_TEXT.notInRoom);
    return { roomId: connection.roomId, nodeId: connection.nodeId, username: connection.username };
  };

  const signaller = (connection: Connection): VoiceMember => {
    const member = memberOf(connection);
    let bucket = buckets.get(connection);
    if (!bucket) {
      bucket = new TokenBucket(
        deps.signalsPerSecond * VOICE_SIGNAL_BURST_SECONDS,
        deps.signalsPerSecond,
        deps.now,
      );
      buckets.set(connection, bucket);
    }
    if (!bucket.take()) throw new AppError('VOICE_SIGNAL_RATE', 429, VOICE_TEXT.tooFast);
    return member;
  };

  hub.on('voice_call_start', async (connection) => {
    const member = memberOf(connection);
    const own = await service.join(member);
    if (own) connection.send(own);
    // The socket closed or left the room while it was joining: its leave may have run before the
    // join was stored, so leave again rather than keep a participant nobody can reach.
    if (!connection.isOpen || connection.roomId !== member.roomId) await service.leave(member);
  });

  hub.on('voice_call_end', async (connection) => {
    if (!connection.roomId || !connection.username) return;
    await service.leave(memberOf(connection));
  });

  hub.on('webrtc_signaling', async (connection, frame) => {
    await service.relaySignal(signaller(connection), frame);
  });

  const direct = async (
    connection: Connection,
    frame: { type: SignalKind; target: string; data?: unknown },
  ) => {
    await service.relayDirect(signaller(connection), { ...frame, data: frame.data });
  };
  hub.on('webrtc_offer', direct);
  hub.on('webrtc_answer', direct);
  hub.on('webrtc_ice_candidate', direct);

  hub.on('encryption_status', async (connection, frame) => {
    await service.relayEncryptionStatus(signaller(connection), frame);
  });
}
