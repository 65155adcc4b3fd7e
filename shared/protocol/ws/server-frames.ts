/** Every server → client frame, for the browser to parse before it acts on one. */
import { z } from 'zod';
import {
  MessageDeletedFrameSchema,
  MessagesExpiredFrameSchema,
  NewMessageFrameSchema,
  RoomDestroyedFrameSchema,
  RoomJoinedFrameSchema,
  RoomUpdatedFrameSchema,
  SystemMessageFrameSchema,
  TypingBroadcastFrameSchema,
  UserListUpdateFrameSchema,
  UserPresenceFrameSchema,
  UsersJoinedFrameSchema,
} from './chat.js';
import {
  BotChallengeFrameSchema,
  BotOutcomeFrameSchema,
  SecurityAlertBroadcastFrameSchema,
} from './security.js';
import {
  AdminErrorFrameSchema,
  AdminMessageFrameSchema,
  EmergencyShutdownNoticeFrameSchema,
  MaintenanceModeFrameSchema,
  ServiceRestoredFrameSchema,
  SystemBroadcastFrameSchema,
  UserListFrameSchema,
} from './admin.js';
import { ErrorFrameSchema } from './index.js';
import { LoginChallengeIssuedFrameSchema, LoginSessionFrameSchema } from './auth.js';
import { ModerationStateFrameSchema, RemovedFromRoomFrameSchema } from './moderation.js';
import {
  DmMessageReceivedFrameSchema,
  DmThreadDeletedFrameSchema,
  SessionAuthenticatedFrameSchema,
} from './dm.js';
import {
  KeyAnnouncedFrameSchema,
  KeyBundlesFrameSchema,
  SenderKeyDeliveredFrameSchema,
} from './e2ee.js';
import {
  EncryptionStatusRelayFrameSchema,
  VoiceCallEndedFrameSchema,
  VoiceCallParticipantsFrameSchema,
  VoiceCallStartedFrameSchema,
  WebrtcDirectRelayFrameSchema,
  WebrtcSignalingRelayFrameSchema,
} from './voice.js';

/** The frames the chat client understands. */
export const ServerFrameSchema = z.discriminatedUnion('type', [
  RoomJoinedFrameSchema,
  NewMessageFrameSchema,
  MessageDeletedFrameSchema,
  MessagesExpiredFrameSchema,
  UserPresenceFrameSchema,
  UsersJoinedFrameSchema,
  UserListUpdateFrameSchema,
  TypingBroadcastFrameSchema,
  SystemMessageFrameSchema,
  RoomDestroyedFrameSchema,
  RoomUpdatedFrameSchema,
  BotChallengeFrameSchema,
  BotOutcomeFrameSchema,
  SecurityAlertBroadcastFrameSchema,
  AdminMessageFrameSchema,
  SystemBroadcastFrameSchema,
  AdminErrorFrameSchema,
  EmergencyShutdownNoticeFrameSchema,
  MaintenanceModeFrameSchema,
  ServiceRestoredFrameSchema,
  UserListFrameSchema,
  KeyAnnouncedFrameSchema,
  KeyBundlesFrameSchema,
  SenderKeyDeliveredFrameSchema,
  SessionAuthenticatedFrameSchema,
  LoginChallengeIssuedFrameSchema,
  LoginSessionFrameSchema,
  DmMessageReceivedFrameSchema,
  DmThreadDeletedFrameSchema,
  ModerationStateFrameSchema,
  RemovedFromRoomFrameSchema,
  VoiceCallStartedFrameSchema,
  VoiceCallParticipantsFrameSchema,
  VoiceCallEndedFrameSchema,
  WebrtcSignalingRelayFrameSchema,
  WebrtcDirectRelayFrameSchema,
  EncryptionStatusRelayFrameSchema,
  ErrorFrameSchema,
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
