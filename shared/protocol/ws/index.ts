/**
 * The whole client → server frame protocol of `/chat-ws` and `/ws` (both paths accept every
 * type, DESIGN.md). The hub reads `type` first, then parses the frame with that type's schema,
 * so a known type with a bad payload gets a precise error and an unknown type another.
 */
import { z } from 'zod';
import {
  JoinRoomFrameSchema,
  RequestUserListFrameSchema,
  SendMessageFrameSchema,
  TypingFrameSchema,
} from './chat.js';
import { BotChallengeResponseFrameSchema, SecurityAlertFrameSchema } from './security.js';
import {
  AdminBroadcastFrameSchema,
  AdminListUsersFrameSchema,
  AdminSystemMessageFrameSchema,
  EmergencyShutdownFrameSchema,
  RestoreServiceFrameSchema,
  SecurityBroadcastFrameSchema,
} from './admin.js';
import {
  EncryptionStatusFrameSchema,
  VoiceCallFrameSchema,
  WebrtcDirectFrameSchema,
  WebrtcSignalingFrameSchema,
} from './voice.js';
import {
  DmSendMessageFrameSchema,
  DmThreadDeleteFrameSchema,
  SessionAuthFrameSchema,
} from './dm.js';
import { KeyAnnounceFrameSchema, SenderKeyFrameSchema } from './e2ee.js';
import { LoginChallengeFrameSchema, LoginVerifyFrameSchema } from './auth.js';
import { GameControlFrameSchema, JoinGameFrameSchema, PaddleMoveFrameSchema } from './pong.js';
import {
  AppointModeratorFrameSchema,
  BanMemberFrameSchema,
  DeleteMessageFrameSchema,
  KickMemberFrameSchema,
  LockRoomFrameSchema,
  MuteMemberFrameSchema,
  RemoveModeratorFrameSchema,
  UnbanMemberFrameSchema,
  UnmuteMemberFrameSchema,
} from './moderation.js';

/** Schema of each client frame type. */
export const CLIENT_FRAME_SCHEMAS = {
  join_room: JoinRoomFrameSchema,
  send_message: SendMessageFrameSchema,
  typing_start: TypingFrameSchema,
  typing_stop: TypingFrameSchema,
  request_user_list: RequestUserListFrameSchema,
  key_announce: KeyAnnounceFrameSchema,
  sender_key: SenderKeyFrameSchema,
  security_alert: SecurityAlertFrameSchema,
  bot_challenge_response: BotChallengeResponseFrameSchema,
  admin_broadcast: AdminBroadcastFrameSchema,
  system_message: AdminSystemMessageFrameSchema,
  security_broadcast: SecurityBroadcastFrameSchema,
  admin_list_users: AdminListUsersFrameSchema,
  emergency_shutdown: EmergencyShutdownFrameSchema,
  restore_service: RestoreServiceFrameSchema,
  webrtc_signaling: WebrtcSignalingFrameSchema,
  webrtc_offer: WebrtcDirectFrameSchema,
  webrtc_answer: WebrtcDirectFrameSchema,
  webrtc_ice_candidate: WebrtcDirectFrameSchema,
  encryption_status: EncryptionStatusFrameSchema,
  voice_call_start: VoiceCallFrameSchema,
  voice_call_end: VoiceCallFrameSchema,
  session_auth: SessionAuthFrameSchema,
  login_challenge: LoginChallengeFrameSchema,
  login_verify: LoginVerifyFrameSchema,
  dm_send_message: DmSendMessageFrameSchema,
  dm_thread_delete: DmThreadDeleteFrameSchema,
  join_game: JoinGameFrameSchema,
  paddle_move: PaddleMoveFrameSchema,
  start_game: GameControlFrameSchema,
  reset_game: GameControlFrameSchema,
  kick_member: KickMemberFrameSchema,
  mute_member: MuteMemberFrameSchema,
  unmute_member: UnmuteMemberFrameSchema,
  delete_message: DeleteMessageFrameSchema,
  ban_member: BanMemberFrameSchema,
  unban_member: UnbanMemberFrameSchema,
  lock_room: LockRoomFrameSchema,
  unlock_room: LockRoomFrameSchema,
  appoint_moderator: AppointModeratorFrameSchema,
  remove_moderator: RemoveModeratorFrameSchema,
} as const;

/** Every client frame type. */
export type ClientFrameType = keyof typeof CLIENT_FRAME_SCHEMAS;

/** The parsed frame of a given type. */
export type ClientFrame<T extends ClientFrameType = ClientFrameType> = T extends ClientFrameType
  ? z.infer<(typeof CLIENT_FRAME_SCHEMAS)[T]> & { type: T }
  : never;

/** Only `type` is read before the per-type schema runs. */
export const FrameEnvelopeSchema = z.object({ type: z.string().max(64) });

/** True when `type` names a client frame. */
export function isClientFrameType(type: string): type is ClientFrameType {
  return Object.hasOwn(CLIENT_FRAME_SCHEMAS, type);
}

/** `{type:"error", message}`: the answer to a frame that could not be accepted. */
export const ErrorFrameSchema = z.object({
  type: z.literal('error'),
  message: z.string(),
  frameType: z.string().optional(),
  /** A login refused because the server's login queue is full: send it again after this wait. */
  retryAfterSeconds: z.number().int().positive().optional(),
});
export type ErrorFrame = z.infer<typeof ErrorFrameSchema>;
