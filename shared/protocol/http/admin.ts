/** HTTP schemas of the admin and service-state calls (spec 001 §7 "Admin and service"). */
import { z } from 'zod';
import { isSafeMultiLineText, TEXT_RULE_PARAMS, unsafeTextMessage } from '../text.js';

const reason = z
  .string()
  .trim()
  .min(1, 'Please provide a reason for the emergency shutdown.')
  .max(500)
  .refine(isSafeMultiLineText, { message: unsafeTextMessage('reason'), params: TEXT_RULE_PARAMS });

/** `POST /api/admin/emergency-shutdown`: the admin password (or an admin bearer) and a reason. */
export const EmergencyShutdownRequestSchema = z.strictObject({
  password: z.string().min(1).max(512).optional(),
  reason,
});
/**
 * Idempotent (docs/decisions.md): a repeated shutdown answers 200 with `alreadyInEffect: true`,
 * changes nothing and closes nothing. `usersDisconnected` counts every socket closed.
 */
export const EmergencyShutdownResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  usersDisconnected: z.number().int().nonnegative(),
  alreadyInEffect: z.boolean(),
});

/** `POST /api/admin/restore-service`. */
export const RestoreServiceRequestSchema = z.strictObject({
  password: z.string().min(1).max(512).optional(),
});
/** Idempotent: while operational it answers 200 with `alreadyOperational: true`, announcing nothing. */
export const RestoreServiceResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  alreadyOperational: z.boolean(),
});

/**
 * `GET /api/service-status`: the public service state (spec 001 §4), what every socket is told
 * anyway; answers during an emergency shutdown too.
 */
export const PublicServiceStatusSchema = z.object({
  status: z.enum(['operational', 'emergency']),
  reason: z.string().nullable(),
  since: z.iso.datetime().nullable(),
});
export type PublicServiceStatus = z.infer<typeof PublicServiceStatusSchema>;

/**
 * `GET /api/admin/status` (admin session or admin key): the service state (spec 001 §4
 * "Emergency panel") and the number of open connections.
 */
export const ServiceStatusSchema = PublicServiceStatusSchema.extend({
  connections: z.number().int().nonnegative(),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

/** One audit entry. */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  actor: z.string(),
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export const AuditLogSchema = z.object({ entries: z.array(AuditEntrySchema) });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** `GET /api/admin/audit?limit=` query. */
export const AuditQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
