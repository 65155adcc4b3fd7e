/** Abuse-control and screenshot-alert frames (spec 000 §4 "Bot challenge", §7). */
import { z } from 'zod';

/**
 * How a browser saw a screenshot attempt (spec 000 §7 `security_alert {alertType
 * screenshot_attempt, method}`; the spec leaves the values open): the key presses that
 * client/features/admin/screenshot-guard.ts recognises. An enum, because the server writes the
 * method into a SECURITY_SYSTEM message that everyone in the room reads (issue 15).
 */
export const ScreenshotMethodSchema = z.enum([
  'print_screen',
  'cmd_shift_3',
  'cmd_shift_4',
  'cmd_shift_5',
  'cmd_shift_s',
  'ctrl_shift_3',
  'ctrl_shift_4',
  'ctrl_shift_5',
  'ctrl_shift_s',
]);
export type ScreenshotMethod = z.infer<typeof ScreenshotMethodSchema>;

/** `security_alert`: the browser detected a screenshot attempt. */
export const SecurityAlertFrameSchema = z.strictObject({
  type: z.literal('security_alert'),
  alertType: z.literal('screenshot_attempt'),
  method: ScreenshotMethodSchema,
  timestamp: z.union([z.iso.datetime(), z.number()]),
});

/**
 * `bot_challenge_response {challengeId, answer}`; the answer must be non-empty (spec 000 §5).
 * It is the proof of work's number in decimal (shared/crypto/proof-of-work.ts).
 */
export const BotChallengeResponseFrameSchema = z.strictObject({
  type: z.literal('bot_challenge_response'),
  challengeId: z.string().min(1).max(100),
  answer: z.string().trim().min(1).max(50),
});

/**
 * Server → client abuse-control frames. `bot_challenge` keeps the spec's `{challengeId,
 * challenge, message}` and adds the rest of an ALTCHA proof-of-work challenge: `challenge` is
 * hex SHA-256(salt ‖ number), and the browser searches `0..maxnumber` for the number.
 */
export const BotChallengeFrameSchema = z.object({
  type: z.literal('bot_challenge'),
  challengeId: z.string(),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  message: z.string(),
  algorithm: z.literal('SHA-256'),
  salt: z.string().max(200),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
  maxnumber: z.number().int().positive(),
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
