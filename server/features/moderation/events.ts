/**
 * What every process must do to its own sockets after a moderation action, carried by the
 * service events (server/realtime/service-events.ts) like a key revocation: the process that took
 * the action may not hold the target's socket.
 *
 * A `nodeId` names one connection (an anonymous visitor); a `subject` (`key:<keyId>`) names every
 * socket of a key holder in the room.
 */
import { z } from 'zod';

const Target = { subject: z.string().nullable(), nodeId: z.string().nullable() };

export const ModerationEventSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('remove'),
    roomId: z.string(),
    ...Target,
    action: z.enum(['kick', 'ban']),
    until: z.number().nullable(),
    message: z.string(),
  }),
  z.object({ op: z.literal('mute'), roomId: z.string(), ...Target, until: z.number() }),
  z.object({ op: z.literal('unmute'), roomId: z.string(), ...Target }),
  z.object({
    op: z.literal('role'),
    roomId: z.string(),
    keyId: z.string(),
    role: z.enum(['member', 'moderator', 'room_admin', 'service_admin']),
  }),
  z.object({ op: z.literal('lock'), roomId: z.string(), isLocked: z.boolean() }),
]);
export type ModerationEvent = z.infer<typeof ModerationEventSchema>;
