/** HTTP schemas of service-level calls: ping (DESIGN.md, operator contract). */
import { z } from 'zod';

/** `GET /api/ping` answer. */
export const PingSchema = z.object({ ok: z.literal(true), time: z.iso.datetime() });
export type Ping = z.infer<typeof PingSchema>;
