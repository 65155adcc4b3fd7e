/**
 * The direct-messages feature: threads and ciphertext in the database, realtime notices to the
 * participants through per-user channels, expiry on the server.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import type { ConnectionIdentity } from '../../realtime/connection.js';
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

const DM_FRAME_TEXT = { keyRequired: 'Direct messages require a key session' } as const;

export function createDmFeature(deps: DmFeatureDeps) {
  const service = new DmService(
    createDmStore(deps.db),
    { notify: (keyId, frame) => deps.users.publish(keyId, frame) },
    deps.now,
  );

  deps.hub.on('session_auth', async (connection, frame) => {
    const identity = await deps.authenticate(frame.sessionToken);
    if (!identity) throw new AppError('SESSION_INVALID', 401, TEXT.sessionInvalid);
    if (connection.identity && connection.identity.keyId !== identity.keyId) {
      await deps.users.remove(connection.identity.keyId, connection);
    }
    connection.identity = identity;
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
    if (connection.identity) await deps.users.remove(connection.identity.keyId, connection);
  });

  return { service, routes: dmRoutes({ service, requireKey: deps.requireKey }) };
}
