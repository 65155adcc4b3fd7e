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
