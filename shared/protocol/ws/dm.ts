/** Direct-message notification frames (spec 001 §7 "Direct messages"). */
import { z } from 'zod';
import { KeyIdSchema } from '../../ids.js';

export const DmSendMessageFrameSchema = z.strictObject({
  type: z.literal('dm_send_message'),
  threadId: z.string().min(1).max(80),
  recipientKeyId: KeyIdSchema,
});
export const DmThreadDeleteFrameSchema = z.strictObject({
  type: z.literal('dm_thread_delete'),
  threadId: z.string().min(1).max(80),
  recipientKeyId: KeyIdSchema,
});

/** `session_auth`: ties a socket that is in no room (the direct-messages screen) to a key session. */
export const SessionAuthFrameSchema = z.strictObject({
  type: z.literal('session_auth'),
  sessionToken: z.string().min(1).max(200),
});

/** Server → client direct-message frames. */
export const SessionAuthenticatedFrameSchema = z.object({
  type: z.literal('session_authenticated'),
  keyId: z.string(),
});
export const DmMessageReceivedFrameSchema = z.object({
  type: z.enum(['dm_message_received', 'dm_thread_updated']),
  threadId: z.string(),
  fromKeyId: z.string().optional(),
});
export const DmThreadDeletedFrameSchema = z.object({
  type: z.literal('dm_thread_deleted'),
  threadId: z.string(),
  reason: z.enum(['deleted', 'expired']),
});
