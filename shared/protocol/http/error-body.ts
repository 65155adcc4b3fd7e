/** The body of every HTTP error answer (spec 000 §8, spec 001 §7). */
import { z } from 'zod';

/**
 * Admin authentication failures also carry the spec's `success: false` and `message` (spec 001
 * §7, the same text as `error`).
 */
export const ErrorBodySchema = z.object({
  error: z.string(),
  success: z.literal(false).optional(),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
