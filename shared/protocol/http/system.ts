/** HTTP schemas of service-level calls: ping (DESIGN.md, operator contract). */
import { z } from 'zod';

/**
 * `GET /api/ping` answer. `degraded` is true while the process cannot relay through Redis (it is
 * away, or not every process is back yet): the process serves, but room messages are refused
 * until it heals by itself (docs/operations.md, "Degraded").
 */
export const PingSchema = z.object({
  ok: z.literal(true),
  time: z.iso.datetime(),
  degraded: z.boolean(),
});
export type Ping = z.infer<typeof PingSchema>;
