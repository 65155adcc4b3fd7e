/**
 * The direct-messages feature: threads and ciphertext in the database, realtime notices to the
 * participants through per-user channels, expiry on the server.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import type { Connection, ConnectionIdentity } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import type { UserChannels } from '../../realtime/user-channels.js';
import { dmRoutes } from './routes.js';
import { DmService } from './service.js';
import { createDmStore } from './store.js';

export { DmService, DM_TEXT } from './service.js';

export interface DmFeatureDeps {
  db: Db;
  hub: Hub;
  users: UserChannels;
  now: () => number;
  requireKey: preHandlerAsyncHookHandler;
  authenticate: (token: string) => Promise<ConnectionIdentity | null>;
}

export const DM_FRAME_TEXT = {
  keyRequired: 'Direct messages require a key session',
  identityFixed:
    'This connection is in a channel under another identity: leave the channel before presenting another key session',
} as const;

export function createDmFeature(deps: DmFeatureDeps) {
  const service = new DmService(
    createDmStore(deps.db),
    { notify: (keyId, frame) => deps.users.publish(keyId, frame) },
    deps.now,
  );

  /** The key whose per-user channel each socket is in (join_room may change its identity). */
  const subscribed = new WeakMap<Connection, string>();

  deps.hub.on('session_auth', async (connection, frame) => {
    const identity = await deps.authenticate(frame.sessionToken);
    if (!identity) throw new AppError('SESSION_INVALID', 401, TEXT.sessionInvalid);
    // One socket, one identity: the identity a socket joined its room with (a key, or none)
    // stays while it is there; moderation and revocation find it by that identity.
    if (connection.roomId !== null && connection.identity?.keyId !== identity.keyId) {
      throw new AppError('IDENTITY_FIXED', 409, DM_FRAME_TEXT.identityFixed);
    }
    const previous = subscribed.get(connection);
    if (previous !== undefined && previous !== identity.keyId) {
      await deps.users.remove(previous, connection);
    }
    connection.identity = identity;
    connection.proved(identity.keyId);
    subscribed.set(connection, identity.keyId);
    await deps.users.add(identity.keyId, connection);
    connection.send({ type: 'session_authenticated', keyId: identity.keyId });
  });

  const keyOf = (identity: ConnectionIdentity | null) => {
    if (!identity) throw new AppError('KEY_REQUIRED', 401, DM_FRAME_TEXT.keyRequired);
    return identity.keyId;
  };
  deps.hub.on('dm_send_message', async (connection, frame) => {
    await service.announceMessage(keyOf(connection.identity), frame.threadId, frame.recipientKeyId);
  });
  deps.hub.on('dm_thread_delete', async (connection, frame) => {
    // The HTTP delete already told the other side; a thread that still exists is deleted here.
    const caller = keyOf(connection.identity);
    try {
      await service.deleteThread(caller, frame.threadId);
    } catch (error) {
      if (!(error instanceof AppError && error.status === 404)) throw error;
    }
  });
  deps.hub.onDisconnect(async (connection) => {
    const keyId = subscribed.get(connection);
    if (keyId !== undefined) await deps.users.remove(keyId, connection);
  });

  return { service, routes: dmRoutes({ service, requireKey: deps.requireKey }) };
}
