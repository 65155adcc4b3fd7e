/**
 * Admin commands over the socket (spec 001 §7): each carries an admin token (an admin console
 * session or an admin key holder's session); failures answer `admin_error` to the sender only.
 */
import type { ClientFrame, ClientFrameType } from '../../../shared/protocol/ws/index.js';
import { isAppError } from '../../errors.js';
import type { Connection } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import { SERVICE_TEXT, type AdminOperations } from './operations.js';

export const ADMIN_FRAME_TEXT = {
  denied: 'Access denied, admin privileges required',
  failed: 'Admin command failed',
} as const;

export interface AdminFrameDeps {
  hub: Hub;
  operations: AdminOperations;
  /** The actor behind an admin token, or null when it is not one. */
  authorize: (token: string) => Promise<string | null>;
}

type AdminFrameType =
  | 'admin_broadcast'
  | 'system_message'
  | 'security_broadcast'
  | 'admin_list_users'
  | 'emergency_shutdown'
  | 'restore_service';

export function registerAdminFrames({ hub, operations, authorize }: AdminFrameDeps): void {
  const guarded = <T extends AdminFrameType>(
    type: T,
    run: (connection: Connection, frame: ClientFrame<T>, actor: string) => Promise<void>,
  ) => {
    hub.on(type, async (connection, frame) => {
      try {
        const actor = await authorize(frame.sessionToken);
        if (!actor) {
          connection.send({ type: 'admin_error', message: ADMIN_FRAME_TEXT.denied });
          return;
        }
        await run(connection, frame, `${actor}`);
      } catch (error) {
        connection.send({
          type: 'admin_error',
          message: isAppError(error) ? error.message : ADMIN_FRAME_TEXT.failed,
        });
        if (!isAppError(error)) throw error;
      }
    });
  };

  guarded('admin_broadcast', async (_connection, frame, actor) => {
    await operations.broadcast('admin', frame.message, actor);
  });
  guarded('system_message', async (_connection, frame, actor) => {
    await operations.broadcast('system', frame.message, actor);
  });
  guarded('security_broadcast', async (_connection, frame, actor) => {
    await operations.broadcast('security', frame.message, actor);
  });
  guarded('admin_list_users', async (connection) => {
    const users = await operations.listUsers();
    connection.send({
      type: 'user_list',
      users: users.map((user) => ({
        nodeId: user.nodeId,
        username: user.username,
        roomId: user.roomId,
        role: user.role,
        isAuthenticated: user.isAuthenticated,
        connectionTime: user.connectionTime,
      })),
    });
  });
  guarded('emergency_shutdown', async (_connection, frame, actor) => {
    await operations.shutdown(frame.reason, actor);
  });
  guarded('restore_service', async (connection, _frame, actor) => {
    // Already operational: only the sender hears so (its notice page returns), nobody else.
    if (!(await operations.restore(actor))) {
      connection.send({ type: 'service_restored', message: SERVICE_TEXT.alreadyOperational });
    }
  });
}

/** Frame types that still work during an emergency shutdown. */
export const FRAMES_ALLOWED_DURING_SHUTDOWN: ReadonlySet<ClientFrameType> = new Set([
  'restore_service',
]);
