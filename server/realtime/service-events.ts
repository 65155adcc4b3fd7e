/**
 * Service-wide events that every process must act on for its own sockets: an emergency shutdown
 * or restore, an admin broadcast, a revoked key. Published on the `service` channel of the fan-out
 * (in-process, or Redis with several processes), so the process that received the admin's
 * command acts exactly like the others.
 */
import { z } from 'zod';
import type { Fanout } from './fanout.js';

export const ServiceEventSchema = z.discriminatedUnion('kind', [
  // `origin`: the process that ran the shutdown; it has closed its own sockets already.
  z.object({
    kind: z.literal('shutdown'),
    reason: z.string(),
    timestamp: z.string(),
    origin: z.string().optional(),
  }),
  // How many sockets another process closed for the shutdown `origin` ran at `timestamp`.
  z.object({
    kind: z.literal('closed'),
    origin: z.string(),
    timestamp: z.string(),
    count: z.number().int().nonnegative(),
  }),
  z.object({ kind: z.literal('restore'), message: z.string() }),
  z.object({ kind: z.literal('broadcast'), frame: z.looseObject({ type: z.string() }) }),
  z.object({ kind: z.literal('revoked'), keyId: z.string() }),
  // Room moderation: the feature parses `event` with its own schema (features/moderation/events.ts).
  z.object({ kind: z.literal('moderation'), event: z.looseObject({ op: z.string() }) }),
]);
export type ServiceEvent = z.infer<typeof ServiceEventSchema>;

const CHANNEL = 'service';

export class ServiceEvents {
  constructor(private readonly fanout: Fanout) {}

  publish(event: ServiceEvent): Promise<void> {
    return this.fanout.publish(CHANNEL, JSON.stringify(event));
  }

  /** Runs `handler` for every event, this process's own included. */
  async listen(handler: (event: ServiceEvent) => void): Promise<void> {
    await this.fanout.subscribe(CHANNEL, (payload) => {
      const parsed = ServiceEventSchema.safeParse(JSON.parse(payload));
      if (parsed.success) handler(parsed.data);
    });
  }
}
