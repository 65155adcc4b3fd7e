/** Admin and service-state frames (spec 001 §7 "WebSocket"). */
import { z } from 'zod';
import { displayTextSchema } from '../text.js';

const token = z.string().min(1).max(200);
const text = displayTextSchema({ label: 'message', max: 2000 });

/** Admin commands sent from the chat or the maintenance console; each carries an admin token. */
export const AdminBroadcastFrameSchema = z.strictObject({
  type: z.literal('admin_broadcast'),
  sessionToken: token,
  message: text,
});
export const AdminSystemMessageFrameSchema = z.strictObject({
  type: z.literal('system_message'),
  sessionToken: token,
  message: text,
});
export const SecurityBroadcastFrameSchema = z.strictObject({
  type: z.literal('security_broadcast'),
  sessionToken: token,
  message: text,
});
export const AdminListUsersFrameSchema = z.strictObject({
  type: z.literal('admin_list_users'),
  sessionToken: token,
});
export const EmergencyShutdownFrameSchema = z.strictObject({
  type: z.literal('emergency_shutdown'),
  sessionToken: token,
  reason: displayTextSchema({ label: 'reason', max: 2000 }),
});
export const RestoreServiceFrameSchema = z.strictObject({
  type: z.literal('restore_service'),
  sessionToken: token,
});

/** Server → client service frames. */
export const AdminMessageFrameSchema = z.object({
  type: z.literal('admin_message'),
  message: z.string(),
  timestamp: z.iso.datetime(),
});
export const SystemBroadcastFrameSchema = z.object({
  type: z.literal('system_broadcast'),
  message: z.string(),
  level: z.enum(['info', 'warning', 'critical']),
  timestamp: z.iso.datetime(),
});
export const AdminErrorFrameSchema = z.object({
  type: z.literal('admin_error'),
  message: z.string(),
});
export const EmergencyShutdownNoticeFrameSchema = z.object({
  type: z.literal('emergency_shutdown_notice'),
  reason: z.string(),
  timestamp: z.iso.datetime(),
});
export const MaintenanceModeFrameSchema = z.object({
  type: z.literal('maintenance_mode'),
  message: z.string(),
});
export const ServiceRestoredFrameSchema = z.object({
  type: z.literal('service_restored'),
  message: z.string(),
});

/** `user_list`: the answer to admin_list_users. */
export const UserListFrameSchema = z.object({
  type: z.literal('user_list'),
  users: z.array(
    z.object({
      nodeId: z.string(),
      username: z.string(),
      roomId: z.string(),
      role: z.string(),
      isAuthenticated: z.boolean(),
      connectionTime: z.iso.datetime(),
    }),
  ),
});
