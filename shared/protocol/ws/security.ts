/** Abuse-control and screenshot-alert frames (spec 000 §4 "Bot challenge", §7). */
import { z } from 'zod';

/** `security_alert`: the browser detected a screenshot attempt. */
export const SecurityAlertFrameSchema = z.strictObject({
  type: z.literal('security_alert'),
  alertType: z.literal('screenshot_attempt'),
  method: z.string().max(64),
  timestamp: z.union([z.iso.datetime(), z.number()]),
});

/** `bot_challenge_response {challengeId, answer}`; the answer must be non-empty (spec 000 §5). */
export const BotChallengeResponseFrameSchema = z.strictObject({
  type: z.literal('bot_challenge_response'),
  challengeId: z.string().min(1).max(100),
  answer: z.string().trim().min(1).max(50),
});

/** Server → client abuse-control frames. */
export const BotChallengeFrameSchema = z.object({
  type: z.literal('bot_challenge'),
  challengeId: z.string(),
  challenge: z.string(),
  message: z.string(),
});
export const BotOutcomeFrameSchema = z.object({
  type: z.enum(['bot_challenge_success', 'bot_challenge_failed', 'bot_detected']),
  message: z.string(),
});
export const SecurityAlertBroadcastFrameSchema = z.object({
  type: z.literal('security_alert'),
  message: z.string(),
  username: z.string(),
  timestamp: z.iso.datetime(),
});
