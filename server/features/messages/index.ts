/** The messages feature: ephemeral room messages, their relay and their expiry. */
import type { FastifyBaseLogger } from 'fastify';
import { WS_ERROR } from '../../../shared/protocol/errors.js';
import { isAppError } from '../../errors.js';
import { errorForLog } from '../../lib/log-error.js';
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import { MessageService, type MessageServiceDeps } from './service.js';
import { MemoryMessageStore, type EphemeralMessageStore } from './store.js';

export { EXPIRY_NOTICE_INTERVAL_MS, MessageService, MESSAGE_TEXT } from './service.js';
export {
  DEFAULT_HELD_MESSAGE_BUDGET,
  heldBudgetRefusal,
  MemoryMessageStore,
  MAX_MESSAGES_PER_ROOM,
  type HeldMessageBudget,
  type EncodedMessage,
  type EphemeralMessageStore,
} from './store.js';

export interface MessagesFeatureDeps {
  hub: Hub;
  channels: RoomChannels;
  ttlSeconds: number;
  now: () => number;
  store?: EphemeralMessageStore;
  bindImage: MessageServiceDeps['bindImage'];
  /** Where a failure to relay a message through Redis is logged. */
  logger?: FastifyBaseLogger;
}

export function createMessagesFeature(deps: MessagesFeatureDeps) {
  const service = new MessageService({
    store: deps.store ?? new MemoryMessageStore(),
    channels: deps.channels,
    ttlSeconds: deps.ttlSeconds,
    now: deps.now,
    bindImage: deps.bindImage,
    // What the hub does with a handler's failure, for the relay that `send` no longer awaits.
    // A refusal (a held-bytes budget) is the sender's own error, as the hub would send it.
    onRelayFailure: (connection, error) => {
      const refused = isAppError(error);
      if (!refused) {
        deps.logger?.error(
          { nodeId: connection.nodeId, stage: 'send_message', err: errorForLog(error) },
          'realtime handler failed',
        );
      }
      const text = refused ? error.message : WS_ERROR.internal;
      const frame = { type: 'error', message: text, frameType: 'send_message' };
      connection.send(
        connection.path === '/ws'
          ? { ...frame, data: { message: text }, timestamp: deps.now() }
          : frame,
      );
    },
  });
  deps.hub.on('send_message', (connection, frame) => service.receive(connection, frame));
  return { service };
}
